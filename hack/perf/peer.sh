# Shared by the scripts that measure the runner against the simulator (runner-vs-python.sh, open-loop-rate.sh,
# sharded-runner.sh): the packaged jar, the peer's virtual environment, CPU and load readings, the machine line and
# file, and the simulator. Sourced
# after the caller has set $out (its output directory) and $port.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
jar=target/quarkus-app/quarkus-run.jar
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
cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')

# image_jvm_flags: the JVM flags of the image's ENTRYPOINT (between "java" and "-jar"), one per line: the flags a
# benchmark Job's runner starts with.
image_jvm_flags() {
  grep -m1 '^ENTRYPOINT' Dockerfile | tr -d '[]",' | tr ' ' '\n' | sed -n '/^java$/,/^-jar$/p' | sed '1d;$d'
}

# print_machine: the machine, the JVM and the peer's Python the figures come from.
print_machine() {
  echo "machine: ${cpu_model}, $(nproc) cores, load average $(load); $(java -version 2>&1 | head -1); \
$("$venv/bin/python" --version), aiohttp $("$venv/bin/python" -c 'import aiohttp; print(aiohttp.__version__)')"
}

# start_simulator FLAGS...: the simulator on $port with these flags, stopped when the script exits; sets $simulator
# (its pid) and $url, and returns once it answers /health.
start_simulator() {
  java -jar "$jar" simulate --port "$port" "$@" > "$out/simulator.log" 2>&1 &
  simulator=$!
  trap 'kill "$simulator" 2>/dev/null || true; wait "$simulator" 2>/dev/null || true' EXIT
  url=http://127.0.0.1:$port
  for _ in $(seq 1 120); do
    curl -sf "$url/health" > /dev/null && break
    sleep 0.5
  done
  curl -sf "$url/health" > /dev/null || { echo "the simulator did not start:" >&2; cat "$out/simulator.log" >&2; exit 1; }
}

# setup_aiperf: NVIDIA's aiperf in target/perf/aiperf-venv (its 1.2 GB of dependencies fetched once per version) and a
# local tokenizer for it in $out/tokenizer (its built-in one downloads its encoding); sets $aiperf_venv. Its prompts
# are made of the tokenizer's tokens, one word ("[UNK]"), so all are alike: the callers' simulator runs without a
# prefix cache, which would answer them sooner than the other clients' random words.
setup_aiperf() {
  aiperf_venv=target/perf/aiperf-venv
  if [[ ! -x $aiperf_venv/bin/aiperf ]] || ! cmp -s hack/perf/requirements-aiperf.txt "$aiperf_venv/requirements.txt"; then
    rm -rf "$aiperf_venv"
    python3 -m venv "$aiperf_venv"
    "$aiperf_venv/bin/pip" install -q -r hack/perf/requirements-aiperf.txt
    cp hack/perf/requirements-aiperf.txt "$aiperf_venv/requirements.txt"
  fi
  "$aiperf_venv/bin/python" hack/perf/aiperf_peer.py tokenizer "$out/tokenizer" 2>/dev/null
  echo "aiperf: $("$aiperf_venv/bin/pip" show aiperf | grep '^Version')"
}

# write_machine LOAD_BEFORE WORKLOAD [REQUEST_RATE]: $out/machine.json, the machine, load and workload of the figures.
write_machine() {
  "$venv/bin/python" - "$out/machine.json" "$cpu_model" "$(nproc)" "$1" "$(load)" "$2" "${3:-}" <<'PY'
import json, sys
path, cpu, cores, before, after, workload, rate = sys.argv[1:]
machine = {"cpu": cpu, "cores": int(cores), "load_before": before, "load_after": after, "workload": workload}
if rate:
    machine["request_rate"] = float(rate)
json.dump(machine, open(path, "w"), indent=2)
PY
}
