#!/usr/bin/env bash
# Differential test: `parq cat FILE --where EXPR` keeps the same rows as
# DuckDB's `SELECT * FROM read_parquet(FILE) WHERE ...` for seeded random
# predicates over DuckDB-written files and their `parq rewrite`s under several
# writer settings (main.mjs says what is compared).
#   usage: tests/differential/run.sh PARQ_BINARY
#          tests/differential/run.sh --install   (the npm packages alone)
# Installs the pinned npm packages (npm ci) when node_modules is missing or
# older than package-lock.json, then runs main.mjs. Prints
# `differential: N passed, M failed` last and exits non-zero on any failure.
# Env: DIFF_CASES=5000 (more cases; default 1800), DIFF_SEED=N|random (default 1),
#      DIFF_ONLY=k (one predicate), DIFF_FILES=a,b (some files), DIFF_KEEP=1,
#      DIFF_JOBS=N (concurrent cases, 3), DIFF_VERBOSE=1, DIFF_SHARE=K/N (a share of the predicates).
set -euo pipefail
if [ $# -ne 1 ]; then echo "usage: $0 PARQ_BINARY | --install" >&2; exit 2; fi
if [ "$1" != --install ]; then
  parq=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  [ -x "$parq" ] || { echo "differential: $parq is not an executable" >&2; exit 2; }
fi
cd "$(dirname "$0")"
stamp=node_modules/.differential-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  echo "differential: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error </dev/null
  touch "$stamp"
fi
[ "$1" != --install ] || exit 0
exec node main.mjs "$parq" </dev/null
