#!/usr/bin/env bash
# Regenerates src/test/resources/sglang-<VERSION>-metric-names.txt: every metric name SGLang's metrics collector
# declares (name="sglang:..."), sorted, one per line. SglangMetricNamesTest checks the names the bench runner reads
# against this list, and MonitoringQueriesTest the chart's dashboard queries, so bump VERSION (here and in
# PinnedSglangMetrics) together with the operator's pinned image (lmsysorg/sglang:vVERSION-...), run this script and
# commit the new list; a renamed or removed metric then fails the tests.
#
#   hack/sglang-metric-names.sh            # the pinned version
#   hack/sglang-metric-names.sh 0.5.19
#
# Needs pip and unzip. Counters are listed as declared; prometheus_client exports a counter declared as
# "sglang:x_total" (or "sglang:x") as the sample "sglang:x_total".
set -euo pipefail
cd "$(dirname "$0")/.."

version="${1:-0.5.18}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

pip download --quiet --no-deps --dest "$work" "sglang==${version}"
unzip -q -o "$work"/sglang-"${version}"-*.whl 'sglang/srt/observability/metrics_collector.py' -d "$work"
out="src/test/resources/sglang-${version}-metric-names.txt"
grep -oE 'name="sglang:[A-Za-z0-9_:]+"' "$work/sglang/srt/observability/metrics_collector.py" \
    | sed -E 's/^name="(.*)"$/\1/' \
    | LC_ALL=C sort -u >"$out"
echo "wrote $out ($(wc -l <"$out") names from sglang ${version})"
