#!/usr/bin/env bash
# Every test of the project: type check, lint, unit and integration suites (the integration suites
# against the real local stack, which this brings up). Ends with one line: `N passed, M failed`.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ensure_install
ensure_stack
ensure_chromium
build --no-typecheck
ensure_topics
say "set up in $SECONDS s (dependencies, stack, browser, build, topics)"

passed=0
failed=0
# Counts a check's outcome: record_check <name> <exit code> <seconds it took>.
record_check() {
  if [[ $2 -eq 0 ]]; then
    passed=$((passed + 1))
    say "check passed: $1 ($3 s)"
  else
    failed=$((failed + 1))
    say "check FAILED: $1 ($3 s)"
  fi
}
check() {
  local name="$1"
  shift
  local started=$SECONDS rc=0
  "$@" || rc=$?
  record_check "$name" "$rc" "$((SECONDS - started))"
}
# The static checks run side by side: each is one process on one core at a time, and none writes what
# another reads (the generator works on a copy of the repository). Each one's output is printed after
# all of them, in this order.
# The module-boundary rule reads the Nx project graph; build it first or the rule has nothing to check.
NX_DAEMON=false nx show projects >/dev/null
checks_dir=".local/checks"
rm -rf "$checks_dir"
mkdir -p "$checks_dir"
check_names=()
check_pids=()
start_check() {
  local name="$1"
  shift
  (
    started=$SECONDS
    if "$@"; then rc=0; else rc=$?; fi
    echo $((SECONDS - started)) >"$checks_dir/$name.seconds"
    exit $rc
  ) >"$checks_dir/$name.log" 2>&1 &
  check_names+=("$name")
  check_pids+=($!)
}
start_check "typecheck" tsc -p tsconfig.json --noEmit
start_check "typecheck (console)" tsc -p apps/console/tsconfig.json --noEmit
start_check "lint" eslint . --max-warnings 0
start_check "format" prettier --check . --log-level warn
# scripts/services.sh, docker-compose.yml and deploy/k8s are written from the service catalog.
start_check "manifests" node -r @swc-node/register scripts/generate-manifests.ts --check
# scripts/new-service.ts makes a service that type checks, lints and passes its suite (on a copy of the repository).
start_check "generator" bash scripts/check-generator.sh
# The OpenAPI document: lint (redocly), loads in Prism, the SDK generated from it is the one checked in.
start_check "openapi" bash scripts/openapi-check.sh
for index in "${!check_names[@]}"; do
  name="${check_names[$index]}"
  if wait "${check_pids[$index]}"; then rc=0; else rc=$?; fi
  cat "$checks_dir/$name.log"
  record_check "$name" "$rc" "$(cat "$checks_dir/$name.seconds" 2>/dev/null || echo '?')"
done

say "checks done after $SECONDS s"
mkdir -p .local
rm -rf .local/openapi-coverage
# Two jest runs side by side, each one suite at a time: the end-to-end suites (tests/e2e, processes of
# every service) and everything else (unit suites and each service's own suites). Their suites use
# namespaces, schemas and consumer groups of their own, so they share the broker and Postgres without
# meeting; most of a suite's time is waiting on the broker, so two at once take about half as long.
# NestJS 12 ships ES modules only; jest loads them through Node's require(esm) under this flag.
export NODE_OPTIONS="--experimental-vm-modules --no-warnings"
e2e_results=".local/jest-results-e2e.json"
other_results=".local/jest-results.json"
rm -f "$e2e_results" "$other_results"
# Each run hands out ports for its services from a range of its own (TEST_PORT_RANGE, libs/testing
# freePort), below the kernel's ephemeral ports: neither can take a port the other chose.
# Two of the other run's slowest suites (about 110 s) run with the end-to-end suites instead, so the two
# end at about the same time (2026-11-29, fresh clones: 1,210 s and 1,273 s on a slow run of the machine).
MOVED='(apps/segments/test/import-upload|apps/messaging/test/messages-crash)[.]int-spec'
# --forceExit: a suite that fails midway may leave a client retrying; the results are written by then,
# and a run that waited on it would hold CI until its time limit.
TEST_PORT_RANGE=20000-25999 jest --runInBand --ci --forceExit --json --outputFile="$e2e_results" --selectProjects integration \
  --testPathPatterns "^.*/(tests/e2e/|$MOVED)" "$@" > .local/jest-e2e.log 2>&1 &
e2e_pid=$!
TEST_PORT_RANGE=26000-31999 jest --runInBand --ci --forceExit --json --outputFile="$other_results" \
  --testPathIgnorePatterns '/tests/e2e/' "/$MOVED" "$@" || true
wait "$e2e_pid" || true
cat .local/jest-e2e.log
jp=0
jf=0
# A suite that could not run (its file failed before any test) counts as one failure, named; a jest run
# that died before writing its results (killed, out of memory) counts as one failure, named with its log.
for run in "unit and service suites:$other_results:jest output above" "end-to-end suites:$e2e_results:.local/jest-e2e.log"; do
  IFS=: read -r name results log <<<"$run"
  if [[ -s "$results" ]]; then
    read -r rp rf < <(node -e '
      const r = require(process.argv[1]);
      const broken = r.testResults.filter((t) => t.status === "failed" && t.assertionResults.length === 0);
      for (const t of broken) console.error(`[cms] suite FAILED to run: ${t.name.replace(process.argv[2] + "/", "")}`);
      console.log(r.numPassedTests, r.numFailedTests + broken.length);
    ' "$ROOT/$results" "$ROOT")
  else
    say "jest run CRASHED: the $name wrote no results ($results); see $log"
    rp=0
    rf=1
  fi
  jp=$((jp + rp))
  jf=$((jf + rf))
done
passed=$((passed + jp))
failed=$((failed + jf))
# Every documented operation went through the real system in some end-to-end suite, and each answer
# was checked against the document there (tests/e2e/src/contract.ts). Only for the whole suite.
if [[ $# -eq 0 ]]; then
  check "openapi coverage" node scripts/openapi-coverage.mjs .local/openapi.json .local/openapi-coverage
fi
echo "$passed passed, $failed failed" | tee .local/test-summary.txt
[[ $failed -eq 0 ]]
