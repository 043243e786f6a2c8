#!/usr/bin/env bash
# Operator at scale on the real control plane: N ModelServers (with their BenchmarkRuns) to a bare fabric8 client
# creating the same children, to that client applying them server-side, and to the packaged operator.
# See docs/performance.md.
#
#   hack/perf/operator-scale.sh                # sizes 100 500 1000
#   hack/perf/operator-scale.sh 100 --profile  # plus the operator's native memory, heap histogram, thread dumps
#   hack/perf/operator-scale.sh 1000 --operator-only --jvm-flag=-XX:MaxHeapFreeRatio=20   # try a JVM flag: the
#                                              # operator arm alone, no ratio to the bare client
#
# Prints a table and, from 1000 ModelServers up, PASS or MISS per target (exit code 1 on a MISS); writes
# target/perf/operator-scale.json (and the operator's log per size under target/perf/).
source "$(dirname "$0")/common.sh"
exec java -cp "$PERF_CLASSPATH" "${PERF_JAVA_FLAGS[@]}" \
  dev.llmops.serving.perf.OperatorScaleBenchmark "$@"
