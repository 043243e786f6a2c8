#!/usr/bin/env bash
# How long the command-line tools take to start, and the operator to reach its first reconcile. The tools run as the
# README runs them (java -jar target/quarkus-app/quarkus-run.jar ..., no JVM flags); the operator as the image runs it
# (the Dockerfile's JVM flags, the chart's leader election) against the real control plane. See docs/performance.md.
#
#   hack/perf/cli-startup.sh                    # 9 runs of each command and 9 operator starts
#   hack/perf/cli-startup.sh 15
#   hack/perf/cli-startup.sh smoke              # one run of each, targets not judged: what CI runs so it cannot rot
#   hack/perf/cli-startup.sh 9 --no-operator    # the command-line tools only, no control plane
#   hack/perf/cli-startup.sh 9 --jar DIR/quarkus-run.jar   # another build, e.g. an older commit's, for a "before"
#   hack/perf/cli-startup.sh 9 --java-option -XX:SharedArchiveFile=app.jsa   # extra JVM flags for the tools
#
# `probe` and `bench` point at a closed loopback port, so each does its start-up and one refused connection, then
# exits 3 (not inference-ready): the time is the tool's start-up. `report` renders a saved BenchmarkRun (a test
# fixture of 7 KB) as HTML. A fifth row, without a target, times the operator against a kubeconfig whose server refuses
# connections, until it exits 1 with its one-line message. The commands run in turns (one of each, again), so a change
# of the machine's load hits all of them alike. Prints the machine (cores, CPU, load average before and after), a
# table of wall-clock and CPU (user + system) seconds, PASS/MISS against the target (median wall-clock under 1 s) and
# writes target/perf/cli-startup.json.
#
# Then OperatorStartupBenchmark starts the test control plane (hack/controlplane/build.sh's binaries), installs the
# CRDs and, per run, one ModelServer, starts the packaged operator and times from its process start to the leader
# lease, the ModelServer's Deployment and its first status write (target: first reconcile, median under 3 s); it
# writes target/perf/operator-startup.json. Exit code 1 when a target is missed.
set -euo pipefail

runs=9
jar=target/quarkus-app/quarkus-run.jar
java_options=()
smoke=0
operator=1
while (($#)); do
  case "$1" in
    --jar) jar=$2; shift 2 ;;
    --no-operator) operator=0; shift ;;
    --java-option) java_options+=("$2"); shift 2 ;;
    [0-9]*) runs=$1; shift ;;
    smoke) runs=1; smoke=1; shift ;;
    *) echo "usage: $0 [RUNS|smoke] [--no-operator] [--jar PATH] [--java-option OPTION]..." >&2; exit 2 ;;
  esac
done
target_seconds=1.0

if ((operator)); then
  # The control plane's binaries, the package and the benchmark classes with their classpath, as the other benchmarks.
  source "$(dirname "$0")/common.sh"
else
  cd "$(dirname "$0")/../.."
  if [[ ! -f $jar ]]; then
    mvn -B -q package -DskipTests
  fi
fi
out=target/perf
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A loopback port nobody listens on: bind one, let it go.
closed_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
cat >"$work/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters: [{name: none, cluster: {server: "https://127.0.0.1:$closed_port"}}]
users: [{name: none, user: {token: none}}]
contexts: [{name: none, context: {cluster: none, user: none}}]
current-context: none
EOF
names=("--help" "probe" "bench" "report" "operator, API refusing")
commands=(
  "--help"
  "probe --url http://127.0.0.1:$closed_port --timeout 2"
  "bench --url http://127.0.0.1:$closed_port --model m"
  "report --file $PWD/src/test/resources/report/benchmarkrun-eagle3.yaml --format html"
  "operator"
)
# The operator's row has no target: the time until it gives up on an API that refuses connections and exits 1.
environments=("" "" "" "" "KUBECONFIG=$work/kubeconfig")

load() { cut -d' ' -f1-3 /proc/loadavg; }
cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
load_before=$(load)
echo "machine: ${cpu_model}, $(nproc) cores, load average ${load_before}; $(java -version 2>&1 | head -1)"
echo "jar: $jar${java_options[*]:+, JVM options: ${java_options[*]}}; $runs runs of each command, in turns"

# One run: wall-clock, user and system seconds of the JVM (GNU time), in $work/<command index>.
for ((run = 1; run <= runs; run++)); do
  for i in "${!commands[@]}"; do
    # shellcheck disable=SC2086 # the command's words
    /usr/bin/time -f '%e %U %S' -o "$work/time" \
      env ${environments[$i]} java "${java_options[@]}" -jar "$jar" ${commands[$i]} >/dev/null 2>&1 || true
    tail -1 "$work/time" >>"$work/$i"
  done
done
load_after=$(load)

tools_status=0
python3 - "$work" "$target_seconds" "$out/cli-startup.json" "$runs" "$jar" "$cpu_model" "$(nproc)" \
  "$load_before" "$load_after" "${java_options[*]:-}" "$smoke" "${names[@]}" <<'PY' || tools_status=$?
import json, statistics, sys
work, target, json_path, runs, jar, cpu, cores, load_before, load_after, java_options, smoke = sys.argv[1:12]
names = sys.argv[12:]
target = float(target)
rows, missed = [], False
print()
print(f"| command | runs | wall median | wall min | wall max | CPU median (user+sys) | target: median under {target} s |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for i, name in enumerate(names):
    samples = [tuple(map(float, line.split())) for line in open(f"{work}/{i}") if line.strip()]
    wall = [s[0] for s in samples]
    cpu_seconds = [s[1] + s[2] for s in samples]
    median = statistics.median(wall)
    ok = None if name.startswith("operator") else median < target
    missed |= ok is False
    rows.append({"command": name, "runs": len(wall), "wall_seconds": wall, "cpu_seconds": cpu_seconds,
                 "wall_median": median, "wall_min": min(wall), "wall_max": max(wall),
                 "cpu_median": statistics.median(cpu_seconds), "target_met": ok})
    print(f"| {name} | {len(wall)} | {median:.2f} s | {min(wall):.2f} s | {max(wall):.2f} s "
          f"| {statistics.median(cpu_seconds):.2f} s | {'-' if ok is None else 'PASS' if ok else 'MISS'} ({median:.2f} s) |")
print()
print(f"load average before {load_before}, after {load_after}")
json.dump({"machine": {"cpu": cpu, "cores": int(cores), "load_average_before": load_before,
                       "load_average_after": load_after},
           "jar": jar, "java_options": java_options, "runs": int(runs), "target_median_seconds": target,
           "commands": rows}, open(json_path, "w"), indent=2)
print(f"wrote {json_path}")
if smoke == "1":
    print("smoke run: one run of each command is too few for the target, so it is not judged")
    sys.exit(0)
sys.exit(1 if missed else 0)
PY
((operator)) || exit "$tools_status"

echo
operator_status=0
java -cp "$PERF_CLASSPATH" "${PERF_JAVA_FLAGS[@]}" \
  dev.llmops.serving.perf.OperatorStartupBenchmark "$runs" $( ((smoke)) && echo smoke) --jar "$jar" || operator_status=$?
exit $((tools_status ? tools_status : operator_status))
