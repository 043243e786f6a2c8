#!/usr/bin/env bash
# The operator's overhead per ServingExperiment variant on the real control plane: the pool's hand-over from one
# variant's pods gone to the next ModelServer, and a ready ModelServer to its BenchmarkRun and Job. See
# docs/performance.md.
#
#   hack/perf/experiment-overhead.sh      # 5 variants
#   hack/perf/experiment-overhead.sh 2    # the shortest: one hand-over
#
# Prints a table and PASS or MISS against the 5 s target (exit code 1 on a MISS); writes
# target/perf/experiment-overhead.json and the operator's log under target/perf/experiment-overhead/.
source "$(dirname "$0")/common.sh"
exec java -cp "$PERF_CLASSPATH" "${PERF_JAVA_FLAGS[@]}" \
  dev.llmops.serving.perf.ExperimentOverheadBenchmark "$@"
