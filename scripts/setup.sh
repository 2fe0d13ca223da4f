#!/usr/bin/env bash
# Command 1 of README.md: install what is missing, build parq (Release) and
# run it on the bundled example: convert examples/cities.csv to Parquet, show
# its schema and first rows, and the metadata of a DuckDB-written copy; then
# build and install the Python package into .venv and read the example
# through it into pyarrow.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
# So that the Python package's build takes the library's objects from build/.
source scripts/build-env.sh
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

echo
echo "== the Python package (python/setup-venv.sh: .venv with parq and its test extras)"
python/setup-venv.sh
.venv/bin/python - <<'PY'
import parq, pyarrow
t = parq.read_table("build/cities.parquet", filter="population > 1000000")
print(f"parq.read_table: {t.num_rows} cities of more than a million people")
print(pyarrow.table(t).to_pandas().head())
PY
