#!/usr/bin/env bash
# Stops the services `npm start` started, then the parts of the local stack it started.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
for pidfile in .local/run/*.pid; do
  [[ -e "$pidfile" ]] || continue
  name="$(basename "$pidfile" .pid)"
  case "$name" in kafka | redis | postgres) continue ;; esac
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    say "$name stopped"
  fi
  rm -f "$pidfile"
done
deploy/local/stack.sh down
