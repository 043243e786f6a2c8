#!/usr/bin/env bash
# Builds the operator's container image with Jib, without a Docker daemon, into target/llm-serving-operator-image.tar
# (docker-archive format: `docker load`, `kind load image-archive`, `skopeo copy docker-archive:...` read it), then
# runs the image's tests on that tarball and, in podman, on the image. See docs/operations.md, "Container image".
#
#   hack/image/build.sh                # on eclipse-temurin:17-jre, pulled from Docker Hub: needs that registry
#   hack/image/build.sh --local-base   # on Debian bookworm with OpenJDK 17 built here from Debian's packages
#                                      # (hack/image/debian-jre-base.sh: root and debootstrap), as CI does
set -euo pipefail
cd "$(dirname "$0")/../.."

base=()
case "${1:-}" in
  --local-base) base=("-Dquarkus.jib.base-jvm-image=tar://$(hack/image/debian-jre-base.sh | tail -1)") ;;
  "") ;;
  *) echo "usage: $0 [--local-base]" >&2; exit 2 ;;
esac

# From Debian's packages, what the build and the tests need: debootstrap for --local-base, podman with runc to run the
# image (hack/image/containers.conf). Installed when missing where this runs as root with apt-get; elsewhere the
# tests name what to install.
missing=()
if ((${#base[@]})) && ! command -v debootstrap >/dev/null; then missing+=(debootstrap); fi
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || missing+=(runc)
if ((${#missing[@]})) && [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
  echo "[image] installing ${missing[*]} from Debian's packages" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

mvn -B -q -Pimage package -DskipTests "${base[@]}"
mvn -B -q -Pimage failsafe:integration-test@image failsafe:verify@image
echo "image: target/llm-serving-operator-image.tar ($(du -h target/llm-serving-operator-image.tar | cut -f1))"
