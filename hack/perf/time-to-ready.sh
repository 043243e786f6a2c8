#!/usr/bin/env bash
# Time to Ready on the real control plane: a slow-start SGLang simulator behind a ModelServer (packaged operator, a
# probing kubelet), on one node and as a 2-node LeaderWorkerSet group (the real LWS controller), beside the same server
# probed with OME's settings. See docs/performance.md.
#
#   hack/perf/time-to-ready.sh        # 7 repetitions per arm
#   hack/perf/time-to-ready.sh 15
#   hack/perf/time-to-ready.sh 1      # the shortest mode, one repetition per arm: what CI runs so it cannot rot
#
# The plane runs no kubelet of its own: the benchmark's probing kubelet alone runs the pods it measures, and a pod run
# by anything else fails the run, naming the pod, its IP and the kubelet that wrote it.
#
# Prints a table and, from 5 repetitions, PASS or MISS for the operator's median against 1.45 s (exit code 1 on a
# MISS); writes target/perf/time-to-ready.json (and the operator's log under target/perf/time-to-ready/).
source "$(dirname "$0")/common.sh"
exec java -cp "$PERF_CLASSPATH" "${PERF_JAVA_FLAGS[@]}" \
  dev.llmops.serving.perf.TimeToReadyBenchmark "$@"
