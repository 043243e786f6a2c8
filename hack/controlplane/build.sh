#!/usr/bin/env bash
# Builds etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kubectl from the Go module
# proxy, caches them by version outside the repository, and lays them out where io.fabric8:kube-api-test
# looks for them; then the LeaderWorkerSet controller from its release's source archive (lws/version), laid
# out beside them with its CRDs and webhook manifests; and S3Proxy with its dependencies from Maven
# Central (s3proxy/pom.xml), the object store of the archive's tests. A second run with the same inputs
# reuses the caches and takes about a second.
#
# Environment:
#   CONTROLPLANE_CACHE_DIR  binary cache root (default ${XDG_CACHE_HOME:-$HOME/.cache}/llm-serving-operator/k8s)
#   KUBE_API_TEST_DIR       kube-api-test's directory (default $HOME/.kubeapitest)
#   LWS_SOURCE_ARCHIVE      LeaderWorkerSet's source archive (default ../shared/vendor/lws-<version>-src.tar.gz
#                           beside the checkout), checked against lws/version's SHA-256
#   GO_BUILD_NICE           niceness of the Go builds (default 10)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
binaries=(etcd kube-apiserver kube-controller-manager kube-scheduler kubectl)

log() { printf '[controlplane] %s\n' "$*"; }
elapsed() { printf '%dm%02ds' $(( (SECONDS - $1) / 60 )) $(( (SECONDS - $1) % 60 )); }
required_version() { awk -v m="$2" '$1 == "require" && $2 == m { print $3 }' "$1"; }

# Copies a wrapper module into the work directory, where the build may edit its go.mod.
prepare_module() {
  rm -rf "${work:?}/$1"
  cp -r "$here/$1" "$work/$1"
}

# Pins every staging module that k8s.io/kubernetes lists at v0.0.0 to the published release of the same minor.
replace_staging_modules() {
  local module_dir="$1" kubernetes_mod module staging=() replaces=()
  kubernetes_mod="$(cd "$work" && go mod download -json "k8s.io/kubernetes@$k8s_module_version" |
    sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
  [[ -f "$kubernetes_mod" ]] || { log "cannot read the go.mod of k8s.io/kubernetes@$k8s_module_version"; exit 1; }
  while IFS= read -r module; do staging+=("$module"); done < <(
    awk '/^require[[:space:]]*\(/ { r = 1; next } r && /^\)/ { r = 0 } r && $2 == "v0.0.0" { print $1 }' "$kubernetes_mod")
  (( ${#staging[@]} > 0 )) || { log "no staging modules at v0.0.0 in $kubernetes_mod"; exit 1; }
  log "replacing ${#staging[@]} staging modules with $staging_version: ${staging[*]}"
  for module in "${staging[@]}"; do replaces+=("-replace=$module=$module@$staging_version"); done
  (cd "$module_dir" && go mod edit "${replaces[@]}")
}

build() {
  local step
  work="$cache_dir/.work"
  rm -rf "$work" "$cache_dir/.new"
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
  (cd "$work/etcd" && nice -n "$nice_level" go build -trimpath "-ldflags=$etcd_ldflags" \
    -o "$cache_dir/.new/etcd" go.etcd.io/etcd/server/v3)
  log "built etcd in $(elapsed "$step")"

  step=$SECONDS
  log "building kube-apiserver, kube-controller-manager, kube-scheduler and kubectl $k8s_module_version"
  (cd "$work/kubernetes" && nice -n "$nice_level" go build -trimpath "-ldflags=$kubernetes_ldflags" \
    -o "$cache_dir/.new/" tool)
  log "built the Kubernetes binaries in $(elapsed "$step")"

  for b in "${binaries[@]}"; do mv -f "$cache_dir/.new/$b" "$cache_dir/$b"; done
  echo "$stamp" > "$cache_dir/.stamp"
  rm -rf "$cache_dir/.new" "$work"
}

cached() {
  local b
  [[ -f "$cache_dir/.stamp" && "$(cat "$cache_dir/.stamp")" == "$stamp" ]] || return 1
  for b in "${binaries[@]}"; do [[ -x "$cache_dir/$b" ]] || return 1; done
}

main() {
  local started=$SECONDS goos goarch version minor pkg b
  export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false
  goos="$(go env GOOS)"
  goarch="$(go env GOARCH)"
  nice_level="${GO_BUILD_NICE:-10}"

  k8s_module_version="$(required_version "$here/kubernetes/go.mod" k8s.io/kubernetes)"
  etcd_module_version="$(required_version "$here/etcd/go.mod" go.etcd.io/etcd/server/v3)"
  staging_version="v0.${k8s_module_version#v1.}"
  version="${k8s_module_version#v}"
  minor="$(cut -d. -f2 <<< "$version")"

  # The release build stamps its version into the binaries; without it they report v0.0.0-master.
  etcd_ldflags="-s -w"
  kubernetes_ldflags="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    kubernetes_ldflags+=" -X $pkg.gitVersion=$k8s_module_version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    kubernetes_ldflags+=" -X $pkg.gitTreeState=clean"
  done

  cache_dir="${CONTROLPLANE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/llm-serving-operator/k8s}/$version"
  local kube_api_test_dir="${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}/k8s/$version-$goos-$goarch"

  # Anything that changes the binaries changes the stamp and forces a rebuild.
  stamp="$(cat "$here/kubernetes/go.mod" "$here/etcd/go.mod" <(go version) \
    <(echo "$goos/$goarch $etcd_ldflags $kubernetes_ldflags") | sha256sum | cut -d' ' -f1)"

  log "Kubernetes $k8s_module_version (staging $staging_version), etcd $etcd_module_version, $(go version | cut -d' ' -f3)"
  if cached; then
    log "reusing the binaries in $cache_dir"
  else
    log "building into $cache_dir"
    build
  fi

  mkdir -p "$kube_api_test_dir"
  # Replaced by rename, so a control plane starting meanwhile (a test beside a benchmark) never finds a link missing.
  for b in "${binaries[@]}"; do
    ln -sfn "$cache_dir/$b" "$kube_api_test_dir/.$b.new"
    mv -Tf "$kube_api_test_dir/.$b.new" "$kube_api_test_dir/$b"
  done
  log "laid out for kube-api-test in $kube_api_test_dir"
  log "  $("$kube_api_test_dir/kube-apiserver" --version)"
  log "  $("$kube_api_test_dir/etcd" --version | head -1)"
  leader_worker_set "$goos" "$goarch"
  s3_proxy
  log "done in $(elapsed "$started")"
}

# The LeaderWorkerSet controller (its cmd package) built from the release archive, cached by version and archive, and
# laid out in $KUBE_API_TEST_DIR/lws/<version>/ as lws-controller, crds/ (all three, which the manager watches) and
# webhooks.yaml, where the e2e suite starts it.
leader_worker_set() {
  local goos="$1" goarch="$2" version commit sha256 archive lws_cache lws_stamp layout step
  # shellcheck source=lws/version
  source "$here/lws/version"
  archive="${LWS_SOURCE_ARCHIVE:-$here/../../../shared/vendor/lws-$version-src.tar.gz}"
  lws_cache="${CONTROLPLANE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/llm-serving-operator/k8s}/lws/$version"
  layout="${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}/lws/$version"
  lws_stamp="$(echo "$sha256 $(go version) $goos/$goarch" | sha256sum | cut -d' ' -f1)"
  if [[ -f "$lws_cache/.stamp" && "$(cat "$lws_cache/.stamp")" == "$lws_stamp" && -x "$lws_cache/lws-controller" ]]; then
    log "reusing LeaderWorkerSet $version in $lws_cache"
  else
    [[ -f "$archive" ]] || { log "LeaderWorkerSet $version's source archive is missing: $archive (set LWS_SOURCE_ARCHIVE to"
      log "a git archive of github.com/kubernetes-sigs/lws at $version, commit $commit)"; exit 1; }
    [[ "$(sha256sum "$archive" | cut -d' ' -f1)" == "$sha256" ]] ||
      { log "$archive is not LeaderWorkerSet $version: its SHA-256 differs from hack/controlplane/lws/version"; exit 1; }
    step=$SECONDS
    log "building LeaderWorkerSet $version from $(basename "$archive")"
    rm -rf "$lws_cache"
    mkdir -p "$lws_cache/.work"
    tar -xzf "$archive" -C "$lws_cache/.work"
    (cd "$lws_cache/.work" && nice -n "$nice_level" go build -trimpath \
      "-ldflags=-s -w -X sigs.k8s.io/lws/pkg/version.GitVersion=$version -X sigs.k8s.io/lws/pkg/version.GitCommit=$commit" \
      -o "$lws_cache/lws-controller" ./cmd)
    mkdir -p "$lws_cache/crds"
    cp "$lws_cache/.work/config/crd/bases/"*.yaml "$lws_cache/crds/"
    cp "$lws_cache/.work/config/webhook/manifests.yaml" "$lws_cache/webhooks.yaml"
    rm -rf "$lws_cache/.work"
    echo "$lws_stamp" > "$lws_cache/.stamp"
    log "built LeaderWorkerSet $version in $(elapsed "$step")"
  fi
  mkdir -p "$(dirname "$layout")"
  ln -sfn "$lws_cache" "$layout.new"
  mv -Tf "$layout.new" "$layout"
  log "laid out LeaderWorkerSet $version in $layout"
}

# S3Proxy and its dependencies, copied by Maven into a cache by version and laid out in
# $KUBE_API_TEST_DIR/s3proxy/<version>/lib, from where the e2e suite runs it.
s3_proxy() {
  local version s3_cache layout step
  version="$(sed -n 's:.*<s3proxy.version>\(.*\)</s3proxy.version>.*:\1:p' "$here/s3proxy/pom.xml")"
  s3_cache="${CONTROLPLANE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/llm-serving-operator/k8s}/s3proxy/$version"
  layout="${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}/s3proxy/$version"
  if [[ -f "$s3_cache/.stamp" ]]; then
    log "reusing S3Proxy $version in $s3_cache"
  else
    step=$SECONDS
    rm -rf "$s3_cache"
    mvn -B -q -f "$here/s3proxy/pom.xml" dependency:copy-dependencies -DoutputDirectory="$s3_cache/lib"
    touch "$s3_cache/.stamp"
    log "fetched S3Proxy $version ($(find "$s3_cache/lib" -name '*.jar' | wc -l) jars) in $(elapsed "$step")"
  fi
  mkdir -p "$(dirname "$layout")"
  ln -sfn "$s3_cache" "$layout.new"
  mv -Tf "$layout.new" "$layout"
  log "laid out S3Proxy $version in $layout"
}

main "$@"
