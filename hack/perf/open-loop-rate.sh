#!/usr/bin/env bash
# Measures how exactly the benchmark runner keeps an open-loop Poisson schedule at 1000 requests/s, side by side with
# the Python asyncio peer sending the same kind of schedule and, but for smoke, NVIDIA's aiperf (see peer.sh). See
# docs/performance.md, "Open-loop accuracy".
#
#   hack/perf/open-loop-rate.sh [full|quick|smoke]
#
# full: 25 s of arrivals per client, and a third run of the peer with bench_serving's relative sleeps (about 2 min)
# quick: 20 s of arrivals per client (about 45 s)
# smoke: 2 s of arrivals at 100 requests/s per client, targets not judged (a few seconds): what CI runs
# Results: a table on stdout, target/perf/open-loop-rate/results.json. Exit code 1 when a target is missed.
# PERF_RUNNER_JAVA_OPTS: JVM options for the runner only (e.g. to try a flag); PERF_RATE: another rate.
set -euo pipefail

mode=${1:-full}
case "$mode" in
  full) duration=25; clients=(runner peer peer-relative aiperf) ;;
  quick) duration=20; clients=(runner peer aiperf) ;;
  smoke) duration=2; clients=(runner peer) ;;
  *) echo "usage: $0 [full|quick|smoke]" >&2; exit 2 ;;
esac
rate=${PERF_RATE:-1000}
[[ $mode == smoke ]] && rate=${PERF_RATE:-100}
ttft_ms=10
token_delay_ms=5
input_len=32
output_len=4      # short answers: about 25 requests in flight, so the simulator is not what limits the rate
warmup=256        # both clients send these at once before measuring: warms the runner's JIT and the simulator
[[ $mode == smoke ]] && warmup=16
seed=1
port=${PERF_PORT:-31001}

out=target/perf/open-loop-rate
source "$(dirname "$0")/peer.sh"

workload="open loop, Poisson arrivals at ${rate} requests/s for ${duration} s (seed ${seed}), chat, \
${input_len}-word random prompts, ${output_len} tokens per request (ignore_eos), after ${warmup} warm-up requests \
sent at once; simulator TTFT ${ttft_ms} ms, ${token_delay_ms} ms per token"
print_machine
echo "workload: $workload"
load_before=$(load)

[[ $mode != smoke ]] && setup_aiperf
start_simulator --ttft-ms "$ttft_ms" --token-delay-ms "$token_delay_ms" --prefix-cache-blocks 0

for client in "${clients[@]}"; do
  echo "$client: ${rate} requests/s for ${duration} s"
  before=$(cpu_seconds "$simulator")
  load_start=$(load)
  if [[ $client == runner ]]; then
    /usr/bin/time -f '%e %U %S' -o "$out/runner.time" java ${PERF_RUNNER_JAVA_OPTS:-} -jar "$jar" bench --url "$url" --model simulated/model \
      --no-single --rate "$rate" --duration-per-level "$duration" --seed "$seed" --dataset random \
      --input-len "$input_len" --output-len "$output_len" --ignore-eos --temperature 0 --warmup "$warmup" \
      --warmup-max-tokens "$output_len" --json-out "$out/runner.json" --requests-out "$out/runner.jsonl" \
      > "$out/runner.log" 2>&1
  elif [[ $client == aiperf ]]; then
    /usr/bin/time -f '%e %U %S' -o "$out/aiperf.time" "$aiperf_venv/bin/aiperf" profile --model simulated/model \
      --url "$url" --endpoint-type chat --streaming --request-rate "$rate" --arrival-pattern poisson \
      --benchmark-duration "$duration" --random-seed "$seed" --tokenizer "$out/tokenizer" --isl "$input_len" \
      --isl-stddev 0 --osl "$output_len" --osl-stddev 0 --extra-inputs ignore_eos:true --extra-inputs temperature:0 \
      --warmup-request-count "$warmup" --export-level raw --artifact-dir "$out/aiperf" --ui-type none \
      > "$out/aiperf.log" 2>&1
    "$aiperf_venv/bin/python" hack/perf/aiperf_peer.py "$out/aiperf" "$out/aiperf.jsonl" "$out/aiperf.json" \
      "$out/aiperf.time"
  else
    clock=absolute
    [[ $client == peer-relative ]] && clock=relative
    /usr/bin/time -f '%e %U %S' -o "$out/$client.time" "$venv/bin/python" hack/perf/python_peer.py --url "$url" \
      --model simulated/model --rate "$rate" --duration "$duration" --arrival-clock "$clock" --seed "$seed" \
      --input-len "$input_len" --output-len "$output_len" --warmup "$warmup" --warmup-max-tokens "$output_len" \
      --requests-out "$out/$client.jsonl" --summary-out "$out/$client.json" > "$out/$client.log" 2>&1
  fi
  awk -v after="$(cpu_seconds "$simulator")" -v before="$before" 'BEGIN { print after - before }' \
    > "$out/$client.simulator-cpu"
  echo "$load_start" > "$out/$client.load"
done

write_machine "$load_before" "$workload" "$rate"
smoke=()
[[ $mode == smoke ]] && smoke=(--smoke)
"$venv/bin/python" hack/perf/open_loop_compare.py "${smoke[@]}" "$out"
