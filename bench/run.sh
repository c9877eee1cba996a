#!/usr/bin/env bash
# `npm run bench [-- --quick|--only …|--profile|--no-build]`: brings up the local stack, builds, and runs
# the benchmark (bench/src/main.ts), which starts its own services on a topic namespace and schemas of
# its own and removes them when it ends. Table on stdout, JSON in .local/bench/results.json.
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

ensure_install
ensure_stack
if [[ " $* " != *" --no-build "* ]]; then
  say "building dist/ (swc; the type check is npm test's)"
  build --no-typecheck
fi
exec node -r @swc-node/register bench/src/main.ts "$@"
