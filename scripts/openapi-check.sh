#!/usr/bin/env bash
# The gateway's OpenAPI document, as customers' tools will see it (extensions §7). From the built
# gateway (dist/, `node scripts/build.mjs --no-typecheck`):
#   1. writes it to .local/openapi.json (`main.js openapi`: nothing started);
#   2. lints it with Redocly (redocly.yaml; any error fails);
#   3. loads it in Prism: a mock server from the document must start and answer GET /health;
#   4. checks libs/sdk/src/schema.ts is what the document makes (scripts/generate-sdk.mjs --check).
# Runs every step it can, names each that failed, and exits non-zero if any did.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
export PATH="$ROOT/node_modules/.bin:$PATH"
# No usage reports from the tools, no update notices in the output.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true

say() { printf '[openapi] %s\n' "$*" >&2; }
failed=()

document=.local/openapi.json
mkdir -p .local
if [[ ! -f dist/apps/gateway/src/main.js ]]; then
  say "FAILED: dist/ has no gateway; build first: node scripts/build.mjs --no-typecheck"
  exit 1
fi
# The default PUBLIC_BASE_URL, whatever this shell has: the document checked is the one every run makes.
if ! env -u PUBLIC_BASE_URL node dist/apps/gateway/src/main.js openapi >"$document.tmp" ||
  ! node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$document.tmp"; then
  rm -f "$document.tmp"
  say "FAILED: writing the document (node dist/apps/gateway/src/main.js openapi)"
  exit 1
fi
mv "$document.tmp" "$document"
say "wrote $document"

# 2. Lint: one line a problem, then the count by rule.
if redocly lint "$document" --config redocly.yaml --format=stylish --max-problems 1000; then
  say "lint passed"
else
  redocly lint "$document" --config redocly.yaml --format=summary 2>&1 | grep -E '^(error|warning) ' >&2
  failed+=("lint (redocly lint $document --config redocly.yaml)")
fi

# 3. Prism: on a free port of 127.0.0.1. It compiles every schema before it answers: a few seconds on an
# idle machine, far more on a loaded one, so the wait is generous (OPENAPI_PRISM_WAIT seconds, default 180).
port="$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
prism_log=.local/openapi-prism.log
prism mock "$document" --host 127.0.0.1 --port "$port" >"$prism_log" 2>&1 &
prism_pid=$!
trap 'kill "$prism_pid" 2>/dev/null' EXIT
answer=""
exited=""
deadline=$((SECONDS + ${OPENAPI_PRISM_WAIT:-180}))
while ((SECONDS < deadline)); do
  if ! kill -0 "$prism_pid" 2>/dev/null; then
    exited=yes
    break
  fi
  status="$(curl -s -o .local/openapi-prism.answer -w '%{http_code}' --max-time 30 "http://127.0.0.1:$port/health")"
  if [[ "$status" != "000" ]]; then
    answer="$status"
    break
  fi
  sleep 0.5
done
kill "$prism_pid" 2>/dev/null
wait "$prism_pid" 2>/dev/null
trap - EXIT
if [[ "$answer" == "200" ]] && grep -q '"status"' .local/openapi-prism.answer; then
  say "Prism loaded the document and answered GET /health: $(cat .local/openapi-prism.answer)"
else
  if [[ -n "$exited" ]]; then
    say "Prism exited before answering: it could not load the document; its log ($prism_log):"
  elif [[ -z "$answer" ]]; then
    say "Prism did not answer within ${OPENAPI_PRISM_WAIT:-180} s; its log ($prism_log):"
  else
    say "Prism answered GET /health with $answer, not 200; its log ($prism_log):"
  fi
  tail -n 30 "$prism_log" >&2
  failed+=("prism (prism mock $document)")
fi

# 4. The SDK's types are the document's.
if ! node scripts/generate-sdk.mjs --check --document "$document"; then
  failed+=("sdk (node scripts/generate-sdk.mjs --check)")
fi

if ((${#failed[@]} > 0)); then
  for step in "${failed[@]}"; do say "FAILED: $step"; done
  exit 1
fi
say "document, lint, Prism and SDK all agree"
