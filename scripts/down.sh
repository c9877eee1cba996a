#!/usr/bin/env bash
# Stops the services `npm start` started, then the parts of the local stack it started. The services
# stop together: each leaves its consumer groups once its long poll in flight is answered (up to
# KAFKA_FETCH_WAIT_MS, 10 s, at rest), so one after the other took a minute.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
declare -A stopping=()
for pidfile in .local/run/*.pid; do
  [[ -e "$pidfile" ]] || continue
  name="$(basename "$pidfile" .pid)"
  case "$name" in kafka | redis | postgres) continue ;; esac
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    stopping[$name]="$pid"
  fi
  rm -f "$pidfile"
done
for _ in $(seq 1 30); do
  for name in "${!stopping[@]}"; do
    if ! kill -0 "${stopping[$name]}" 2>/dev/null; then
      say "$name stopped"
      unset "stopping[$name]"
    fi
  done
  ((${#stopping[@]} == 0)) && break
  sleep 1
done
for name in "${!stopping[@]}"; do
  kill -KILL "${stopping[$name]}" 2>/dev/null || true
  say "$name killed after 30 s"
done
deploy/local/stack.sh down
