"""parq.recover, parq.verify, parq.concat, parq.merge, parq.split and the writer's
checkpoint option."""

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


def test_verify_finds_nothing_in_a_sound_file_and_names_a_damaged_page(tmp_path):
    path = tmp_path / "f.parquet"
    parq.write_table(table(5000), path, row_group_rows=1000, codec="uncompressed")
    assert parq.verify(path) == []
    assert parq.verify(path, columns=["id"]) == []
    data = bytearray(path.read_bytes())
    md = pq.ParquetFile(path).metadata
    col = md.row_group(2).column(0)
    at = (col.dictionary_page_offset or col.data_page_offset) + col.total_compressed_size - 5
    data[at] ^= 0xFF
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(bytes(data))
    problems = parq.verify(bad)
    assert problems, "a changed byte in a page must be reported"
    assert any(p["row_group"] == 2 and p["column"] == "id" for p in problems), problems
    assert all(p["text"].startswith(str(bad)) for p in problems)
    with pytest.raises(parq.InvalidArgumentError, match="nope"):
        parq.verify(path, columns=["nope"])


def test_concat_copies_row_groups_in_order(tmp_path):
    a, b, out = tmp_path / "a.parquet", tmp_path / "b.parquet", tmp_path / "out.parquet"
    parq.write_table(table(3000), a, row_group_rows=1000)
    parq.write_table(table(2000).slice(0, 2000), b, row_group_rows=1000)
    result = parq.concat([a, b], out)
    assert result == {"rows": 5000, "row_groups": 5, "without_statistics": []}
    assert pq.read_table(out).equals(pa.concat_tables([table(3000), table(2000)]))
    other = tmp_path / "other.parquet"
    parq.write_table(pa.table({"x": [1, 2]}), other)
    with pytest.raises(parq.ParqError, match="other.parquet"):
        parq.concat([a, other], tmp_path / "no.parquet")
    assert not (tmp_path / "no.parquet").exists()


def test_merge_re_encodes_into_new_row_groups(tmp_path):
    a, b, out = tmp_path / "a.parquet", tmp_path / "b.parquet", tmp_path / "out.parquet"
    pq.write_table(table(3000), a, row_group_size=700)  # another writer: merge, unlike concat, takes it
    parq.write_table(table(2000), b, row_group_rows=1000, key_value_metadata={"from": "b"})
    result = parq.merge([a, b], out, row_group_rows=2500, codec="zstd")
    assert result == {"rows": 5000, "row_groups": 2}
    back = pq.ParquetFile(out)
    assert [back.metadata.row_group(i).num_rows for i in range(2)] == [2500, 2500]
    assert back.metadata.row_group(0).column(0).compression == "ZSTD"
    assert back.read().equals(pa.concat_tables([table(3000), table(2000)]))
    # The first input's key-value metadata, unless the caller gives its own.
    assert back.metadata.metadata == pq.ParquetFile(a).metadata.metadata
    parq.merge([b, a], out, key_value_metadata={"k": "v"})
    assert pq.ParquetFile(out).metadata.metadata[b"k"] == b"v"
    other = tmp_path / "other.parquet"
    parq.write_table(pa.table({"x": [1, 2]}), other)
    with pytest.raises(parq.InvalidArgumentError, match="other.parquet cannot be merged"):
        parq.merge([a, other], tmp_path / "no.parquet")
    assert not (tmp_path / "no.parquet").exists()


def test_split_cuts_by_rows_bytes_and_row_groups(tmp_path):
    src = tmp_path / "src.parquet"
    parq.write_table(table(5000), src, row_group_rows=1000)
    by_rows = parq.split(src, tmp_path / "rows", rows=1500)
    assert [p["rows"] for p in by_rows["pieces"]] == [1500, 1500, 1500, 500]
    assert by_rows["removed"] == 0
    read = [pq.read_table(p["path"]) for p in by_rows["pieces"]]
    assert pa.concat_tables(read).equals(table(5000))
    by_groups = parq.split(src, tmp_path / "rows", row_groups=2)
    assert [(p["rows"], p["row_groups"]) for p in by_groups["pieces"]] == [(2000, 2), (2000, 2), (1000, 1)]
    assert by_groups["removed"] == 1  # part-00003 of the split before
    assert sorted(f.name for f in (tmp_path / "rows").iterdir()) == [f"part-0000{i}.parquet" for i in range(3)]
    md = pq.ParquetFile(src).metadata
    group_bytes = max(sum(md.row_group(g).column(c).total_compressed_size for c in range(2)) for g in range(5))
    by_bytes = parq.split(src, tmp_path / "bytes", bytes=group_bytes * 5 // 2)
    assert [p["rows"] for p in by_bytes["pieces"]] == [2000, 2000, 1000]  # whole row groups while they fit
    for bad in ({}, {"rows": 1, "bytes": 1}, {"rows": 0}, {"row_groups": -1}, {"rows": True}):
        with pytest.raises(parq.InvalidArgumentError, match="split"):
            parq.split(src, tmp_path / "no", **bad)
    assert not (tmp_path / "no").exists()
