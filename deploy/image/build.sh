#!/usr/bin/env bash
# Builds the service image for each app from the repository's Dockerfile with buildah, which needs no
# Docker engine: `deploy/image/build.sh [APP ...]` (default: every app). Images are tagged
# $IMAGE_PREFIX<app>:$IMAGE_TAG (default localhost/cms-<app>:dev). With NODE_IMAGE unset, the base is
# the local stand-in deploy/image/base-image.sh makes (made first when missing).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export BUILDAH_ISOLATION="${BUILDAH_ISOLATION:-chroot}"
IMAGE_PREFIX="${IMAGE_PREFIX:-localhost/cms-}"
IMAGE_TAG="${IMAGE_TAG:-dev}"

say() { printf '[image] %s\n' "$*" >&2; }

command -v buildah >/dev/null || {
  say "buildah is missing: apt-get install -y buildah (or build with docker: docker build --build-arg APP=<app> .)"
  exit 1
}
if [[ -z "${NODE_IMAGE:-}" ]]; then
  NODE_IMAGE="localhost/cms-node-base:24"
  BASE_IMAGE="$NODE_IMAGE" "$ROOT/deploy/image/base-image.sh"
fi

apps=("$@")
if [[ ${#apps[@]} -eq 0 ]]; then
  for dir in "$ROOT"/apps/*/; do apps+=("$(basename "$dir")"); done
fi

for app in "${apps[@]}"; do
  [[ -f "$ROOT/apps/$app/src/main.ts" ]] || {
    say "no app $app (apps: $(ls "$ROOT/apps" | tr '\n' ' '))"
    exit 2
  }
done

# The images differ only in APP (ENV APP=${APP} in the runtime stage). buildah's layer cache does not
# tell build-arg values apart (every app would get the first one's cached runtime stage), so the
# Dockerfile is built once, with the first app, and each app's image is that image with its own APP.
image_of() { printf '%s%s:%s' "$IMAGE_PREFIX" "$1" "$IMAGE_TAG"; }
first="${apps[0]}"
start=$(date +%s)
buildah build --quiet --layers --pull=never \
  --build-arg "NODE_IMAGE=$NODE_IMAGE" --build-arg "APP=$first" \
  -f "$ROOT/Dockerfile" -t "$(image_of "$first")" "$ROOT" >/dev/null
say "built $(image_of "$first") in $(($(date +%s) - start))s"
for app in "${apps[@]}"; do
  if [[ "$app" != "$first" ]]; then
    container="$(buildah from --pull=never "$(image_of "$first")")"
    buildah config --env "APP=$app" "$container"
    buildah commit --quiet "$container" "$(image_of "$app")" >/dev/null
    buildah rm "$container" >/dev/null
  fi
  say "$(image_of "$app"): APP=$app, $(buildah images --format '{{.Size}}' "$(image_of "$app")" | head -1)"
done
