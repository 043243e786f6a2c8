#!/usr/bin/env bash
# Builds a base image for the operator where no container registry is reachable: Debian bookworm (minbase) with the
# OpenJDK 17 JRE, from Debian's packages by debootstrap, packed as a one-layer docker-archive tarball that Jib reads
# as a tar:// base image. Needs root and debootstrap. Cached by this script's content and the suite; prints the
# tarball's path on its last line.
#
#   hack/image/debian-jre-base.sh
#
# Environment: IMAGE_BASE_CACHE_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/llm-serving-operator/image-base),
# DEBIAN_MIRROR (default http://deb.debian.org/debian).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
suite=bookworm
packages=openjdk-17-jre-headless
cache_dir=${IMAGE_BASE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/llm-serving-operator/image-base}
key=$(cat "$0" "$here/docker_archive.py" | sha256sum | cut -c1-16)
tarball=$cache_dir/debian-$suite-jre17-$key.tar

if [[ ! -f $tarball ]]; then
  command -v debootstrap >/dev/null || { echo "debootstrap is missing (Debian: apt-get install debootstrap)" >&2; exit 1; }
  [[ $(id -u) == 0 ]] || { echo "debootstrap needs root" >&2; exit 1; }
  mkdir -p "$cache_dir"
  rootfs=$(mktemp -d "$cache_dir/rootfs.XXXXXX")
  trap 'rm -rf "$rootfs"' EXIT
  echo "[image-base] debootstrap $suite with $packages (about 2 min)" >&2
  debootstrap --variant=minbase --include="$packages" "$suite" "$rootfs" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" \
    >"$cache_dir/debootstrap.log" 2>&1 || { tail -20 "$cache_dir/debootstrap.log" >&2; exit 1; }
  # What a container never needs: package caches and lists, documentation, manuals, translations.
  rm -rf "$rootfs"/var/cache/apt/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc "$rootfs"/usr/share/man \
    "$rootfs"/usr/share/locale
  python3 "$here/docker_archive.py" "$rootfs" "$tarball.partial" --tag "debian-jre17:$suite" \
    --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin >&2
  mv "$tarball.partial" "$tarball"
fi
echo "$tarball"
