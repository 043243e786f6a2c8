#!/usr/bin/env bash
# Builds etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kubectl from the Go module
# proxy, caches them by version outside the repository, and lays them out where io.fabric8:kube-api-test
# looks for them. A second run with the same versions reuses the cache and takes seconds.
#
# Environment:
#   CONTROLPLANE_CACHE_DIR  binary cache root (default ${XDG_CACHE_HOME:-$HOME/.cache}/llm-serving-operator/k8s)
#   KUBE_API_TEST_DIR       kube-api-test's directory (default $HOME/.kubeapitest)
#   GO_BUILD_NICE           niceness of the Go build (default 10)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
started=$SECONDS

log() { printf '[controlplane] %s\n' "$*"; }
elapsed() { printf '%dm%02ds' $(( (SECONDS - $1) / 60 )) $(( (SECONDS - $1) % 60 )); }
required_version() { awk -v m="$2" '$1 == "require" && $2 == m { print $3 }' "$1"; }

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false
goos="$(go env GOOS)"
goarch="$(go env GOARCH)"

k8s_module_version="$(required_version "$here/kubernetes/go.mod" k8s.io/kubernetes)"
etcd_module_version="$(required_version "$here/etcd/go.mod" go.etcd.io/etcd/server/v3)"
staging_version="v0.${k8s_module_version#v1.}"
version="${k8s_module_version#v}"

cache_dir="${CONTROLPLANE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/llm-serving-operator/k8s}/$version"
kube_api_test_dir="${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}/k8s/$version-$goos-$goarch"
binaries=(etcd kube-apiserver kube-controller-manager kube-scheduler kubectl)
build_flags=(-trimpath "-ldflags=-s -w")

# Anything that changes the binaries changes the stamp and forces a rebuild.
stamp="$(cat "$here/kubernetes/go.mod" "$here/etcd/go.mod" <(go version) <(echo "${build_flags[*]} $goos/$goarch") |
  sha256sum | cut -d' ' -f1)"

cached() {
  [[ -f "$cache_dir/.stamp" && "$(cat "$cache_dir/.stamp")" == "$stamp" ]] || return 1
  local b
  for b in "${binaries[@]}"; do [[ -x "$cache_dir/$b" ]] || return 1; done
}

# Copies a wrapper module into the work directory and resolves its dependencies through the proxy.
prepare_module() {
  local name="$1"
  rm -rf "$work/$name"
  cp -r "$here/$name" "$work/$name"
}

# Pins every staging module that k8s.io/kubernetes lists at v0.0.0 to the matching published release.
replace_staging_modules() {
  local module_dir="$1" kubernetes_mod staging
  kubernetes_mod="$(go mod download -json "k8s.io/kubernetes@$k8s_module_version" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
  [[ -f "$kubernetes_mod" ]] || { log "cannot read the go.mod of k8s.io/kubernetes@$k8s_module_version"; exit 1; }
  staging=()
  while IFS= read -r module; do staging+=("$module"); done < <(
    awk '/^require[[:space:]]*\(/ { r = 1; next } r && /^\)/ { r = 0 } r && $2 == "v0.0.0" { print $1 }' "$kubernetes_mod")
  (( ${#staging[@]} > 0 )) || { log "no staging modules found in $kubernetes_mod"; exit 1; }
  log "replacing ${#staging[@]} staging modules with $staging_version: ${staging[*]}"
  local args=()
  for module in "${staging[@]}"; do args+=("-replace=$module=$module@$staging_version"); done
  (cd "$module_dir" && go mod edit "${args[@]}")
}

build() {
  local nice_level="${GO_BUILD_NICE:-10}" step
  work="$cache_dir/.work"
  mkdir -p "$work" "$cache_dir/.new"

  step=$SECONDS
  prepare_module kubernetes
  prepare_module etcd
  replace_staging_modules "$work/kubernetes"
  (cd "$work/kubernetes" && go mod tidy)
  (cd "$work/etcd" && go mod tidy)
  log "resolved modules in $(elapsed "$step")"

  step=$SECONDS
  log "building etcd $etcd_module_version"
  (cd "$work/etcd" && nice -n "$nice_level" go build "${build_flags[@]}" -o "$cache_dir/.new/etcd" go.etcd.io/etcd/server/v3)
  log "built etcd in $(elapsed "$step")"

  step=$SECONDS
  log "building kube-apiserver, kube-controller-manager, kube-scheduler and kubectl $k8s_module_version"
  (cd "$work/kubernetes" && nice -n "$nice_level" go build "${build_flags[@]}" -o "$cache_dir/.new/" tool)
  log "built Kubernetes binaries in $(elapsed "$step")"

  for b in "${binaries[@]}"; do mv -f "$cache_dir/.new/$b" "$cache_dir/$b"; done
  echo "$stamp" > "$cache_dir/.stamp"
  rm -rf "$cache_dir/.new" "$work"
}

log "Kubernetes $k8s_module_version (staging $staging_version), etcd $etcd_module_version, $(go version | cut -d' ' -f3)"
if cached; then
  log "reusing binaries in $cache_dir"
else
  log "building into $cache_dir"
  build
fi

mkdir -p "$kube_api_test_dir"
for b in "${binaries[@]}"; do ln -sfn "$cache_dir/$b" "$kube_api_test_dir/$b"; done
log "laid out for kube-api-test in $kube_api_test_dir"
"$kube_api_test_dir/kube-apiserver" --version | sed 's/^/[controlplane]   /'
"$kube_api_test_dir/etcd" --version | head -1 | sed 's/^/[controlplane]   /'
log "done in $(elapsed "$started")"
