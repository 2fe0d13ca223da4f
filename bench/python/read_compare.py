"""Side-by-side reads and writes from Python: parq against pyarrow, Polars
and DuckDB on the same files, medians of repeated runs, ratios printed as a
Markdown table (the README's).

    .venv/bin/python bench/python/read_compare.py [FILE...]

Files default to the lineitem files of bench/compare/data (made by
bench/compare/generate.mjs). Reads produce each library's table: a pyarrow
Table for parq (its export and pyarrow's import included in its time),
pyarrow and DuckDB, a Polars DataFrame for Polars; at 1 and 2 threads:
pyarrow by set_cpu_count, DuckDB by its threads setting, both in this
process; Polars fixes its pool when imported, so its reads run in a
child process (POLARS_MAX_THREADS) each round. Reads take rounds of 3 runs
of every library in turn, after a warm-up run each (PARQ_BENCH_ROUNDS, 3). Writes: the first file's
rows, loaded once, written with SNAPPY by each library, median of
PARQ_BENCH_REPEAT runs (5).
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
ROUNDS = int(os.environ.get("PARQ_BENCH_ROUNDS", "3"))
ROOT = Path(__file__).resolve().parents[2]


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
import json, sys, time
import polars as pl
path, repeat = sys.argv[1], int(sys.argv[2])
times = []
for _ in range(repeat):
    start = time.perf_counter()
    df = pl.read_parquet(path)
    times.append(time.perf_counter() - start)
print(json.dumps({"seconds": times, "rows": df.height}))
"""


def polars_read(path: str, threads: int, runs: int) -> tuple[list[float], int]:
    env = dict(os.environ, POLARS_MAX_THREADS=str(threads))
    out = subprocess.run(
        [sys.executable, "-c", POLARS_CHILD, path, str(runs)], env=env, check=True, capture_output=True, text=True
    )
    r = json.loads(out.stdout)
    return r["seconds"], r["rows"]


def timed(fn, runs: int, before=lambda: None) -> list[float]:
    """`runs` run times of fn, `before` run untimed ahead of each."""
    times = []
    for _ in range(runs):
        before()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def run_times(fn, runs: int) -> list[float]:
    """`runs` timed runs after one warm-up, as every job of a round has."""
    fn()
    return timed(fn, runs)


def settle(path: str) -> None:
    """Drops the file from the page cache and reads it through once, so that
    every library meets it as a first read from storage leaves it (as
    bench/compare/generate.mjs's settle does, and for the same reason: a
    file just written is cached in small folios, which cost every reader
    that maps it more page-table work than a file read in)."""
    with open(path, "rb") as f:
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
        while f.read(8 << 20):
            pass


def read_row(path: str) -> dict:
    """Every library and thread count in each of ROUNDS rounds of 3 runs,
    the order turning each round, each one's runs pooled: the machine's
    drift over minutes lands on every side of every ratio alike."""
    settle(path)
    rows = pq.ParquetFile(path).metadata.num_rows
    for threads in (1, 2):
        got = parq_read(path, threads).num_rows
        if got != rows:
            raise SystemExit(f"{path}: parq read {got} rows, the footer says {rows}")
    cons = {t: duckdb.connect(config={"threads": t}) for t in (1, 2)}

    def polars_job(threads: int):
        def run() -> list[float]:
            seconds, polars_rows = polars_read(path, threads, 4)
            if polars_rows != rows:
                raise SystemExit(f"{path}: Polars read {polars_rows} rows, the footer says {rows}")
            return seconds[1:]  # the child's first read is its warm-up
        return run

    # (parq's Table is dropped after each run: one held through the timed
    # runs would make each of them take fresh memory.)
    jobs = []
    for t in (1, 2):
        jobs.append((f"parq{t}", lambda t=t: run_times(lambda: parq_read(path, t), 3)))
        jobs.append((f"pyarrow{t}", lambda t=t: run_times(lambda: pyarrow_read(path, t), 3)))
        jobs.append((f"duckdb{t}", lambda t=t: run_times(lambda: duckdb_read(cons[t], path), 3)))
        jobs.append((f"polars{t}", polars_job(t)))
    samples: dict[str, list[float]] = {}
    for round_ in range(ROUNDS):
        for k in range(len(jobs)):
            name, run = jobs[(k + round_) % len(jobs)]
            samples.setdefault(name, []).extend(run())
        print(f"{Path(path).stem} round {round_ + 1} done", file=sys.stderr)
    for con in cons.values():
        con.close()
    r: dict = {"file": Path(path).stem, "rows": rows}
    r.update({name: statistics.median(xs) for name, xs in samples.items()})
    return r


def write_times(fn, out: str) -> float:
    """Median of REPEAT writes of `out`; the run before's file is deleted
    first, untimed, as parq bench write does: replacing it frees its blocks,
    the file system's work on the old file."""
    return statistics.median(timed(fn, REPEAT, before=lambda: os.path.exists(out) and os.remove(out)))


def write_row(path: str) -> dict:
    import polars as pl

    table = pq.read_table(path)
    frame = pl.from_arrow(table)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.parquet")
        r = {"file": Path(path).stem}
        r["parq"] = write_times(lambda: parq.write_table(table, out, codec="snappy"), out)
        r["parq_bytes"] = os.path.getsize(out)
        r["pyarrow"] = write_times(lambda: pq.write_table(table, out, compression="snappy"), out)
        r["pyarrow_bytes"] = os.path.getsize(out)
        r["polars"] = write_times(lambda: frame.write_parquet(out, compression="snappy"), out)
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
