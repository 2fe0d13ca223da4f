#!/usr/bin/env bash
# Interop test: parq reads what DuckDB, Polars, parquet-wasm (arrow-rs) and
# hyparquet write exactly as each of them reads it back (main.mjs), and they
# (and parq) read what parq writes under a matrix of writer options exactly as
# the source it was rewritten from (wmain.mjs).
#   usage: tests/interop/run.sh PARQ_BINARY
#          tests/interop/run.sh --install   (the npm packages alone)
# Installs the pinned npm packages (npm ci) when node_modules is missing or older
# than package-lock.json, then runs main.mjs. Prints `interop: N passed, M failed`
# last and exits non-zero on any failure.
# Env: INTEROP_ENGINES=duckdb,polars,parquet-wasm,hyparquet (subset), INTEROP_PART=read|write,
#      INTEROP_KEEP=1 (keep files), INTEROP_SHARE=K/N (the writer cells i with i % N == K).
set -euo pipefail
if [ $# -ne 1 ]; then echo "usage: $0 PARQ_BINARY | --install" >&2; exit 2; fi
if [ "$1" != --install ]; then
  parq=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  [ -x "$parq" ] || { echo "interop: $parq is not an executable" >&2; exit 2; }
fi
cd "$(dirname "$0")"
stamp=node_modules/.interop-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  echo "interop: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error </dev/null
  touch "$stamp"
fi
[ "$1" != --install ] || exit 0
exec node main.mjs "$parq" </dev/null
