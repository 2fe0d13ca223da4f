"""Datasets from Python: partitioned folders written by parq read back by parq, pyarrow
and polars as the rows written; folders written by pyarrow read by parq; summary files
that pyarrow plans from; partition pruning, schema drift and their errors."""

from __future__ import annotations

import os

import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest

import parq


def rows_of(table, columns):
    t = pa.table(table).select(columns)
    return sorted(t.to_pylist(), key=lambda r: r["id"])


def sample(n=500):
    return pa.table(
        {
            "id": pa.array(range(n), pa.int64()),
            "region": pa.array([["EU", "US/East", None, "a b%"][i % 4] for i in range(n)], pa.string()),
            "year": pa.array([2020 + i % 3 for i in range(n)], pa.int64()),
            "score": pa.array([None if i % 7 == 0 else i / 3 for i in range(n)], pa.float64()),
            "tags": pa.array([[f"t{i % 5}"] * (i % 3) for i in range(n)], pa.list_(pa.string())),
        }
    )


def test_partitioned_write_reads_back_in_parq_pyarrow_and_polars(tmp_path):
    data = sample()
    out = tmp_path / "ds"
    files = parq.write_dataset(data, out, partition_by=["year", "region"], max_rows_per_file=20)
    assert len(files) > 12  # 3 years x 4 regions, split at 20 rows
    assert all(os.path.exists(f) for f in files)
    assert (out / "year=2021" / "region=US%2FEast").is_dir()
    cols = ["id", "region", "year", "score", "tags"]
    expected = rows_of(data, cols)

    assert rows_of(parq.read_table(out), cols) == expected

    hive = pads.partitioning(flavor="hive")
    theirs = pads.dataset(str(out), format="parquet", partitioning=hive).to_table()
    got = sorted(
        ({**r, "year": int(r["year"])} for r in theirs.select(cols).to_pylist()),
        key=lambda r: r["id"],
    )
    # pyarrow reads __HIVE_DEFAULT_PARTITION__ as that text, not null.
    for r in got:
        if r["region"] == "__HIVE_DEFAULT_PARTITION__":
            r["region"] = None
    assert got == expected

    pl = pytest.importorskip("polars")
    frame = pl.scan_parquet(str(out / "**" / "*.parquet"), hive_partitioning=True).collect()
    assert frame.height == data.num_rows
    assert sorted(frame["id"].to_list()) == list(range(data.num_rows))


def test_folders_written_by_pyarrow_read_with_filters(tmp_path):
    data = sample(300)
    out = tmp_path / "pa"
    pads.write_dataset(
        data.drop_columns(["tags"]).filter(pa.compute.is_valid(data["region"])),
        str(out),
        format="parquet",
        partitioning=pads.partitioning(pa.schema([("year", pa.int64())]), flavor="hive"),
    )
    ds = parq.dataset(out)
    assert ds.partition_columns == ["year"]
    table = pa.table(ds.to_table())
    assert table.schema.field("year").type == pa.int64()
    assert table.num_rows == sum(1 for i in range(300) if i % 4 != 2)
    picked = pa.table(ds.to_table(columns=["id", "year"], filter="year = 2021 AND id < 50"))
    assert sorted(picked["id"].to_pylist()) == [i for i in range(50) if i % 3 == 1 and i % 4 != 2]
    assert ds.count_rows([("year", "=", 2022)]) == sum(1 for i in range(300) if i % 3 == 2 and i % 4 != 2)
    assert ds.count_rows() == table.num_rows
    # A filter given when opening leaves out the other years' files.
    narrow = parq.dataset(out, filter=[("year", "=", 2021)])
    assert 0 < len(narrow.files) < len(ds.files)
    assert all("year=2021" in f for f in narrow.files)


def test_summary_files_plan_reads_and_pyarrow_reads_them(tmp_path):
    data = sample(400)
    out = tmp_path / "sum"
    parq.write_dataset(data.drop_columns(["tags"]), out, partition_by=["year"], max_rows_per_file=50, summary=True)
    meta = pq.read_metadata(out / "_metadata")
    assert meta.num_rows == 400
    assert all(meta.row_group(i).column(0).file_path for i in range(meta.num_row_groups))
    theirs = pads.parquet_dataset(str(out / "_metadata"), partitioning=pads.partitioning(flavor="hive"))
    assert theirs.to_table().num_rows == 400
    ours = parq.dataset(out / "_metadata")
    assert ours.num_rows == 400
    assert len(ours.files) == meta.num_row_groups
    got = pa.table(ours.to_table(columns=["id", "year"], filter="id BETWEEN 10 AND 12"))
    assert sorted(got["id"].to_pylist()) == [10, 11, 12]


def test_schema_drift_unites_by_name_and_conflicts_are_errors(tmp_path):
    pq.write_table(pa.table({"id": pa.array([1, 2], pa.int32()), "a": ["x", "y"]}), tmp_path / "f1.parquet")
    pq.write_table(pa.table({"b": [1.5], "id": pa.array([3], pa.int64())}), tmp_path / "f2.parquet")
    t = pa.table(parq.read_table(tmp_path))
    assert t.column_names == ["id", "a", "b"]
    assert t.schema.field("id").type == pa.int64()
    assert t.to_pylist() == [
        {"id": 1, "a": "x", "b": None},
        {"id": 2, "a": "y", "b": None},
        {"id": 3, "a": None, "b": 1.5},
    ]
    files = parq.read_table([tmp_path / "f2.parquet", tmp_path / "f1.parquet"], columns=["id"])
    assert pa.table(files)["id"].to_pylist() == [3, 1, 2]
    pq.write_table(pa.table({"id": ["text"]}), tmp_path / "f3.parquet")
    with pytest.raises(parq.InvalidArgumentError, match="cannot be one column"):
        parq.dataset(tmp_path)
    with pytest.raises(parq.InvalidArgumentError):
        parq.read_table([tmp_path / "f1.parquet"], row_groups=[0])
    with pytest.raises(parq.ParqError):
        parq.dataset(tmp_path / "nothing-*.parquet")


def test_file_name_and_row_index_columns(tmp_path):
    for k in range(3):
        pq.write_table(pa.table({"v": [k * 10 + i for i in range(4)]}), tmp_path / f"p{k}.parquet")
    t = pa.table(parq.dataset(tmp_path).to_table(file_name_column="file", row_index_column="row", threads=2))
    assert t["v"].to_pylist() == [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23]
    assert t["row"].to_pylist() == [0, 1, 2, 3] * 3
    assert [os.path.basename(f) for f in t["file"].to_pylist()] == ["p0.parquet"] * 4 + ["p1.parquet"] * 4 + [
        "p2.parquet"
    ] * 4
