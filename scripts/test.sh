#!/usr/bin/env bash
# Every test of the project: type check, lint, unit and integration suites (the integration suites
# against the real local stack, which this brings up). Ends with one line: `N passed, M failed`.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ensure_install
ensure_stack
build --no-typecheck
ensure_topics

passed=0
failed=0
check() {
  local name="$1"
  shift
  if "$@"; then
    passed=$((passed + 1))
    say "check passed: $name"
  else
    failed=$((failed + 1))
    say "check FAILED: $name"
  fi
}
check "typecheck" tsc -p tsconfig.json --noEmit
# The module-boundary rule reads the Nx project graph; build it first or the rule has nothing to check.
NX_DAEMON=false nx show projects >/dev/null
check "lint" eslint . --max-warnings 0
check "format" prettier --check . --log-level warn
# scripts/services.sh, docker-compose.yml and deploy/k8s are written from the service catalog.
check "manifests" node -r @swc-node/register scripts/generate-manifests.ts --check
# scripts/new-service.ts makes a service that type checks, lints and passes its suite (on a copy of the repository).
check "generator" bash scripts/check-generator.sh

mkdir -p .local
results=".local/jest-results.json"
rm -f "$results"
# NestJS 12 ships ES modules only; jest loads them through Node's require(esm) under this flag.
NODE_OPTIONS="--experimental-vm-modules --no-warnings" jest --runInBand --ci --json --outputFile="$results" "$@" || true
if [[ -s "$results" ]]; then
  read -r jp jf < <(node -e 'const r=require(process.argv[1]); const broken=r.testResults.filter(t=>t.status==="failed"&&t.assertionResults.length===0).length; console.log(r.numPassedTests, r.numFailedTests+broken)' "$ROOT/$results")
else
  jp=0
  jf=1
fi
passed=$((passed + jp))
failed=$((failed + jf))
echo "$passed passed, $failed failed" | tee .local/test-summary.txt
[[ $failed -eq 0 ]]
