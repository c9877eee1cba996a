#!/usr/bin/env bash
# Runs the whole system on this machine: the local stack (Kafka, Postgres, Redis), the topics, and
# every service, each as a background process logging JSON to .local/logs/<app>.log.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source scripts/services.sh

ensure_install
ensure_stack
build
ensure_topics
say "topics are in place"
node dist/apps/ops/src/main.js topics describe

mkdir -p .local/run .local/logs
# The operator token of the gateway: kept from run to run, made once.
if [[ -z "${ADMIN_TOKEN:-}" ]]; then
  [[ -s .local/admin-token ]] || node -e 'process.stdout.write(require("crypto").randomBytes(24).toString("base64url"))' >.local/admin-token
  ADMIN_TOKEN="$(cat .local/admin-token)"
fi
export ADMIN_TOKEN
# The key that seals integration and webhook secrets: kept from run to run (a new one would make every
# stored secret unreadable), made once.
if [[ -z "${SECRETS_KEY:-}" ]]; then
  [[ -s .local/secrets-key ]] || node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))' >.local/secrets-key
  SECRETS_KEY="$(cat .local/secrets-key)"
fi
export SECRETS_KEY
for entry in "${SERVICES[@]}"; do
  IFS=: read -r app port schema memory heap <<<"$entry"
  pidfile=".local/run/$app.pid"
  if [[ -s "$pidfile" ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    say "$app already running (pid $(cat "$pidfile"))"
    continue
  fi
  # Within the memory its base deployment gives it, with the heap nodeMemoryArgs gives that limit.
  # shellcheck disable=SC2086 # $heap is a list of Node options.
  HTTP_PORT="$port" DATABASE_SCHEMA="$schema" MEMORY_LIMIT_MIB="$memory" setsid nohup node $heap \
    "dist/apps/$app/src/main.js" \
    >>".local/logs/$app.log" 2>&1 </dev/null &
  echo $! >"$pidfile"
  say "$app started on 127.0.0.1:$port (pid $!, log .local/logs/$app.log)"
done
for entry in "${SERVICES[@]}"; do
  IFS=: read -r app port _ <<<"$entry"
  for _ in $(seq 1 60); do
    curl -fsS "http://127.0.0.1:$port/ready" >/dev/null 2>&1 && break
    sleep 1
  done
  curl -fsS "http://127.0.0.1:$port/ready" >/dev/null 2>&1 || { say "$app is not ready; see .local/logs/$app.log"; exit 1; }
done
if [[ ${#SERVICES[@]} -eq 0 ]]; then
  say "no services exist yet: the stack and the topics are up"
fi
say "Kafka $KAFKA_BROKERS, Postgres $DATABASE_URL, Redis $REDIS_URL"
say "public API: http://127.0.0.1:3000/api/v1 (reference: http://127.0.0.1:3000/docs); operator token in .local/admin-token"
