#!/usr/bin/env bash
# Regenerates src/test/resources/sglang-<VERSION>-flag-names.txt: every command-line flag SGLang's ServerArgs declares
# (each `field: A[...]` as --field-name, and each alias), sorted, one per line. PinnedSglangFlagsTest checks every flag
# the compatibility table (src/main/resources/compatibility/sglang-accelerator-rules.yaml) names against this list, so
# bump VERSION together with the operator's pinned image, run this script and commit the new list.
#
#   hack/sglang-flag-names.sh            # the pinned version
#   hack/sglang-flag-names.sh 0.5.19
#
# Needs pip and unzip.
set -euo pipefail
cd "$(dirname "$0")/.."

version="${1:-0.5.18}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

pip download --quiet --no-deps --dest "$work" "sglang==${version}"
unzip -q -o "$work"/sglang-"${version}"-*.whl 'sglang/srt/server_args.py' -d "$work"
args="$work/sglang/srt/server_args.py"
out="src/test/resources/sglang-${version}-flag-names.txt"
{
  grep -oE '^    [a-z][a-z0-9_]*: A\[' "$args" | sed -E 's/^    ([a-z0-9_]+): A\[/\1/' | tr _ - | sed 's/^/--/'
  grep -oE 'aliases=\[[^]]*\]' "$args" | grep -oE '"--[a-z0-9-]+"' | tr -d '"'
} | LC_ALL=C sort -u >"$out"
echo "wrote $out ($(wc -l <"$out") flags from sglang ${version})"
