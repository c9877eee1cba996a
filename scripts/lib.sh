# Shared by the top-level scripts: puts the project's Node 24 first on PATH, installing it (and the
# rest of node_modules) when the lockfile changed since the last install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

say() { printf '[cms] %s\n' "$*" >&2; }

ensure_install() {
  local stamp="node_modules/.install-stamp"
  if [[ ! -x node_modules/.bin/node || ! -f "$stamp" || package-lock.json -nt "$stamp" || package.json -nt "$stamp" ]]; then
    say "installing dependencies (npm install; this brings Node 24 as the node package)"
    # Any npm works for the install itself; everything after runs on the project's Node 24.
    # `npm ci` trips over npm's lockfile bug with other platforms' optional binaries (npm/cli#4828);
    # `npm install` honours the lockfile's versions and fills those entries in.
    npm install --no-audit --no-fund --loglevel=error
    touch "$stamp"
  fi
  export PATH="$ROOT/node_modules/.bin:$PATH"
  local version
  version="$(node --version)"
  [[ "$version" == v24.* ]] || { say "expected Node 24 from node_modules/.bin, got $version"; exit 1; }
}

# The browser of the console's end-to-end suite: Debian's chromium (Playwright's own download cannot be
# reached here). Installed when missing; the suite says what is missing if this could not install it.
ensure_chromium() {
  [[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]] && return 0
  say "installing Debian's chromium for the console's browser tests"
  if command -v apt-get >/dev/null 2>&1 && [[ $(id -u) -eq 0 ]]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; } ||
      say "could not install chromium: the console suite will fail"
  else
    say "chromium is missing and cannot be installed here (needs apt-get as root): the console suite will fail"
  fi
}

ensure_stack() {
  deploy/local/stack.sh up
  # shellcheck disable=SC1091
  source .local/stack.env
}

ensure_topics() {
  node dist/apps/ops/src/main.js topics create >/dev/null
}

build() {
  node scripts/build.mjs "$@"
}
