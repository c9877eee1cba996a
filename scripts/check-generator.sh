#!/usr/bin/env bash
# Proves scripts/new-service.ts: on a copy of the repository (its files, node_modules linked), makes a
# sample service, then type checks, lints and format-checks the result, checks its manifests, and runs
# the sample's integration suite against the local stack and the deploy suites (tests/k8s) over its
# Kubernetes base. Nothing of it stays in the repository.
#
#   bash scripts/check-generator.sh [--keep]    # --keep: leave the copy and say where it is
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
# Two words and an entity of its own, so that every spelling of the names is exercised.
SAMPLE=sample-ledger
ENTITY=entry

say() { printf '[check-generator] %s\n' "$*" >&2; }

copy="$(mktemp -d "${TMPDIR:-/tmp}/cms-check-generator.XXXXXX")"
if [[ "${1:-}" == "--keep" ]]; then
  trap 'say "the copy is at $copy"' EXIT
else
  trap 'rm -rf "$copy"' EXIT
fi

cd "$ROOT"
# The files git knows of as they are now, and the new ones it does not ignore.
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' file; do [[ -e "$file" ]] && printf '%s\0' "$file"; done |
  tar --null -T - -cf - | tar -xf - -C "$copy"
ln -s "$(readlink -f node_modules)" "$copy/node_modules"
# The local stack's addresses, which the integration suite reads from .local/stack.env when they are not
# in the environment.
if [[ -f .local/stack.env ]]; then
  mkdir -p "$copy/.local"
  cp .local/stack.env "$copy/.local/stack.env"
fi

cd "$copy"
export PATH="$copy/node_modules/.bin:$PATH"
export NX_DAEMON=false
say "generating $SAMPLE (entity $ENTITY)"
node -r @swc-node/register scripts/new-service.ts "$SAMPLE" --entity "$ENTITY" >/dev/null
say "type check"
tsc -p tsconfig.json --noEmit
say "lint"
# The module-boundary rule reads the Nx project graph.
nx show projects >/dev/null
eslint "apps/$SAMPLE" libs/contracts/src libs/config/src --max-warnings 0
say "format"
prettier --check "apps/$SAMPLE" libs docker-compose.yml deploy scripts --log-level warn
say "manifests"
node -r @swc-node/register scripts/generate-manifests.ts --check
say "integration suite of $SAMPLE, and the deploy suites over its Kubernetes base"
NODE_OPTIONS="--experimental-vm-modules --no-warnings" jest --runInBand --ci --selectProjects integration deploy \
  --testPathPatterns "apps/$SAMPLE/" tests/k8s/
say "passed"
