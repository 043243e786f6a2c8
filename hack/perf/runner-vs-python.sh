#!/usr/bin/env bash
# Measures the benchmark runner against the SGLang simulator's ground truth, side by side with a Python asyncio peer
# that computes the same metrics the way SGLang's bench_serving does and, but for smoke, with NVIDIA's aiperf (from
# PyPI, in target/perf/aiperf-venv, given a local tokenizer the script writes). See docs/performance.md.
#
#   hack/perf/runner-vs-python.sh [full|quick|smoke]
#
# full: 64, 256, 512 and 1024 concurrent streams, 200 tokens per request, 4 × streams requests (about 10 min on 2 cores)
# quick: 64 and 512 streams, 50 tokens per request, 2 × streams requests (about 1 min)
# smoke: 16 streams, 8 tokens per request, 16 requests, targets not judged (a few seconds): what CI runs so it cannot rot
# The runner starts with the image's JVM flags, as a benchmark Job's does.
# Results: a table on stdout, target/perf/runner-vs-python/results.json. Exit code 1 when a target is missed.
set -euo pipefail

mode=${1:-full}
case "$mode" in
  full) levels=(64 256 512 1024); output_len=200; rounds=4 ;;
  quick) levels=(64 512); output_len=50; rounds=2 ;;
  smoke) levels=(16); output_len=8; rounds=1 ;;
  *) echo "usage: $0 [full|quick|smoke]" >&2; exit 2 ;;
esac
ttft_ms=100
token_delay_ms=50
input_len=32
warmup=256        # both clients send these at once before measuring: warms the runner's JIT and the simulator
warmup_tokens=32
[[ $mode == smoke ]] && warmup=16
port=${PERF_PORT:-31000}

out=target/perf/runner-vs-python
source "$(dirname "$0")/peer.sh"

workload="closed loop, chat, ${input_len}-word random prompts, ${output_len} tokens per request (ignore_eos), \
${rounds} × streams requests after ${warmup} warm-up requests of ${warmup_tokens} tokens; simulator TTFT ${ttft_ms} ms, ${token_delay_ms} ms per token, one token per chunk, no prefix cache"
mapfile -t runner_jvm_flags < <(image_jvm_flags)
print_machine
echo "workload: $workload"
echo "runner JVM flags (the image's): ${runner_jvm_flags[*]}"
load_before=$(load)

# aiperf too, but not for a smoke run, which judges nothing.
[[ $mode != smoke ]] && setup_aiperf

# No prefix cache: aiperf's prompts are all alike (see above), and a cache would answer them sooner than the others'.
start_simulator --ttft-ms "$ttft_ms" --token-delay-ms "$token_delay_ms" --prefix-cache-blocks 0 \
  --record-ground-truth

for streams in "${levels[@]}"; do
  dir=$out/c$streams
  mkdir -p "$dir"
  requests=$((rounds * streams))
  echo "c$streams: runner ($requests requests)"
  before=$(cpu_seconds "$simulator")
  /usr/bin/time -f '%e %U %S' -o "$dir/runner.time" java "${runner_jvm_flags[@]}" -jar "$jar" bench --url "$url" --model simulated/model \
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
  if [[ -n ${aiperf_venv:-} ]]; then
    echo "c$streams: aiperf ($requests requests)"
    before=$(cpu_seconds "$simulator")
    /usr/bin/time -f '%e %U %S' -o "$dir/aiperf.time" "$aiperf_venv/bin/aiperf" profile --model simulated/model \
      --url "$url" --endpoint-type chat --streaming --concurrency "$streams" --request-count "$requests" \
      --tokenizer "$out/tokenizer" --isl "$input_len" --isl-stddev 0 --osl "$output_len" --osl-stddev 0 \
      --extra-inputs ignore_eos:true --extra-inputs temperature:0 --warmup-request-count "$warmup" \
      --export-level raw --artifact-dir "$dir/aiperf" --ui-type none > "$dir/aiperf.log" 2>&1
    awk -v after="$(cpu_seconds "$simulator")" -v before="$before" 'BEGIN { print after - before }' \
      > "$dir/aiperf.simulator-cpu"
    "$aiperf_venv/bin/python" hack/perf/aiperf_peer.py "$dir/aiperf" "$dir/aiperf.jsonl" "$dir/aiperf.json" \
      "$dir/aiperf.time"
  fi
done

curl -sf "$url/simulator/ground_truth" -o "$out/ground_truth.json"
write_machine "$load_before" "$workload"
smoke=()
[[ $mode == smoke ]] && smoke=(--smoke)
"$venv/bin/python" hack/perf/compare.py "${smoke[@]}" "$out"
