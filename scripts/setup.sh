#!/usr/bin/env bash
# Command 1 of README.md: install what is missing, build parq (Release) and
# run it on the bundled example (schema, metadata, first rows).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target parq_tool

echo
echo "== parq schema examples/cities.parquet"
build/parq schema examples/cities.parquet
echo
echo "== parq meta examples/cities.parquet"
build/parq meta examples/cities.parquet
echo
echo "== parq head examples/cities.parquet"
build/parq head examples/cities.parquet
