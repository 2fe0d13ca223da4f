"""A writer killed (SIGKILL) at random moments, with and without checkpoints:
`parq recover` gives back every row group whose pages were all written (with
checkpoints, also without scanning: every checkpointed one), DuckDB reads
every recovered file, and its rows are the first rows of the input, exactly.

The writer is deterministic, so the layout of the whole file (written once)
says which row groups a file cut at any byte holds whole.
PARQ_CRASH_KILLS sets the number of kills per mode (100: 200 moments in all)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from crypto_interop import tool  # noqa: E402  (the built parq tool)

KILLS = int(os.environ.get("PARQ_CRASH_KILLS", "100"))
# Uncompressed, so that the row groups pass the writer's output buffer and
# reach the file before the end (as they do in any file of some size).
WRITE = ["--row-group-rows", "50000", "--page-rows", "10000", "--codec", "uncompressed", "--dictionary", "off"]


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    rng = random.Random(11)
    n = 600_000
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    table = pa.table(
        {
            "id": pa.array(range(n), pa.int64()),
            "name": pa.array([None if i % 13 == 0 else words[i % 8] + str(i % 1000) for i in range(n)]),
            "value": pa.array([rng.random() if i % 7 else None for i in range(n)], pa.float64()),
            "tags": pa.array([[i % 5] * (i % 3) if i % 11 else None for i in range(n)], pa.list_(pa.int32())),
        }
    )
    path = tmp_path_factory.mktemp("crash") / "source.parquet"
    pq.write_table(table, path)
    return path


def group_ends(path: Path) -> list[tuple[int, int]]:
    """(end of the row group's last chunk, rows so far) per row group."""
    md = pq.ParquetFile(path).metadata
    out, rows = [], 0
    for g in range(md.num_row_groups):
        rg = md.row_group(g)
        end = 0
        for c in range(rg.num_columns):
            col = rg.column(c)
            start = col.dictionary_page_offset if col.has_dictionary_page else col.data_page_offset
            end = max(end, start + col.total_compressed_size)
        rows += rg.num_rows
        out.append((end, rows))
    return out


def fingerprint(sql_from: str) -> tuple:
    return tuple(duckdb.sql(f"SELECT count(*), sum(hash(id, name, value, tags)) FROM {sql_from}").fetchall()[0])


@pytest.mark.parametrize("checkpoint", [True, False], ids=["checkpoints", "page-scan"])
def test_killed_writer_recovers(source, tmp_path, checkpoint):
    extra = ["--checkpoint", "1"] if checkpoint else []
    whole = tmp_path / "whole.parquet"
    durations = []
    for _ in range(3):
        started = time.monotonic()
        subprocess.run([str(tool()), "rewrite", str(source), str(whole), *WRITE, *extra], check=True)
        durations.append(time.monotonic() - started)
    duration = sorted(durations)[1]
    ends = group_ends(whole)
    assert len(ends) == 12
    rng = random.Random(5 if checkpoint else 6)
    first_rows = {}  # fingerprints of the source's first rows, by count
    recovered_any = finished = 0
    for kill in range(KILLS):
        out = tmp_path / f"out{kill}.parquet"
        proc = subprocess.Popen([str(tool()), "rewrite", str(source), str(out), *WRITE, *extra])
        time.sleep(rng.uniform(0, duration))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        # Without checkpoints the partial file is the writer's temporary one.
        partial = [out] if checkpoint else sorted(tmp_path.glob(f".out{kill}.parquet.parq-*"))
        if out.exists() and not checkpoint:
            finished += 1
            out.unlink()
            continue
        if not partial or not partial[0].exists():
            continue  # killed before the output was created
        broken = partial[0]
        size = broken.stat().st_size
        rec = tmp_path / "recovered.parquet"
        # The schema scans a file cut before its first checkpoint (or written
        # without any); past a checkpoint, the checkpoint's is used.
        args = [str(tool()), "recover", str(broken), str(rec), "--schema", str(whole)]
        run = subprocess.run(args, capture_output=True, text=True)
        if size < 4:
            assert run.returncode != 0
            broken.unlink()
            continue
        assert run.returncode == 0, run.stderr
        expected_rows = max([rows for end, rows in ends if end <= size], default=0)
        if "is whole" in run.stdout:
            finished += 1
            expected_rows = ends[-1][1]
        count, digest = fingerprint(f"'{rec}'")
        assert count == expected_rows, (kill, size, run.stdout)
        if count:
            if count not in first_rows:
                first_rows[count] = fingerprint(f"(SELECT * FROM '{source}' LIMIT {count})")
            assert (count, digest) == first_rows[count]
            recovered_any += 1
        if checkpoint and "is whole" not in run.stdout:
            # Without scanning, the checkpoints alone give back every row
            # group but at most the one whose checkpoint was being written.
            whole_rows = [rows for end, rows in ends if end <= size]
            at_least = whole_rows[-2] if len(whole_rows) >= 2 else 0
            no_scan = subprocess.run(
                [str(tool()), "recover", str(broken), str(rec), "--no-scan"], capture_output=True, text=True
            )
            if at_least:
                assert no_scan.returncode == 0, no_scan.stderr
            if no_scan.returncode == 0:
                assert at_least <= fingerprint(f"'{rec}'")[0] <= expected_rows
        broken.unlink()
        rec.unlink(missing_ok=True)
    assert recovered_any > KILLS // 4, (recovered_any, finished)
