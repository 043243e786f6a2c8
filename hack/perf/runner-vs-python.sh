#!/usr/bin/env bash
# Measures the benchmark runner against the SGLang simulator's ground truth, side by side with a Python asyncio peer
# that computes the same metrics the way SGLang's bench_serving does. See docs/performance.md.
#
#   hack/perf/runner-vs-python.sh [full|quick]
#
# full: 64, 256, 512 and 1024 concurrent streams, 200 tokens per request, 4 × streams requests (about 10 min on 2 cores)
# quick: 64 and 512 streams, 50 tokens per request, 2 × streams requests (about 1 min)
# Results: a table on stdout, target/perf/runner-vs-python/results.json. Exit code 1 when a target is missed.
set -euo pipefail

mode=${1:-full}
case "$mode" in
  full) levels=(64 256 512 1024); output_len=200; rounds=4 ;;
  quick) levels=(64 512); output_len=50; rounds=2 ;;
  *) echo "usage: $0 [full|quick]" >&2; exit 2 ;;
esac
ttft_ms=100
token_delay_ms=50
input_len=32
warmup=256        # both clients send these at once before measuring: warms the runner's JIT and the simulator
warmup_tokens=32
port=${PERF_PORT:-31000}

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
jar=target/quarkus-app/quarkus-run.jar
out=target/perf/runner-vs-python
venv=target/perf/venv

if [[ ! -f $jar ]]; then
  mvn -B -q package -DskipTests
fi
if [[ ! -x $venv/bin/python ]] || ! cmp -s hack/perf/requirements.txt "$venv/requirements.txt"; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r hack/perf/requirements.txt
  cp hack/perf/requirements.txt "$venv/requirements.txt"
fi

rm -rf "$out"
mkdir -p "$out"
ticks=$(getconf CLK_TCK)
cpu_seconds() { # utime + stime of a process, in seconds
  awk -v ticks="$ticks" '{ sub(/^.*\) /, ""); print ($12 + $13) / ticks }' "/proc/$1/stat"
}
load() { cut -d' ' -f1-3 /proc/loadavg; }

workload="closed loop, chat, ${input_len}-word random prompts, ${output_len} tokens per request (ignore_eos), \
${rounds} × streams requests after ${warmup} warm-up requests of ${warmup_tokens} tokens; simulator TTFT ${ttft_ms} ms, ${token_delay_ms} ms per token, one token per chunk"
cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "machine: ${cpu_model}, $(nproc) cores, load average $(load); $(java -version 2>&1 | head -1); \
$("$venv/bin/python" --version), aiohttp $("$venv/bin/python" -c 'import aiohttp; print(aiohttp.__version__)')"
echo "workload: $workload"
load_before=$(load)

java -jar "$jar" simulate --port "$port" --ttft-ms "$ttft_ms" --token-delay-ms "$token_delay_ms" \
  --record-ground-truth > "$out/simulator.log" 2>&1 &
simulator=$!
trap 'kill "$simulator" 2>/dev/null || true; wait "$simulator" 2>/dev/null || true' EXIT
url=http://127.0.0.1:$port
for _ in $(seq 1 120); do
  curl -sf "$url/health" > /dev/null && break
  sleep 0.5
done
curl -sf "$url/health" > /dev/null || { echo "the simulator did not start:" >&2; cat "$out/simulator.log" >&2; exit 1; }

for streams in "${levels[@]}"; do
  dir=$out/c$streams
  mkdir -p "$dir"
  requests=$((rounds * streams))
  echo "c$streams: runner ($requests requests)"
  before=$(cpu_seconds "$simulator")
  /usr/bin/time -f '%e %U %S' -o "$dir/runner.time" java -jar "$jar" bench --url "$url" --model simulated/model \
    --no-single --concurrency "$streams" --requests-per-level "$requests" --dataset random --input-len "$input_len" \
    --output-len "$output_len" --ignore-eos --temperature 0 --warmup "$warmup" --warmup-max-tokens "$warmup_tokens" \
    --json-out "$dir/runner.json" --requests-out "$dir/runner.jsonl" > "$dir/runner.log" 2>&1
  awk -v after="$(cpu_seconds "$simulator")" -v before="$before" 'BEGIN { print after - before }' \
    > "$dir/runner.simulator-cpu"
  echo "c$streams: Python peer ($requests requests)"
  before=$(cpu_seconds "$simulator")
  /usr/bin/time -f '%e %U %S' -o "$dir/peer.time" "$venv/bin/python" hack/perf/python_peer.py --url "$url" \
    --model simulated/model --concurrency "$streams" --requests "$requests" --input-len "$input_len" \
    --output-len "$output_len" --warmup "$warmup" --warmup-max-tokens "$warmup_tokens" --requests-out "$dir/peer.jsonl" --summary-out "$dir/peer.json" > "$dir/peer.log" 2>&1
  awk -v after="$(cpu_seconds "$simulator")" -v before="$before" 'BEGIN { print after - before }' \
    > "$dir/peer.simulator-cpu"
done

curl -sf "$url/simulator/ground_truth" -o "$out/ground_truth.json"
"$venv/bin/python" - "$out/machine.json" "$cpu_model" "$(nproc)" "$load_before" "$(load)" "$workload" <<'PY'
import json, sys
path, cpu, cores, before, after, workload = sys.argv[1:]
json.dump({"cpu": cpu, "cores": int(cores), "load_before": before, "load_after": after, "workload": workload},
          open(path, "w"), indent=2)
PY
"$venv/bin/python" hack/perf/compare.py "$out"
