#!/usr/bin/env bash
# Time to Ready on the real control plane: a slow-start SGLang simulator behind a ModelServer (packaged operator, a
# probing kubelet) beside the same server probed with OME's settings. See docs/performance.md.
#
#   hack/perf/time-to-ready.sh        # 7 repetitions per arm
#   hack/perf/time-to-ready.sh 15
#
# Prints a table; writes target/perf/time-to-ready.json (and the operator's log under target/perf/time-to-ready/).
source "$(dirname "$0")/common.sh"
exec java -cp "$PERF_CLASSPATH" -De2e.projectDir=. -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
  dev.llmops.serving.perf.TimeToReadyBenchmark "$@"
