#!/usr/bin/env bash
# Runs the commands the README gives a user, exactly as the README writes them (read from README.md itself, so the two
# cannot drift apart), from the packaged jar in its production profile, and fails unless each does what the README
# says: the main job, the broken-draft, half-ready and experiment scenarios, `demo --keep` with the kubectl command it
# prints, kubectl against the demo's API, the report pipeline, manifests validated, a saved run converted to llm-d
# benchmark reports and CSV, the capacity search against the simulator, and the CRD regeneration. Needs kubectl from
# hack/controlplane/build.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
jar=target/quarkus-app/quarkus-run.jar
failures=0
passes=0

log() { printf '[readme] %s\n' "$*"; }
fail() { log "FAIL: $*"; failures=$((failures + 1)); }
pass() { log "ok: $*"; passes=$((passes + 1)); }

source hack/ci/readme.sh

# expect FILE DESCRIPTION REGEX: the file has a line matching the extended regular expression.
expect() {
  if grep -Eq -- "$3" "$1"; then pass "$2"; else fail "$2 (no line matches /$3/ in $(basename "$1"))"; sed 's/^/    /' "$1" | tail -40; fi
}

# refuse FILE DESCRIPTION REGEX: no line of the file matches.
refuse() {
  if grep -Eq -- "$3" "$1"; then fail "$2"; grep -E -- "$3" "$1" | head -5 | sed 's/^/    /'; else pass "$2"; fi
}

# A user's terminal shows what a redirected run writes: no colour codes, no framework log lines.
plain_output() {
  refuse "$1" "$2: no ANSI escape codes when not on a terminal" $'\e'
  refuse "$1" "$2: no framework log lines" '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:,]+ (INFO|WARN|DEBUG) +\['
}

kubectl_binary="$(ls "${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}"/k8s/*/kubectl 2>/dev/null | sort -V | tail -1 || true)"
[[ -x "$kubectl_binary" ]] || { log "kubectl is missing: run hack/controlplane/build.sh first"; exit 1; }
export PATH="$(dirname "$kubectl_binary"):$PATH"

main_job="$(readme_block 'Run the main job')"
[[ -n "$main_job" ]] || { log "README.md has no main-job command"; exit 1; }
log "main job, as the README writes it: $main_job"
status=0
bash -c "$main_job" >"$work/main.out" 2>"$work/main.err" || status=$?
if [[ $status -eq 0 ]]; then pass "main job exits 0"; else fail "main job exits $status"; cat "$work/main.err" | tail -40; fi
# Maven 3.8 in quiet mode writes two colour resets before the demo's first line, whatever the options; the check is
# about what the demo prints.
sed $'1s/^\(\e\[0m\)*//' "$work/main.out" >"$work/demo.out"
plain_output "$work/demo.out" "main job's demo"
expect "$work/main.out" "main job: the autoregressive run succeeded" '^autoregressive +llm-autoregressive +Succeeded '
expect "$work/main.out" "main job: the EAGLE3 run succeeded with a speedup, its outputs agreeing" '^eagle3 +llm-eagle3 +Succeeded .* [0-9]+\.[0-9]+x \[[0-9.]+, [0-9.]+\] at c[0-9]+ +OutputsAgree +Succeeded$'
expect "$work/main.out" "main job: live progress while a benchmark runs" 'br/[a-z0-9-]+ Running [0-9]+/[0-9]+ [a-z0-9]+'
expect "$work/main.out" "main job: the acceptance length of each EAGLE3 stage" '^c8 +8 +[0-9]+ +0 .* [0-9]\.[0-9]{2}$'
expect "$work/main.out" "main job: a paired speedup with its interval and verdict" '^c8 +Faster +[0-9]+ +[0-9.]+x \[[0-9.]+, [0-9.]+\]'
expect "$work/main.out" "main job: the greedy outputs agree" '^Greedy outputs against autoregressive: 100% of 3 prompts identical'

demo="java -jar $jar demo"
log "broken-draft scenario: $demo --scenario broken-draft"
status=0
$demo --scenario broken-draft >"$work/broken.out" 2>"$work/broken.err" || status=$?
if [[ $status -eq 0 ]]; then pass "broken-draft exits 0 (it ended as documented)"; else fail "broken-draft exits $status"; fi
plain_output "$work/broken.out" "broken-draft"
expect "$work/broken.out" "broken-draft: faster, with an interval" '^c8 +Faster +[0-9]+ +[0-9.]+x \[[0-9.]+, [0-9.]+\]'
expect "$work/broken.out" "broken-draft: the run is QualitySuspect" '^QualitySuspect True +OutputsDiverge +Greedy outputs diverge'
expect "$work/broken.out" "broken-draft: get br -o wide marks the speedup suspect and shows QUALITY" '^eagle3 +llm-eagle3 +Succeeded .* [0-9.]+x \[[0-9.]+, [0-9.]+\] at c[0-9]+ \(suspect\) +OutputsDiverge +Succeeded$'

log "half-ready scenario: $demo --scenario half-ready"
status=0
$demo --scenario half-ready >"$work/half.out" 2>"$work/half.err" || status=$?
if [[ $status -eq 0 ]]; then pass "half-ready exits 0 (it ended as documented)"; else fail "half-ready exits $status"; fi
plain_output "$work/half.out" "half-ready"
expect "$work/half.out" "half-ready: the ModelServer is diagnosed" 'is not ready: NoKernelImage'
expect "$work/half.out" "half-ready: the ModelServer is Failed within seconds" '^\[ +[0-9]\.[0-9]s\] ms/llm-half-ready Failed \(NoKernelImage\)'
expect "$work/half.out" "half-ready: the hint's kubectl command runs as printed" 'kubectl logs -n demo llm-half-ready-[a-z0-9-]+ -c sglang'
expect "$work/half.out" "half-ready: the BenchmarkRun fails with ServerNotReady" 'Stalled True +ServerNotReady +Gave up after waitTimeoutSeconds'

log "experiment scenario: $demo --scenario experiment"
status=0
$demo --scenario experiment >"$work/experiment.out" 2>"$work/experiment.err" || status=$?
if [[ $status -eq 0 ]]; then pass "experiment exits 0 (it ended as documented)"; else fail "experiment exits $status"; fi
plain_output "$work/experiment.out" "experiment"
expect "$work/experiment.out" "experiment: live variant phases" '^\[ *[0-9.]+s\] sx/qwen3-8b Running [0-9]/4 eagle3 .* eagle3 Benchmarking'
expect "$work/experiment.out" "experiment: the servers take the node in turn" '^\[ *[0-9.]+s\] node: qwen3-8b-dflash-b8 started \(1 server on the node\)$'
refuse "$work/experiment.out" "experiment: never two servers on the node" 'node: .* \([2-9] servers on the node\)'
expect "$work/experiment.out" "experiment: DFlash in the matrix, with its interval" '^dflash-b8 +Succeeded +[0-9.]+ s +[0-9.]+ +[0-9.]+x \[[0-9.]+, [0-9.]+\] +[0-9.]+ +100% agree$'
expect "$work/experiment.out" "experiment: the failing variant's diagnosis" '^cu128-image +Failed +failed at [0-9.]+ s +FlashInferNvccTooOld$'
expect "$work/experiment.out" "experiment: the winner line" '^Winner: dflash-b8: [0-9.]+x \[[0-9.]+, [0-9.]+\] throughput at c16 over autoregressive'
expect "$work/experiment.out" "experiment: one server at a time" '^No two servers were on the node at once\.$'

log "a mistyped flag, as the README describes it: one line naming the option, then Try '... --help'"
status=0
java -jar $jar bench --url http://127.0.0.1:9 --model x --temperature hot >"$work/flag.out" 2>"$work/flag.err" || status=$?
if [[ $status -eq 2 && $(wc -l <"$work/flag.err") -le 3 ]]; then pass "bench with a mistyped flag: exit 2, a short message"; else
  fail "bench with a mistyped flag: exit $status, $(wc -l <"$work/flag.err") lines"; head -5 "$work/flag.err"; fi
expect "$work/flag.err" "the message names the option and the value" "Invalid value for option '--temperature': 'hot'"
expect "$work/flag.err" "and points to --help" "^Try 'llm-serving-operator bench --help'"

log "--help, which the README says starts in about a second, lists every command with its whole description"
java -jar $jar --help >"$work/help.out" 2>&1 || true
expect "$work/help.out" "--help: the demo's description is not cut" 'the real runner\. No cluster needed\.'
expect "$work/help.out" "--help: the operator names its three controllers" 'BenchmarkRun and ServingExperiment controllers'

log "demo --keep, then the kubectl command it prints"
# Job control gives the demo its own process group with SIGINT not ignored, as in a terminal.
set -m
$demo --keep >"$work/keep.out" 2>"$work/keep.err" &
demo_pid=$!
set +m
for _ in $(seq 1 600); do
  grep -q 'Ctrl-C stops it' "$work/keep.out" 2>/dev/null && break
  kill -0 "$demo_pid" 2>/dev/null || break
  sleep 0.5
done
printed="$(grep -m1 -E '^ +kubectl --kubeconfig ' "$work/keep.out" | sed 's/^ *//' || true)"
if [[ -z "$printed" ]]; then
  fail "demo --keep prints a kubectl command"; tail -20 "$work/keep.out" "$work/keep.err"
else
  kubeconfig="$(awk '{ print $3 }' <<<"$printed")"
  run_kubectl() { # DESCRIPTION COMMAND...: the command exits 0; its output is left in $work/kubectl.out
    if "${@:2}" >"$work/kubectl.out" 2>&1; then pass "$1"; else fail "$1"; sed 's/^/    /' "$work/kubectl.out"; fi
  }
  run_kubectl "the printed command: $printed" bash -c "$printed"
  expect "$work/kubectl.out" "it lists the demo's servers and runs" 'benchmarkrun.serving.llmops.dev/eagle3'
  run_kubectl "kubectl get br -o wide" kubectl --kubeconfig "$kubeconfig" get br -n demo -o wide
  expect "$work/kubectl.out" "printer columns with the paired speedup and its interval" '^eagle3 +llm-eagle3 +Succeeded .*[0-9]+\.[0-9]+x \[[0-9.]+, [0-9.]+\] at c[0-9]+'
  run_kubectl "kubectl describe ms" kubectl --kubeconfig "$kubeconfig" describe ms llm-eagle3 -n demo
  expect "$work/kubectl.out" "describe shows the conditions" 'GenerationSucceeded'
  run_kubectl "kubectl explain modelserver.spec" kubectl --kubeconfig "$kubeconfig" explain modelserver.spec
  expect "$work/kubectl.out" "explain documents the fields" 'accelerator'
  run_kubectl "kubectl api-resources" kubectl --kubeconfig "$kubeconfig" api-resources
  expect "$work/kubectl.out" "api-resources lists ms and br" '^modelservers +ms '
  log "the README's report pipeline against the demo's API"
  if kubectl --kubeconfig "$kubeconfig" get br eagle3 -n demo -o yaml | java -jar $jar report >"$work/report.html" 2>"$work/report.err"; then
    pass "kubectl get br -o yaml | report > report.html"
  else
    fail "the report pipeline"; cat "$work/report.err"
  fi
  expect "$work/report.html" "the report is HTML with charts" '<svg'
  if kubectl --kubeconfig "$kubeconfig" get br eagle3 -n demo -o yaml | java -jar $jar report --format md >"$work/report.md"; then
    pass "report --format md"
  else
    fail "report --format md"
  fi
  expect "$work/report.md" "the Markdown report is a table" '^\|'
  log "kubectl get br -w: the runs, then the watch keeps streaming (stopped after 5 s)"
  status=0
  timeout 5 kubectl --kubeconfig "$kubeconfig" get br -n demo -w >"$work/watch.out" 2>&1 || status=$?
  if [[ $status -eq 124 ]]; then pass "get br -w keeps watching until stopped (exit 124)"; else fail "get br -w exits $status instead of watching"; sed 's/^/    /' "$work/watch.out"; fi
  expect "$work/watch.out" "get br -w lists the runs" '^eagle3 +llm-eagle3 +Succeeded '
  refuse "$work/watch.out" "get br -w: no error" 'rror'
  run_kubectl "kubectl get pods" kubectl --kubeconfig "$kubeconfig" get pods -n demo
  expect "$work/kubectl.out" "get pods shows READY, STATUS and RESTARTS" '^NAME +READY +STATUS +RESTARTS +AGE$'
  expect "$work/kubectl.out" "get pods: the EAGLE3 server is Running and ready" '^llm-eagle3-[a-z0-9-]+ +1/1 +Running +0 +[0-9]'
  run_kubectl "kubectl get events" kubectl --kubeconfig "$kubeconfig" get events -n demo
  expect "$work/kubectl.out" "get events shows LAST SEEN, TYPE, REASON, OBJECT, MESSAGE" '^LAST SEEN +TYPE +REASON +OBJECT +MESSAGE$'
  expect "$work/kubectl.out" "get events: the operator's events on the runs" ' Normal +[A-Za-z]+ +benchmarkrun/eagle3 '
  run_kubectl "kubectl get nodes" kubectl --kubeconfig "$kubeconfig" get nodes
  expect "$work/kubectl.out" "get nodes shows the simulated GPU node Ready" '^gpu-node-0 +Ready +<none> +[0-9a-z]+ +v[0-9.]+$'
  run_kubectl "kubectl events" kubectl --kubeconfig "$kubeconfig" events -n demo
  expect "$work/kubectl.out" "kubectl events lists the runs' events" 'BenchmarkRun/eagle3'
  job="$(kubectl --kubeconfig "$kubeconfig" get br eagle3 -n demo -o jsonpath='{.status.jobName}' 2>/dev/null || true)"
  samples="$(kubectl --kubeconfig "$kubeconfig" get br eagle3 -n demo -o jsonpath='{.status.samples}' 2>/dev/null || true)"
  run_kubectl "kubectl logs job/${job:-<no jobName>}" kubectl --kubeconfig "$kubeconfig" logs "job/$job" -n demo
  expect "$work/kubectl.out" "logs job/NAME prints the runner's log" '[a-z]'
  log "delete the eagle3 run, then apply it again"
  spec="$(kubectl --kubeconfig "$kubeconfig" get br eagle3 -n demo -o jsonpath='{.spec}' 2>/dev/null || true)"
  printf '{"apiVersion":"serving.llmops.dev/v1alpha1","kind":"BenchmarkRun","metadata":{"name":"eagle3","namespace":"demo"},"spec":%s}\n' "$spec" >"$work/eagle3.json"
  run_kubectl "kubectl delete br eagle3" kubectl --kubeconfig "$kubeconfig" delete br eagle3 -n demo --timeout=60s
  kubectl --kubeconfig "$kubeconfig" get jobs,configmaps -n demo -o name >"$work/left.out" 2>&1 || true
  refuse "$work/left.out" "deleting the run deletes its Job" "^job.batch/${job:-<no jobName>}\$"
  refuse "$work/left.out" "deleting the run deletes its samples ConfigMap" "^configmap/${samples:-<no samples>}\$"
  run_kubectl "kubectl apply the run again" kubectl --kubeconfig "$kubeconfig" apply -f "$work/eagle3.json"
  for _ in $(seq 1 120); do
    [[ -n "$(kubectl --kubeconfig "$kubeconfig" get jobs -n demo -o name 2>/dev/null | grep -x "job.batch/$job")" ]] && break
    sleep 0.5
  done
  kubectl --kubeconfig "$kubeconfig" get jobs -n demo -o name >"$work/rerun.out" 2>&1 || true
  expect "$work/rerun.out" "the applied run starts a new Job" "^job.batch/${job:-<no jobName>}\$"
fi
kill -INT "$demo_pid" 2>/dev/null || true
for _ in $(seq 1 120); do kill -0 "$demo_pid" 2>/dev/null || break; sleep 0.5; done
kill -0 "$demo_pid" 2>/dev/null && { log "the demo ignored Ctrl-C for 60 s: killing it"; kill -KILL "$demo_pid"; }
status=0
wait "$demo_pid" || status=$?
if [[ $status -eq 130 ]]; then pass "Ctrl-C stops demo --keep (exit 130)"; else fail "Ctrl-C stops demo --keep: exit $status"; fi
refuse "$work/keep.err" "Ctrl-C: no stack trace" '^\s+at |Exception'
if [[ -n "${kubeconfig:-}" && -e "$kubeconfig" ]]; then fail "the demo's kubeconfig is removed at exit"; else pass "the demo's kubeconfig is removed at exit"; fi

log "the capacity search, as the README writes it"
capacity="$(readme_block 'Find the capacity of a simulated server')"
status=0
bash -c "$capacity" >"$work/capacity.out" 2>"$work/capacity.err" || status=$?
pkill -f 'quarkus-run.jar simulate --port 30000' || true
if [[ $status -eq 0 ]]; then pass "capacity search exits 0"; else fail "capacity search exits $status"; tail -20 "$work/capacity.err"; fi
plain_output "$work/capacity.out" "capacity search"
# Timers run late on a loaded machine, which only makes TPOT longer: 4 streams is the other possible answer.
expect "$work/capacity.out" "capacity search: the simulator's capacity, 5 streams" '^capacity: [45] streams \(found after [0-9]+ probes\)'

log "a trace replay, as the README writes it"
replay="$(readme_block 'Replay a synthetic trace of multi-turn conversations')"
status=0
bash -c "$replay" >"$work/replay.out" 2>"$work/replay.err" || status=$?
pkill -f 'quarkus-run.jar simulate --port 30003' || true
if [[ $status -eq 0 ]]; then pass "trace replay exits 0"; else fail "trace replay exits $status"; tail -20 "$work/replay.err"; fi
plain_output "$work/replay.out" "trace replay"
expect "$work/replay.out" "trace replay: every request of the trace at 4x" '^t4x +- +99 +0 '
expect "$work/replay.out" "trace replay: at 8x, the cache serving a share of the prompts" '^t8x +- +99 +0 .* [1-9][0-9]\.[0-9]%$'

log "multi-turn sessions with and without a prefix cache, as the README writes it"
sessions="$(readme_block 'Run 8 users through 6-turn conversations')"
status=0
bash -c "$sessions" >"$work/sessions.out" 2>"$work/sessions.err" || status=$?
pkill -f 'quarkus-run.jar simulate --port 3000[45]' || true
if [[ $status -eq 0 ]]; then pass "sessions exit 0"; else fail "sessions exit $status"; tail -20 "$work/sessions.err"; fi
plain_output "$work/sessions.out" "sessions"
expect "$work/sessions.out" "sessions: both servers served all 96 turns" '^c8 +8 +96 +0 '
expect "$work/sessions.out" "sessions: with a cache, turn 6 mostly cached" '^  turn 6 .* cached (8[5-9]|9[0-9])\.[0-9]%$'
# Load only makes TTFT longer: turn 6 prefills 3320 tokens at 100 µs each without a cache.
expect "$work/sessions.out" "sessions: without a cache, turn 6 waits for its whole history" \
  '^  turn 6 .* TTFT p50/p99 ([3-9][0-9]{2}|[0-9]{4,})/[0-9.]+ ms  cached 0\.0%$'

log "two shards of one sweep and their merge, as the README writes it"
shards="$(readme_block 'Send one sweep from two shards and merge them')"
status=0
bash -c "$shards" >"$work/shards.out" 2>"$work/shards.err" || status=$?
if [[ $status -eq 0 ]]; then pass "two shards and report merge exit 0"; else fail "shards exit $status"; tail -20 "$work/shards.err"; fi
plain_output "$work/shards.out" "report merge"
expect "$work/shards.out" "report merge: every request of c8 once" '^c8 +8 +64 +0 '
expect "$work/shards.out" "report merge: every request of c16 once" '^c16 +16 +64 +0 '
expect target/shard-1.log "a shard's stdout ends with its result line" '^LLM-SERVING-SHARD v1 '
if [[ -s target/merged.json ]] && grep -q '"shards" : 2' target/merged.json; then pass "report merge writes the merged result"; else
  fail "report merge writes target/merged.json with shards 2"; fi

# --- bench results without a cluster: report compare and report --file (README "Compare two servers") ---
log "two bench results compared and one rendered, as the README writes it"
compare="$(readme_block 'Compare a simulated server with one twice as fast')"
rm -f target/slow.json target/slow.samples target/fast.json target/fast.samples target/compare.md target/fast.html
status=0
bash -c "$compare" >"$work/compare.out" 2>"$work/compare.err" || status=$?
pkill -f 'quarkus-run.jar simulate --port 3000[12] ' || true
if [[ $status -eq 0 ]]; then pass "simulate, bench twice, report compare and report --file exit 0"; else
  fail "the comparison exits $status"; tail -20 "$work/compare.err"; fi
if [[ -f target/compare.md ]]; then
  plain_output target/compare.md "report compare"
  expect target/compare.md "report compare: the candidate against the baseline" '^### BenchmarkRun `fast` vs `slow`$'
  expect target/compare.md "report compare: c4 faster with its interval" '^\| c4 \| faster \| 40 \| [0-9.]+× \| [0-9.]+–[0-9.]+ \|'
  expect target/compare.md "report compare: the greedy outputs agree" '^Greedy outputs of 3 prompts: 100\.0 % identical'
else
  fail "report compare writes target/compare.md"
fi
if [[ -f target/fast.html ]]; then
  expect target/fast.html "report --file renders a bench result as HTML with charts" '<svg'
else
  fail "report --file writes target/fast.html"
fi
head -c 200 target/fast.json >"$work/truncated.json" 2>/dev/null || true
status=0
java -jar $jar report compare "$work/truncated.json" "$work/truncated.json" >"$work/refused.out" 2>"$work/refused.err" || status=$?
if [[ $status -eq 2 && $(wc -l <"$work/refused.err") -eq 1 ]]; then pass "report compare: a truncated result is one line, exit 2"; else
  fail "report compare on a truncated result: exit $status"; head -5 "$work/refused.err"; fi
rm -f target/slow.json target/slow.samples target/fast.json target/fast.samples target/compare.md target/fast.html
# --- end of bench results without a cluster ---

log "validating the examples, as the README writes it"
validate="$(readme_block 'Check manifests before applying them')"
status=0
bash -c "$validate" >"$work/validate.out" 2>"$work/validate.err" || status=$?
if [[ $status -eq 0 ]]; then pass "validate on the examples exits 0"; else fail "validate exits $status"; cat "$work/validate.out" "$work/validate.err" | tail -20; fi
plain_output "$work/validate.out" "validate"
expect "$work/validate.out" "validate: each ModelServer passes" '^deploy/examples/small-model-b200.yaml: ModelServer qwen3-8b: no compatibility rule broken$'
expect "$work/validate.out" "validate: each variant of an experiment passes" '^deploy/examples/servingexperiment-kimi.yaml: ServingExperiment kimi-k2-decoding variant dflash-8: no compatibility rule broken$'
expect "$work/validate.out" "validate: other kinds are passed over" '^deploy/examples/benchmark-eagle3.yaml: BenchmarkRun kimi-k2-eagle3: neither a ModelServer nor a ServingExperiment, passed over$'

log "a saved demo run as llm-d benchmark reports and CSV, as the README writes it"
convert="$(readme_block 'Convert a run the demo saved')"
rm -rf target/demo-runs
status=0
bash -c "$convert" >"$work/convert.out" 2>"$work/convert.err" || status=$?
if [[ $status -eq 0 ]]; then pass "demo --save, report --format llmd and csv exit 0"; else
  fail "the conversion exits $status"; tail -20 "$work/convert.err"; fi
expect "$work/convert.out" "demo --save says where it wrote" '^Saved [0-9]+ resources to target/demo-runs, one YAML file each\.$'
render="$(grep -A1 '^Render the report:$' "$work/convert.out" | tail -1)"
if [[ -n "$render" ]] && bash -c "$render" >"$work/render.out" 2>&1 && [[ -s eagle3.html ]]; then
  pass "the report command demo --save prints runs as printed: $render"
else
  fail "the report command demo --save prints did not render: '$render'"; tail -5 "$work/render.out"
fi
rm -f eagle3.html
if [[ -f target/demo-runs/eagle3_1_c8.yaml ]]; then
  expect target/demo-runs/eagle3_1_c8.yaml "the c8 stage is an llm-d benchmark report 0.2" '^version: "0.2"$'
  expect target/demo-runs/eagle3_1_c8.yaml "with its concurrency" '^ +concurrency: 8$'
  expect target/demo-runs/eagle3_1_c8.yaml "and its TPOT in ms/token" '^ +units: "ms/token"$'
else
  fail "report --format llmd -o eagle3.yaml writes eagle3_1_c8.yaml"; ls target/demo-runs 2>/dev/null | sed 's/^/    /'
fi
expect target/demo-runs/eagle3.csv "the CSV has a header row" '^run,stage,concurrency,request_rate,'
expect target/demo-runs/eagle3.csv "and a row for c8" '^eagle3,c8,8,,'
rm -rf target/demo-runs

log "regenerating the CRDs, as the README writes it"
regenerate="$(readme_block 'The CRDs are generated from the Java classes')"
if bash -c "$regenerate" && git diff --quiet -- deploy/crds helm/llm-serving-operator/crds; then
  pass "regenerated CRDs equal the committed ones"
else
  fail "the CRDs drift from the Java classes"; git diff --stat -- deploy/crds helm/llm-serving-operator/crds
fi

echo "readme: $passes passed, $failures failed"
((failures == 0))
