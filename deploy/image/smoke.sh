#!/usr/bin/env bash
# Runs the built images against the local stack (deploy/local/stack.sh) without a Docker engine, with
# buildah: ops creates a topic namespace of its own, the gateway, contacts and webhook-dispatch start on
# schemas of their own and must answer /ready, run as a non-root user, take a workspace, a key and an
# event end to end, and exit on SIGTERM. Everything it made is removed at the end.
#
#   deploy/image/build.sh && deploy/image/smoke.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export BUILDAH_ISOLATION="${BUILDAH_ISOLATION:-chroot}"
IMAGE_PREFIX="${IMAGE_PREFIX:-localhost/cms-}"
IMAGE_TAG="${IMAGE_TAG:-dev}"
# shellcheck disable=SC1091
source "$ROOT/.local/stack.env"

say() { printf '[smoke] %s\n' "$*" >&2; }
fail() {
  say "FAILED: $*"
  exit 1
}

run_id="$(date +%s)$RANDOM"
namespace="image-smoke-$run_id"
admin_token="smoke-admin-$run_id"
secrets_key="$(head -c 32 /dev/urandom | base64)"
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
declare -A port=([gateway]="$(free_port)" [contacts]="$(free_port)" [webhook-dispatch]="$(free_port)")
containers=()
pids=()
logs="$(mktemp -d)"

env_of() {
  local app="$1"
  local schema="${app//-/_}_smoke_$run_id"
  printf '%s\n' \
    "--env=KAFKA_BROKERS=$KAFKA_BROKERS" "--env=DATABASE_URL=$DATABASE_URL" "--env=REDIS_URL=$REDIS_URL" \
    "--env=TOPIC_NAMESPACE=$namespace" "--env=DATABASE_SCHEMA=$schema" "--env=ADMIN_TOKEN=$admin_token" \
    "--env=SECRETS_KEY=$secrets_key" "--env=HTTP_PORT=${port[$app]:-0}" \
    "--env=CONTACTS_URL=http://127.0.0.1:${port[contacts]}" \
    "--env=WEBHOOK_DISPATCH_URL=http://127.0.0.1:${port[webhook-dispatch]}"
}

# The image's entrypoint, as buildah run does not apply it.
entrypoint_of() {
  buildah inspect --type image --format '{{range .OCIv1.Config.Entrypoint}}{{println .}}{{end}}' "$1"
}

container_of() {
  local image="$IMAGE_PREFIX$1:$IMAGE_TAG" c
  c="$(buildah from --pull=never "$image")"
  containers+=("$c")
  printf '%s' "$c"
}

cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  sleep 1
  for c in "${containers[@]}"; do buildah rm "$c" >/dev/null 2>&1 || true; done
  for app in gateway contacts webhook_dispatch; do
    psql "$DATABASE_URL" -qc "DROP SCHEMA IF EXISTS ${app}_smoke_$run_id CASCADE" >/dev/null 2>&1 || true
  done
  (cd "$ROOT" && node -e '
    const { Kafka, logLevel } = require("kafkajs");
    const admin = new Kafka({ brokers: process.env.KAFKA_BROKERS.split(","), logLevel: logLevel.NOTHING }).admin();
    (async () => { await admin.connect(); const all = await admin.listTopics();
      await admin.deleteTopics({ topics: all.filter((t) => t.startsWith(process.argv[1] + ".")) }); await admin.disconnect(); })()
      .catch(() => process.exit(0));' "$namespace") || true
  rm -rf "$logs"
}
trap cleanup EXIT

run_in() { # container, app, args...: runs the image's entrypoint with args, in the foreground
  local c="$1" app="$2"
  shift 2
  mapfile -t envs < <(env_of "$app")
  mapfile -t entry < <(entrypoint_of "$IMAGE_PREFIX$app:$IMAGE_TAG")
  # exec: in the background, the pid the caller holds is buildah's, which passes signals on.
  exec buildah run --network=host "${envs[@]}" "$c" -- "${entry[@]}" "$@"
}

say "ops: topics create under $namespace"
ops="$(container_of ops)"
(run_in "$ops" ops topics create) >"$logs/ops.log" 2>&1 || {
  cat "$logs/ops.log" >&2
  fail "ops topics create"
}
(run_in "$ops" ops topics describe) >"$logs/ops-describe.log" 2>&1 || fail "ops topics describe"
grep -q "$namespace.cms.requests.v1" "$logs/ops-describe.log" || fail "ops topics describe does not list the requests topic"

for app in contacts webhook-dispatch gateway; do
  c="$(container_of "$app")"
  uid="$(buildah run "$c" -- id -u)"
  [[ "$uid" != 0 ]] || fail "$app runs as root"
  say "$app: starts as uid $uid on port ${port[$app]}"
  run_in "$c" "$app" >"$logs/$app.log" 2>&1 &
  pids+=("$!")
done

for app in contacts webhook-dispatch gateway; do
  for _ in $(seq 1 120); do
    [[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${port[$app]}/ready")" == 200 ]] && break
    sleep 0.5
  done
  [[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${port[$app]}/ready")" == 200 ]] || {
    tail -20 "$logs/$app.log" >&2
    fail "$app not ready"
  }
  say "$app: ready"
done

gw="http://127.0.0.1:${port[gateway]}"
workspace="$(curl -sf -X POST "$gw/admin/v1/workspaces" -H "authorization: Bearer $admin_token" \
  -H 'content-type: application/json' -d '{"name":"Smoke","plan":"pro"}')" || fail "workspace"
workspace_id="$(node -e 'console.log(JSON.parse(process.argv[1]).data.id)' "$workspace")"
created="$(curl -sf -X POST "$gw/admin/v1/workspaces/$workspace_id/api-keys" -H "authorization: Bearer $admin_token" \
  -H 'content-type: application/json' -d '{"name":"smoke","permissions":["read","create","update","delete"]}')" || fail "key"
key="$(node -e 'console.log(JSON.parse(process.argv[1]).data.key)' "$created")"
status="$(curl -s -o "$logs/event.json" -w '%{http_code}' -X POST "$gw/api/v1/events" -H "authorization: Bearer $key" \
  -H 'content-type: application/json' -d '{"name":"order.paid","contact":{"phone":"+14155550100"}}')"
[[ "$status" == 202 ]] || fail "POST /api/v1/events answered $status: $(cat "$logs/event.json")"
found="$(curl -sf "$gw/api/v1/contacts?filter%5Bphone%5D=%2B14155550100" -H "authorization: Bearer $key")" ||
  fail "contacts read"
grep -q '+14155550100' <<<"$found" || fail "the event's contact is not readable: $found"
say "workspace $workspace_id, a key, an event (202) and its contact read back through the gateway"

for i in "${!pids[@]}"; do
  kill -TERM "${pids[$i]}"
done
for pid in "${pids[@]}"; do
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  ! kill -0 "$pid" 2>/dev/null || fail "a service did not exit within 30 s of SIGTERM"
done
pids=()
for app in contacts webhook-dispatch gateway; do
  ! pgrep -f "node dist/apps/$app/src/main.js" >/dev/null || fail "$app is still running after SIGTERM"
done
say "every service exited on SIGTERM; passed"
