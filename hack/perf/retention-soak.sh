#!/usr/bin/env bash
# Retention soak on the real control plane: 1000 BenchmarkRuns finish one after another, each with 160 KiB of samples
# and a Job, under keepLast 50, against the packaged operator archiving them to S3Proxy; the runs, ConfigMaps, Jobs
# and pods etcd holds and the operator's RSS must stay flat, and every run must reach the archive.
# See docs/performance.md.
#
#   hack/perf/retention-soak.sh          # 1000 runs; exits 1 if a target is missed
#   hack/perf/retention-soak.sh 300      # 300 runs
#   hack/perf/retention-soak.sh smoke    # 60 runs, figures printed, targets not judged (CI)
#
# Prints a table; writes target/perf/retention-soak.json (and the operator's log under target/perf/retention-soak/).
source "$(dirname "$0")/common.sh"
exec java -cp "$PERF_CLASSPATH" "${PERF_JAVA_FLAGS[@]}" \
  dev.llmops.serving.perf.RetentionSoakBenchmark "$@"
