#!/usr/bin/env bash
# Measures one run split over N = 1, 2 and 4 shards against the SGLang simulator's ground truth: each shard is a runner
# process in a cgroup of its own (cgroup v1 cpu controller, CFS quota) holding it to a fixed share of a core, so N
# shards have N times one runner's CPU, as N pods would. Per level: every shard's request lines against the
# simulator's record (TTFT and ITL errors per request), and the merged report's percentiles against the true ones.
# See docs/performance.md, "Sharded runs".
#
#   hack/perf/sharded-runner.sh [full|smoke]
#
# full: 16, 64 and 256 streams, 100 tokens per request, 4 × streams requests, 0.25 core per shard (about 10 min on 2
#   cores): 16 streams are what one runner at 0.25 core times well, 64 where it starts to lag, 256 what it does not
#   and 4 shards (64 each) do
# smoke: 16 streams, 8 tokens per request, 1 and 2 shards at 0.5 core each, targets not judged: what CI runs
# Without a writable cgroup v1 cpu controller (not root, cgroup v2), shards run uncapped and the script says so.
# Results: a table on stdout, target/perf/sharded-runner/results.json. Exit code 1 when a target is missed.
set -euo pipefail

mode=${1:-full}
case "$mode" in
  full) levels=(16 64 256); shard_counts=(1 2 4); output_len=100; rounds=4; cores_per_shard=0.25 ;;
  smoke) levels=(16); shard_counts=(1 2); output_len=8; rounds=1; cores_per_shard=0.5 ;;
  *) echo "usage: $0 [full|smoke]" >&2; exit 2 ;;
esac
ttft_ms=100
token_delay_ms=50
input_len=32
warmup=64
warmup_tokens=16
port=${PERF_PORT:-31200}
rendezvous_port=${PERF_RENDEZVOUS_PORT:-31201}

out=target/perf/sharded-runner
source "$(dirname "$0")/peer.sh"

cgroups=/sys/fs/cgroup/cpu
if [[ -w $cgroups && -f $cgroups/cpu.cfs_quota_us ]]; then
  capping="cgroup v1 cpu quota of ${cores_per_shard} core per shard ($(awk -v c="$cores_per_shard" \
    'BEGIN { printf "%d", c * 100000 }') µs per 100000 µs period)"
else
  capping="none: no writable cgroup v1 cpu controller here, so every shard had the whole machine"
  cgroups=
fi
groups=()
cleanup_groups() {
  for group in "${groups[@]}"; do rmdir "$group" 2>/dev/null || true; done
}

# capped NAME COMMAND...: COMMAND in cpu group NAME, held to $cores_per_shard of a core.
capped() {
  local name=$1
  shift
  if [[ -z $cgroups ]]; then
    exec "$@"
  fi
  local group=$cgroups/llmops-perf-$name
  mkdir -p "$group"
  echo 100000 > "$group/cpu.cfs_period_us"
  awk -v c="$cores_per_shard" 'BEGIN { printf "%d", c * 100000 }' > "$group/cpu.cfs_quota_us"
  echo $BASHPID > "$group/cgroup.procs"
  exec "$@"
}

workload="closed loop, chat, ${input_len}-word random prompts, ${output_len} tokens per request (ignore_eos), \
${rounds} × streams requests after ${warmup} warm-up requests of ${warmup_tokens} tokens per shard; simulator TTFT \
${ttft_ms} ms, ${token_delay_ms} ms per token, one token per chunk, no prefix cache; CPU cap: ${capping}"
mapfile -t runner_jvm_flags < <(image_jvm_flags)
print_machine
echo "workload: $workload"
load_before=$(load)

# No prefix cache: each shard count sends the same requests, which a cache would serve faster every time.
start_simulator --ttft-ms "$ttft_ms" --token-delay-ms "$token_delay_ms" --prefix-cache-blocks 0 --record-ground-truth
trap 'kill "$simulator" 2>/dev/null || true; wait "$simulator" 2>/dev/null || true; cleanup_groups' EXIT

for shards in "${shard_counts[@]}"; do
  for streams in "${levels[@]}"; do
    dir=$out/n$shards/c$streams
    mkdir -p "$dir"
    requests=$((rounds * streams))
    echo "c$streams over $shards shard(s): $requests requests"
    before=$(cpu_seconds "$simulator")
    pids=()
    for ((i = shards - 1; i >= 0; i--)); do
      group=${cgroups:+$cgroups/llmops-perf-n$shards-c$streams-$i}
      [[ -n $group ]] && groups+=("$group")
      split=()
      if ((shards > 1)); then
        split=(--shard "$i/$shards" --rendezvous "127.0.0.1:$rendezvous_port" --shard-out "$dir/shard-$i.gz")
      fi
      (capped "n$shards-c$streams-$i" java "${runner_jvm_flags[@]}" -jar "$jar" bench --url "$url" \
        --model simulated/model --no-single --concurrency "$streams" --requests-per-level "$requests" \
        --dataset random --input-len "$input_len" --output-len "$output_len" --ignore-eos --temperature 0 \
        --warmup "$warmup" --warmup-max-tokens "$warmup_tokens" --json-out "$dir/shard-$i.json" \
        --requests-out "$dir/shard-$i.jsonl" "${split[@]}" > "$dir/shard-$i.log" 2>&1) &
      pids+=($!)
    done
    for pid in "${pids[@]}"; do
      wait "$pid" || { echo "a shard failed:" >&2; tail -5 "$dir"/shard-*.log >&2; exit 1; }
    done
    awk -v after="$(cpu_seconds "$simulator")" -v before="$before" 'BEGIN { print after - before }' \
      > "$dir/simulator-cpu"
    if ((shards > 1)); then
      java -jar "$jar" report merge "$dir"/shard-*.gz --json-out "$dir/merged.json" > "$dir/merge.log" 2>&1
    else
      cp "$dir/shard-0.json" "$dir/merged.json"
    fi
  done
done

curl -sf "$url/simulator/ground_truth" -o "$out/ground_truth.json"
write_machine "$load_before" "$workload"
smoke=()
[[ $mode == smoke ]] && smoke=(--smoke)
"$venv/bin/python" hack/perf/sharded_compare.py "${smoke[@]}" "$out"
