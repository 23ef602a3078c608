#!/usr/bin/env bash
# Proves svc on each supported Node.js line besides the default one: for every version, install that Node from
# the npm registry (the node-<os>-<arch> package holds the binary and its headers, so nothing else is
# downloaded), copy the repository into a temporary directory as a fresh clone would have it, then with that
# Node first on PATH: npm ci (which builds the Node-API binding), npm run build (server and console), and the
# fast subset of the suite below. Prints the Node running each step and the time of each line; fails if any
# line fails. .ci/run calls it after the full suite on the default Node.
# Usage: scripts/test-node-lines.sh [--worktree] [version ...]   (default versions: NODE_LINES below)
#   --worktree   test the working tree (tracked and untracked, unignored files) instead of HEAD
# Environment: NODE_LINES_CACHE (where Node binaries are kept between runs; default ~/.cache/svc-node-lines),
#   KEEP_NODE_LINES_WORK=1 keeps the temporary copies for inspection.
set -euo pipefail

NODE_LINES=(22.23.0 24.21.0 26.10.0)
# The foundation (execute, column types), import, export, crash recovery, the SQL .slt suite, the unit tests
# (in process, a few seconds: the codecs, the Parquet writer with DuckDB reading back, the storage codecs), and
# ILP over TCP (its connections move their native handle to a socket reading into a shared buffer,
# src/ilp/shared-read-buffer.ts, which relies on how Node.js wraps handles).
# ava expands the quoted glob itself.
SUBSET=(
  'test/unit/**/*.test.ts'
  test/e2e/execute.test.ts
  test/e2e/column-types.test.ts
  test/e2e/import.test.ts
  test/e2e/export.test.ts
  test/e2e/crash-recovery.test.ts
  test/e2e/ilp-tcp.test.ts
  test/sql/run-slt.test.ts
)

source_mode=head
versions=()
for arg in "$@"; do
  case "$arg" in
    --worktree) source_mode=worktree ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "test-node-lines: unknown option $arg" >&2; exit 2 ;;
    *) versions+=("$arg") ;;
  esac
done
[ "${#versions[@]}" -gt 0 ] || versions=("${NODE_LINES[@]}")

repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="${NODE_LINES_CACHE:-$HOME/.cache/svc-node-lines}"
work="$(mktemp -d "${TMPDIR:-/tmp}/svc-node-lines.XXXXXX")"
if [ "${KEEP_NODE_LINES_WORK:-0}" = 1 ]; then
  echo "test-node-lines: work directory $work is kept"
else
  trap 'rm -rf "$work"' EXIT
fi
platform="$(node -p 'process.platform + "-" + process.arch')"

# Prints the bin directory of Node <version>, installing node-<os>-<arch>@<version> into the cache first.
node_bin_dir() {
  local version="$1" prefix="$cache/$1"
  local bin="$prefix/node_modules/node-$platform/bin"
  if [ ! -x "$bin/node" ] || [ "$("$bin/node" --version)" != "v$version" ]; then
    rm -rf "$prefix"
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-$platform@$version" >&2 || return 1
  fi
  [ -x "$bin/node" ] || return 1
  echo "$bin"
}

# Copies the repository into $1: HEAD as a clone has it, or the working tree's unignored files; a source tree
# that is not a git checkout is copied without its build outputs.
copy_repo() {
  local target="$1"
  mkdir -p "$target"
  if ! git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
    tar -C "$repo" --exclude=./node_modules --exclude=./dist --exclude=./native/mmap/build -cf - . | tar -xf - -C "$target"
  elif [ "$source_mode" = head ]; then
    git -C "$repo" archive --format=tar HEAD | tar -xf - -C "$target"
  else
    # Files deleted in the working tree are still listed as tracked: tar skips them with a warning.
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$target"
  fi
}

now() { date +%s; }

# Runs one step with Node <bin> first on PATH and says which Node ran it.
step() {
  local name="$1"; shift
  echo "-- [$(node --version) $(command -v node)] $name"
  "$@"
}

run_line() {
  local version="$1" bin="$2" dir="$work/svc-$1"
  copy_repo "$dir"
  cd "$dir"
  export PATH="$bin:$PATH"
  [ "$(node --version)" = "v$version" ] || { echo "test-node-lines: PATH gives $(node --version), not v$version" >&2; return 1; }
  step "npm ci (npm $(npm --version))" npm ci --no-audit --no-fund --loglevel=error
  step "npm run build (server and console)" npm run build --silent
  step "ava: ${SUBSET[*]}" npx ava "${SUBSET[@]}"
}

results=()
failed=0
for version in "${versions[@]}"; do
  echo "== Node $version"
  started="$(now)"
  # The line runs in a subshell with errexit of its own (inside an `if` condition bash would ignore set -e).
  set +e
  bin="$(node_bin_dir "$version")"
  rc=$?
  if [ "$rc" -eq 0 ]; then
    (set -e; run_line "$version" "$bin")
    rc=$?
  fi
  set -e
  if [ "$rc" -eq 0 ]; then status=ok; else status="FAILED (exit $rc)"; failed=1; fi
  seconds=$(( $(now) - started ))
  echo "== Node $version: $status in ${seconds}s"
  results+=("Node $version: $status, ${seconds}s")
done

echo "== test-node-lines summary"
printf '  %s\n' "${results[@]}"
exit "$failed"
