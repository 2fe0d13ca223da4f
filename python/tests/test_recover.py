"""parq.recover and the writer's checkpoint option from Python."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import parq


def table(n: int) -> pa.Table:
    return pa.table({"id": pa.array(range(n), pa.int64()), "name": [f"n{i % 97}" for i in range(n)]})


def test_a_checkpointed_write_cut_short_is_recovered(tmp_path):
    path = tmp_path / "ck.parquet"
    parq.write_table(table(10_000), path, row_group_rows=1000, checkpoint=2)
    whole = path.read_bytes()
    assert pq.read_table(path).num_rows == 10_000  # an ordinary file once finished
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(whole[: len(whole) * 3 // 5])
    report = parq.recover(cut, tmp_path / "out.parquet")
    assert report["found_checkpoint"] and not report["whole"]
    assert report["rows"] == report["checkpoint_row_groups"] * 1000 + report["scanned_row_groups"] * 1000
    assert 4000 <= report["rows"] < 10_000
    assert report["bytes_kept"] + report["bytes_lost"] == len(whole) * 3 // 5
    back = pq.read_table(tmp_path / "out.parquet")
    assert back.equals(table(10_000).slice(0, report["rows"]))
    no_scan = parq.recover(cut, tmp_path / "out2.parquet", scan=False)
    assert no_scan["scanned_row_groups"] == 0
    assert no_scan["rows"] == report["checkpoint_row_groups"] * 1000


def test_a_file_without_checkpoints_needs_a_schema(tmp_path):
    path = tmp_path / "f.parquet"
    parq.write_table(table(10_000), path, row_group_rows=1000)
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(path.read_bytes()[:30_000])
    with pytest.raises(parq.CorruptFileError, match="no checkpoint"):
        parq.recover(cut, tmp_path / "out.parquet")
    report = parq.recover(cut, tmp_path / "out.parquet", schema=path)
    assert report["scanned_row_groups"] > 0 and not report["found_checkpoint"]
    assert pq.read_table(tmp_path / "out.parquet").num_rows == report["rows"]
    assert "scan_stopped" in report and report["scan_stopped"]


@pytest.mark.parametrize("bad", ["0", "3x", "1.5h", True, 2.5])
def test_checkpoint_refuses_what_it_cannot_mean(tmp_path, bad):
    with pytest.raises(parq.InvalidArgumentError, match="checkpoint takes"):
        parq.write_table(table(10), tmp_path / "f.parquet", checkpoint=bad)
