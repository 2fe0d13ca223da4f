"""parq.plan_splits and Split: the cuts of a dataset into runs of row groups that
the distributed engines read, checked against the footers as pyarrow reads them."""

from __future__ import annotations

import pickle

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import parq
from conftest import assert_same_rows


def _write(path, rows, row_group_size, first=0):
    t = pa.table(
        {
            "id": pa.array(range(first, first + rows), pa.int64()),
            "name": pa.array([f"name-{i % 97}" for i in range(first, first + rows)]),
            "point": pa.array([{"x": float(i), "y": None if i % 5 == 0 else i} for i in range(first, first + rows)]),
            "tags": pa.array([[str(i)] * (i % 3) for i in range(first, first + rows)]),
        }
    )
    pq.write_table(t, path, row_group_size=row_group_size)
    return t


def _chunk_sizes(path, leaf_prefixes=None):
    """Compressed bytes per row group (of the leaves under the prefixes), as pyarrow reads the footer."""
    meta = pq.ParquetFile(path).metadata
    out = []
    for g in range(meta.num_row_groups):
        rg = meta.row_group(g)
        total = 0
        for c in range(rg.num_columns):
            col = rg.column(c)
            if leaf_prefixes is None or any(
                col.path_in_schema == p or col.path_in_schema.startswith(p + ".") for p in leaf_prefixes
            ):
                total += col.total_compressed_size
        out.append(total)
    return out


@pytest.fixture
def two_files(tmp_path):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    ta = _write(a, 10_000, 1_000)
    tb = _write(b, 3_500, 1_000, first=10_000)
    return a, b, pa.concat_tables([ta, tb])


def test_one_split_per_row_group_when_the_target_is_small(two_files):
    a, b, _ = two_files
    splits = parq.plan_splits([a, b], target_bytes=1)
    sizes = _chunk_sizes(a) + _chunk_sizes(b)
    assert [(s.path, s.row_group_begin, s.row_group_end) for s in splits] == [
        (str(a), g, g + 1) for g in range(10)
    ] + [(str(b), g, g + 1) for g in range(4)]
    assert [s.bytes for s in splits] == sizes
    assert [s.rows for s in splits] == [1000] * 13 + [500]


def test_one_split_per_file_when_the_target_is_large(two_files):
    a, b, _ = two_files
    splits = parq.plan_splits([a, b])
    assert [(s.path, s.row_groups, s.rows) for s in splits] == [(str(a), range(0, 10), 10_000), (str(b), range(0, 4), 3_500)]
    assert [s.bytes for s in splits] == [sum(_chunk_sizes(a)), sum(_chunk_sizes(b))]


def test_row_groups_gather_up_to_the_target(two_files):
    a, _, _ = two_files
    sizes = _chunk_sizes(a)
    target = sizes[0] + sizes[1] + sizes[2] // 2  # two whole row groups fit, a third does not
    splits = parq.plan_splits(a, target_bytes=target)
    assert len(splits) > 1
    # Consecutive, covering, each within the target (no row group alone passes it).
    assert splits[0].row_group_begin == 0 and splits[-1].row_group_end == len(sizes)
    for s, t in zip(splits, splits[1:]):
        assert s.row_group_end == t.row_group_begin
    for s in splits:
        assert s.bytes == sum(sizes[g] for g in s.row_groups) <= target
    # And each one took as many as fit: the next row group would pass the target.
    for s, t in zip(splits, splits[1:]):
        assert s.bytes + sizes[t.row_group_begin] > target


def test_reading_every_split_reads_every_row(two_files):
    a, b, expected = two_files
    splits = parq.plan_splits([a, b], target_bytes=20_000)
    assert len(splits) > 2
    tables = [pa.table(s.read()) for s in splits]
    assert [t.num_rows for t in tables] == [s.rows for s in splits]
    assert_same_rows(pa.concat_tables(tables), expected)


def test_columns_count_only_their_leaves(two_files):
    a, _, _ = two_files
    for columns, prefixes in [(["id"], ["id"]), (["point"], ["point"]), (["name", "point.y"], ["name", "point.y"])]:
        splits = parq.plan_splits(a, target_bytes=1, columns=columns)
        assert [s.bytes for s in splits] == _chunk_sizes(a, prefixes), columns
    # A projection gathers more row groups into a split than the whole row does.
    target = sum(_chunk_sizes(a)) // 3
    assert len(parq.plan_splits(a, target, columns=["id"])) < len(parq.plan_splits(a, target))


def test_split_read_takes_columns_and_filter(two_files):
    a, _, expected = two_files
    s = parq.plan_splits(a, target_bytes=1)[3]
    got = pa.table(s.read(columns=["id", "point.x"], filter=[("id", ">=", 3500)]))
    assert got.column_names == ["id", "point"]
    assert got.column("id").to_pylist() == list(range(3500, 4000))
    assert got.column("point").to_pylist() == [{"x": float(i)} for i in range(3500, 4000)]
    text = pa.table(s.read(filter="name = 'name-5'"))
    assert_same_rows(text, expected.slice(3000, 1000).filter(pa.compute.equal(expected.slice(3000, 1000)["name"], "name-5")))


def test_splits_pickle(two_files):
    a, b, _ = two_files
    splits = parq.plan_splits([a, b], target_bytes=30_000)
    back = pickle.loads(pickle.dumps(splits))
    assert back == splits
    assert pa.table(back[-1].read()).num_rows == splits[-1].rows


def test_a_directory_reads_its_parquet_files_sorted(tmp_path):
    d = tmp_path / "data"
    (d / "sub").mkdir(parents=True)
    (d / "_temporary").mkdir()
    _write(d / "b.parquet", 10, 10)
    _write(d / "sub" / "c.parquet", 20, 10)
    _write(d / "a.parquet", 30, 10)
    _write(d / "_temporary" / "x.parquet", 5, 10)  # an unfinished job's output
    _write(d / ".hidden.parquet", 5, 10)
    (d / "_SUCCESS").write_bytes(b"")
    (d / "notes.txt").write_text("not parquet")
    splits = parq.plan_splits(d)
    assert [(s.path, s.rows) for s in splits] == [
        (str(d / "a.parquet"), 30),
        (str(d / "b.parquet"), 10),
        (str(d / "sub" / "c.parquet"), 20),
    ]


def test_a_file_without_row_groups_has_no_splits(tmp_path):
    p = tmp_path / "empty.parquet"
    parq.write_table(pa.table({"a": pa.array([], pa.int32())}), p)
    assert parq.read_metadata(p).num_row_groups == 0
    assert parq.plan_splits(p) == []
    _write(tmp_path / "full.parquet", 7, 10)
    assert [s.rows for s in parq.plan_splits([p, tmp_path / "full.parquet"])] == [7]
    # pyarrow writes one empty row group instead: a split of no rows, which reads as such.
    q = tmp_path / "empty-group.parquet"
    pq.write_table(pa.table({"a": pa.array([], pa.int32())}), q)
    (s,) = parq.plan_splits(q)
    assert (s.row_groups, s.rows) == (range(0, 1), 0)
    assert pa.table(s.read()).num_rows == 0


def test_errors(two_files, tmp_path):
    a, _, _ = two_files
    with pytest.raises(parq.InvalidArgumentError, match="not positive"):
        parq.plan_splits(a, target_bytes=0)
    with pytest.raises(parq.InvalidArgumentError, match="no column 'nope'"):
        parq.plan_splits(a, columns=["nope"])
    with pytest.raises(parq.InvalidArgumentError, match="must be an int"):
        parq.plan_splits(a, target_bytes=1.5)
    (tmp_path / "none").mkdir()
    with pytest.raises(parq.InvalidArgumentError, match="no Parquet files"):
        parq.plan_splits(tmp_path / "none")
    with pytest.raises(FileNotFoundError):
        parq.plan_splits(tmp_path / "missing.parquet")
