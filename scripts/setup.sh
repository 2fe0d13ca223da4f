#!/usr/bin/env bash
# Command 1 of README.md: install what is missing, build parq (Release) and
# run it on the bundled example: convert examples/cities.csv to Parquet, show
# its schema and first rows, and the metadata of a DuckDB-written copy.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target parq_tool

echo
echo "== parq convert examples/cities.csv build/cities.parquet"
build/parq convert examples/cities.csv build/cities.parquet
echo
echo "== parq schema build/cities.parquet"
build/parq schema build/cities.parquet
echo
echo "== parq head build/cities.parquet"
build/parq head build/cities.parquet
echo
echo "== parq meta examples/cities.parquet (written by DuckDB)"
build/parq meta examples/cities.parquet
