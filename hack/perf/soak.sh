#!/usr/bin/env bash
# Soak on the real control plane: ModelServers and BenchmarkRuns created and deleted in a loop (20 pairs alive, one
# pair a second) against the packaged operator; afterwards no orphaned Deployment, Service, Job, pod, ConfigMap or
# PVC, the operator's RSS at the end within 10 % of its level after the first minute, its work queue empty.
# See docs/performance.md.
#
#   hack/perf/soak.sh           # 10 minutes; exits 1 if a target is missed
#   hack/perf/soak.sh 3         # 3 minutes
#   hack/perf/soak.sh smoke     # 30 seconds, figures printed, targets not judged (CI)
#   hack/perf/soak.sh 5 --profile --jvm-flag=-XX:TieredStopAtLevel=1
#                               # also heap histograms, native memory and jstat at the mark and the end; a JVM flag
#
# Prints a table; writes target/perf/soak.json (and the operator's log under target/perf/soak/).
source "$(dirname "$0")/common.sh"
exec java -cp "$PERF_CLASSPATH" "${PERF_JAVA_FLAGS[@]}" \
  dev.llmops.serving.perf.SoakBenchmark "$@"
