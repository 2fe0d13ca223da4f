#!/usr/bin/env bash
# Times `parq concat` joining FILES files of about 60 MB (lineitem_snappy
# cut by `parq split --bytes`, the pieces copied until there are FILES
# distinct files), beside arrow-rs's `parquet-concat` when it is installed,
# and checks that DuckDB reads each output as it reads the inputs (row count
# and, per column, a hash sum weighted by row position). Prints each run and the medians; deletes
# everything it wrote.
#
#   bench/compare/concat_compare.sh [FILES [RUNS]]     (100 files, 5 runs)
#
# Environment: PARQ (the tool; build/parq), PARQUET_CONCAT (arrow-rs's
# binary; looked up in PATH), PYTHON (one with duckdb; /work/main/.venv),
# SOURCE (the file to cut; bench/compare/data/lineitem_snappy.parquet),
# PIECE_BYTES (64000000: ten of its row groups, about 60 MB), WORK (scratch folder; a new one under /tmp).
# A smoke run for CI: FILES=2 RUNS=1 with a small SOURCE.
#
# Both tools read inputs the page cache holds (the files were just written);
# parq's output is synced to disk before its rename (FileWriter's commit),
# which the timing includes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
files=${1:-100}
runs=${2:-5}
parq=${PARQ:-$root/build/parq}
source_file=${SOURCE:-$here/data/lineitem_snappy.parquet}
piece_bytes=${PIECE_BYTES:-64000000}
python=${PYTHON:-/work/main/.venv/bin/python}
peer=${PARQUET_CONCAT:-$(command -v parquet-concat || true)}
work=${WORK:-$(mktemp -d /tmp/parq-concat-bench.XXXXXX)}
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/in"
"$parq" split "$source_file" "$work/pieces" --bytes "$piece_bytes" >/dev/null
pieces=("$work"/pieces/part-*.parquet)
inputs=()
for ((i = 0; i < files; ++i)); do
  name=$(printf '%s/in/f-%05d.parquet' "$work" "$i")
  cp "${pieces[i % ${#pieces[@]}]}" "$name"
  inputs+=("$name")
done
rm -rf "$work/pieces"
input_bytes=$(du -cb "${inputs[@]}" | tail -1 | cut -f1)
echo "inputs: $files files, $input_bytes bytes (pieces of $source_file)"

# "seconds peak-RSS-KiB" of one run of a command.
run_timed() {
  /usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null
  cat "$work/time"
}

gbps() { awk -v bytes="$1" -v s="$2" 'BEGIN {print (s > 0) ? bytes / s / 1e9 : 0}'; }

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# Whether DuckDB reads `out` as it reads the inputs, row for row: per
# column, the sum of each value's hash (mod a prime) times its row's
# position, so that a row out of place changes it.
duckdb_check() {
  "$python" - "$1" "${inputs[@]}" <<'EOF'
import sys, duckdb
out, inputs = sys.argv[1], sys.argv[2:]
con = duckdb.connect()
con.execute("CREATE TEMP TABLE offsets (filename VARCHAR, first_row BIGINT)")
first_row = 0
for f in inputs:
    con.execute("INSERT INTO offsets VALUES (?, ?)", [f, first_row])
    first_row += con.execute("SELECT count(*) FROM read_parquet(?)", [f]).fetchone()[0]
sums = "sum((hash(COLUMNS(* EXCLUDE (file_row_number, filename, first_row, position))) % 1000003) * (position + 1))"
a = con.execute(f"""SELECT count(*), {sums} FROM (SELECT *, '' AS filename, 0 AS first_row,
                    file_row_number AS position FROM read_parquet(?, file_row_number = true))""", [out]).fetchone()
b = con.execute(f"""SELECT count(*), {sums} FROM (SELECT *, first_row + file_row_number AS position
                    FROM read_parquet(?, file_row_number = true, filename = true) JOIN offsets USING (filename))""",
                [inputs]).fetchone()
print("duckdb: the same rows in the same order" if a == b else f"duckdb: DIFFERENT {a} vs {b}")
sys.exit(0 if a == b else 1)
EOF
}

measure() {
  local name=$1
  shift
  local times=() rss=() t kib out_bytes=0
  for ((r = 0; r < runs; ++r)); do
    rm -f "$work/out.parquet"
    read -r t kib < <(run_timed "$@")
    out_bytes=$(stat -c %s "$work/out.parquet")
    times+=("$t")
    rss+=("$kib")
    printf '%s run %d: %.2f s, %.2f GB/s, peak RSS %d MiB\n' "$name" "$r" "$t" \
      "$(gbps "$out_bytes" "$t")" $((kib / 1024))
  done
  duckdb_check "$work/out.parquet"
  local m
  m=$(median "${times[@]}")
  printf '%s median: %.2f s, %.2f GB/s, peak RSS %d MiB (output %d bytes)\n' "$name" "$m" \
    "$(gbps "$out_bytes" "$m")" $(($(median "${rss[@]}") / 1024)) "$out_bytes"
  rm -f "$work/out.parquet"
}

measure "parq concat" "$parq" concat "$work/out.parquet" "${inputs[@]}"
if [[ -n "$peer" ]]; then
  measure "parquet-concat (arrow-rs)" "$peer" "$work/out.parquet" "${inputs[@]}"
else
  echo "parquet-concat (arrow-rs): not installed (cargo install parquet --features cli)"
fi
