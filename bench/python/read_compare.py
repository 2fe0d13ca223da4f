"""Side-by-side reads and writes from Python: parq against pyarrow, Polars
and DuckDB on the same files, medians of repeated runs, ratios printed as a
Markdown table (the README's).

    .venv/bin/python bench/python/read_compare.py [FILE...]

Files default to the lineitem files of bench/compare/data (made by
bench/compare/generate.mjs). Reads produce an Arrow table in pyarrow for
every library (parq's zero-copy export included in its time), at 1 and 2
threads: pyarrow by set_cpu_count, DuckDB by its threads setting, both in
this process; Polars fixes its pool when imported, so its reads run in one
child process per thread count (POLARS_MAX_THREADS). Writes: the first file's
rows, loaded once, written with SNAPPY by each library. PARQ_BENCH_REPEAT=K
changes the run count (5).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

import parq

REPEAT = int(os.environ.get("PARQ_BENCH_REPEAT", "5"))
ROOT = Path(__file__).resolve().parents[2]


def median_time(fn, repeat: int = REPEAT) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def parq_read(path: str, threads: int) -> pa.Table:
    return pa.table(parq.read_table(path, threads=threads))


def pyarrow_read(path: str, threads: int) -> pa.Table:
    pa.set_cpu_count(threads)
    pa.set_io_thread_count(threads)
    return pq.read_table(path, use_threads=threads > 1)


def duckdb_read(con: duckdb.DuckDBPyConnection, path: str) -> pa.Table:
    # .arrow() is a lazy RecordBatchReader in DuckDB 1.4 and later: only a
    # materialized table reads the file.
    rel = con.sql(f"SELECT * FROM read_parquet('{path}')")
    return rel.to_arrow_table() if hasattr(rel, "to_arrow_table") else rel.fetch_arrow_table()


POLARS_CHILD = """
import json, statistics, sys, time
import polars as pl
path, repeat = sys.argv[1], int(sys.argv[2])
times = []
for _ in range(repeat):
    start = time.perf_counter()
    df = pl.read_parquet(path)
    times.append(time.perf_counter() - start)
print(json.dumps({"seconds": statistics.median(times), "rows": df.height}))
"""


def polars_read(path: str, threads: int) -> tuple[float, int]:
    env = dict(os.environ, POLARS_MAX_THREADS=str(threads))
    out = subprocess.run(
        [sys.executable, "-c", POLARS_CHILD, path, str(REPEAT)], env=env, check=True, capture_output=True, text=True
    )
    r = json.loads(out.stdout)
    return r["seconds"], r["rows"]


def read_row(path: str) -> dict:
    rows = pq.ParquetFile(path).metadata.num_rows
    r: dict = {"file": Path(path).stem, "rows": rows}
    for threads in (1, 2):
        got = parq_read(path, threads).num_rows
        if got != rows:
            raise SystemExit(f"{path}: parq read {got} rows, the footer says {rows}")
        # (Only the count is kept: a table held through the timed runs would
        # make each of them take fresh memory.)
        r[f"parq{threads}"] = median_time(lambda: parq_read(path, threads))
        r[f"pyarrow{threads}"] = median_time(lambda: pyarrow_read(path, threads))
        con = duckdb.connect(config={"threads": threads})
        r[f"duckdb{threads}"] = median_time(lambda: duckdb_read(con, path))
        con.close()
        seconds, polars_rows = polars_read(path, threads)
        if polars_rows != rows:
            raise SystemExit(f"{path}: Polars read {polars_rows} rows, the footer says {rows}")
        r[f"polars{threads}"] = seconds
        print(f"{r['file']} {threads}t done", file=sys.stderr)
    return r


def write_row(path: str) -> dict:
    import polars as pl

    table = pq.read_table(path)
    frame = pl.from_arrow(table)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.parquet")
        r = {"file": Path(path).stem}
        r["parq"] = median_time(lambda: parq.write_table(table, out, codec="snappy"))
        r["parq_bytes"] = os.path.getsize(out)
        r["pyarrow"] = median_time(lambda: pq.write_table(table, out, compression="snappy"))
        r["pyarrow_bytes"] = os.path.getsize(out)
        r["polars"] = median_time(lambda: frame.write_parquet(out, compression="snappy"))
        r["polars_bytes"] = os.path.getsize(out)
    return r


def main() -> None:
    files = sys.argv[1:] or sorted(str(p) for p in (ROOT / "bench/compare/data").glob("lineitem_*.parquet"))
    if not files:
        raise SystemExit("no files: run bench/compare/generate.mjs first, or name files")
    problems = []
    print("| file | parq 1t | pyarrow 1t | Polars 1t | DuckDB 1t | parq 2t | pyarrow 2t | Polars 2t | DuckDB 2t "
          "| pyarrow / parq (1t, 2t) | fastest other / parq (1t, 2t) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for f in files:
        r = read_row(f)
        ratios_pa = [r[f"pyarrow{t}"] / r[f"parq{t}"] for t in (1, 2)]
        ratios_other = [min(r[f"polars{t}"], r[f"duckdb{t}"]) / r[f"parq{t}"] for t in (1, 2)]
        print(f"| {r['file']} | " + " | ".join(f"{r[k]:.3f}" for k in
              ("parq1", "pyarrow1", "polars1", "duckdb1", "parq2", "pyarrow2", "polars2", "duckdb2")) +
              f" | {ratios_pa[0]:.2f}x, {ratios_pa[1]:.2f}x | {ratios_other[0]:.2f}x, {ratios_other[1]:.2f}x |")
        for t, a, o in zip((1, 2), ratios_pa, ratios_other):
            if a < 1.5:
                problems.append(f"{r['file']} {t}t: pyarrow / parq {a:.2f}x < 1.5x")
            if o < 1.2:
                problems.append(f"{r['file']} {t}t: fastest other / parq {o:.2f}x < 1.2x")
    w = write_row(files[0])
    print()
    print("| file | parq write | pyarrow write | Polars write | pyarrow / parq | size parq / pyarrow / Polars (MB) |")
    print("|---|---|---|---|---|---|")
    print(f"| {w['file']} | {w['parq']:.3f} | {w['pyarrow']:.3f} | {w['polars']:.3f} | {w['pyarrow'] / w['parq']:.2f}x "
          f"| {w['parq_bytes'] / 1e6:.1f} / {w['pyarrow_bytes'] / 1e6:.1f} / {w['polars_bytes'] / 1e6:.1f} |")
    if w["pyarrow"] / w["parq"] < 2:
        problems.append(f"write: pyarrow / parq {w['pyarrow'] / w['parq']:.2f}x < 2x")
    if problems:
        print("\nBars not met:\n" + "\n".join(f"- {p}" for p in problems))


if __name__ == "__main__":
    main()
