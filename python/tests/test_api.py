"""The reading API: ParquetFile and its metadata, projections and row groups,
batches, sources other than paths, zero copy into consumers, and streams
and tables that outlive the objects they came from."""

from __future__ import annotations

import gc
import io
import threading

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import parq
from conftest import assert_same_rows


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    n = 10_000
    t = pa.table(
        {
            "id": pa.array(range(n), pa.int64()),
            "x": pa.array([i * 0.25 for i in range(n)], pa.float64()),
            "name": pa.array([f"n{i % 97}" if i % 11 else None for i in range(n)]),
            "s": pa.array([{"a": i, "b": [i, -i]} for i in range(n)]),
        }
    )
    path = tmp_path_factory.mktemp("api") / "sample.parquet"
    pq.write_table(t, path, row_group_size=3000, compression="zstd", metadata_collector=None)
    return path, t


def test_metadata_matches_pyarrow(sample):
    path, t = sample
    md = pq.ParquetFile(path).metadata
    with parq.ParquetFile(path) as f:
        m = f.metadata
        assert m.num_rows == md.num_rows == t.num_rows
        assert m.num_row_groups == md.num_row_groups == 4
        assert m.row_group_sizes == [3000, 3000, 3000, 1000]
        assert m.num_columns == md.num_columns
        assert m.created_by == md.created_by
        assert m.metadata == md.metadata  # the ARROW:schema pair, as bytes
        assert set(m.key_value_metadata) == {k.decode() for k in md.metadata}
        for g in range(md.num_row_groups):
            for c in range(md.num_columns):
                mine, theirs = m.row_group(g).column(c), md.row_group(g).column(c)
                assert mine.path_in_schema == theirs.path_in_schema
                assert mine.compression == theirs.compression
                assert mine.physical_type == theirs.physical_type
                assert set(mine.encodings) == set(theirs.encodings)
                assert mine.total_compressed_size == theirs.total_compressed_size
                assert mine.num_values == theirs.num_values
                assert mine.has_dictionary_page == theirs.has_dictionary_page
                assert mine.statistics.null_count == theirs.statistics.null_count
        assert f.num_rows == t.num_rows and f.num_row_groups == 4


def test_schema_text_and_leaves(sample):
    path, _ = sample
    f = parq.ParquetFile(path)
    s = f.schema
    assert str(s).startswith("message schema {")
    assert s.names == ["id", "x", "name", "s.a", "s.b.list.element"]
    assert s.column(0).physical_type == "INT64"
    assert s.column(2).logical_type == "STRING"
    assert s.column(4).max_repetition_level == 1
    assert parq.read_schema(path).names == s.names


def test_schema_arrow_is_an_arrow_schema(sample):
    path, t = sample
    f = parq.ParquetFile(path)
    arrow = pa.schema(f.schema_arrow)
    assert arrow.names == t.column_names
    assert [str(x) for x in arrow.types[:3]] == ["int64", "double", "string"]
    assert f.schema_arrow.names == t.column_names
    assert "x: double" in repr(f.schema_arrow)


def test_projection_row_groups_and_batches(sample):
    path, t = sample
    f = parq.ParquetFile(path)
    got = f.read(columns=["id", "s.b"], row_groups=[2, 0])
    assert got.column_names == ["id", "s"]
    ids = pa.table(got).column("id").to_pylist()
    assert ids == list(range(6000, 9000)) + list(range(0, 3000))
    assert pa.table(got).column("s").type == pa.struct([("b", pa.list_(pa.field("element", pa.int64())))])
    one = f.read_row_group(3, columns=["x"])
    assert one.num_rows == 1000 and one.column_names == ["x"]
    batches = list(f.iter_batches(batch_size=700, columns=["name"]))
    assert sum(b.num_rows for b in batches) == t.num_rows
    assert all(0 < b.num_rows <= 700 for b in batches)
    assert [b.column_names for b in batches[:1]] == [["name"]]
    table = f.read(batch_rows=1234)
    assert all(b.num_rows <= 1234 for b in table.to_batches())
    assert_same_rows(table, t)


def test_threads_give_the_same_rows(sample):
    path, t = sample
    for threads in (1, 2, 4):
        assert_same_rows(parq.read_table(path, threads=threads), t)
    assert_same_rows(parq.read_table(path, use_threads=False), t)


def test_sources_other_than_paths(sample):
    path, t = sample
    data = path.read_bytes()
    assert_same_rows(parq.read_table(data), t)
    assert_same_rows(parq.read_table(bytearray(data)), t)
    assert_same_rows(parq.read_table(memoryview(data)), t)
    assert_same_rows(parq.read_table(io.BytesIO(data)), t)
    assert_same_rows(parq.read_table(str(path)), t)
    assert parq.ParquetFile(data).num_rows == t.num_rows


def test_no_copy_into_pyarrow(tmp_path):
    """pyarrow's buffers of int64 and double columns are the ones parq decoded into."""
    n = 100_000
    t = pa.table({"i": pa.array(range(n), pa.int64()), "d": pa.array([i / 7 for i in range(n)], pa.float64())})
    for codec in ("NONE", "ZSTD"):
        path = tmp_path / f"{codec}.parquet"
        pq.write_table(t, path, compression=codec, use_dictionary=False, row_group_size=30_000)
        table = parq.read_table(path, batch_rows=20_000)
        batches = table.to_batches()
        for name in ("i", "d"):
            expected = [b._buffer_address(name, 1) for b in batches]
            assert all(expected)
            first = [c.buffers()[1].address for c in pa.table(table).column(name).chunks]
            second = [c.buffers()[1].address for c in pa.table(table).column(name).chunks]
            assert first == expected
            # A second consumer of the same table sees the same memory.
            assert second == expected
            assert [pa.record_batch(b).column(name).buffers()[1].address for b in batches] == expected
        assert_same_rows(table, t)


def test_no_copy_into_polars(tmp_path):
    pl = pytest.importorskip("polars")
    path = tmp_path / "p.parquet"
    pq.write_table(pa.table({"i": pa.array(range(50_000), pa.int64())}), path, use_dictionary=False)
    table = parq.read_table(path)
    (batch,) = table.to_batches()
    # polars has no public buffer accessor; its own Arrow export shows the
    # memory it holds.
    back = pl.DataFrame(table).to_arrow()
    assert back.column("i").chunks[0].buffers()[1].address == batch._buffer_address("i", 1)


def test_stream_outlives_its_file_object(sample):
    path, t = sample
    f = parq.ParquetFile(path)
    reader = f.iter_batches(batch_size=1000)
    del f
    gc.collect()
    assert_same_rows(pa.RecordBatchReader.from_stream(reader).read_all(), t)

    f = parq.ParquetFile(path)
    reader = f.iter_batches(batch_size=1000, columns=["id"])
    f.close()
    assert f.closed
    capsule = reader.__arrow_c_stream__()
    del reader, f
    gc.collect()
    got = pa.RecordBatchReader._import_from_c_capsule(capsule).read_all()
    assert got.column("id").to_pylist() == list(range(t.num_rows))

    reader = parq.iter_batches(path, batch_size=4096)
    gc.collect()
    assert sum(b.num_rows for b in reader) == t.num_rows


def test_exported_data_outlives_the_table(sample):
    path, t = sample
    table = parq.read_table(path)
    arrow = pa.table(table)
    batch = table.to_batches()[0]
    del table
    gc.collect()
    assert_same_rows(arrow, t)
    record = pa.record_batch(batch)
    del batch
    gc.collect()
    assert record.num_rows > 0


def test_reader_is_one_shot(sample):
    path, _ = sample
    reader = parq.ParquetFile(path).iter_batches()
    pa.RecordBatchReader.from_stream(reader).read_all()
    with pytest.raises(ValueError):
        reader.__arrow_c_stream__()
    with pytest.raises(ValueError):
        next(reader)
    # The schema stays available.
    assert pa.schema(reader.schema).names == ["id", "x", "name", "s"]


def test_reader_read_all_and_close(sample):
    path, t = sample
    with parq.ParquetFile(path).iter_batches(batch_size=999) as reader:
        first = reader.read_next_batch()
        rest = reader.read_all()
    assert first.num_rows + rest.num_rows == t.num_rows
    reader = parq.ParquetFile(path).iter_batches()
    reader.close()
    assert list(reader) == []


def test_table_protocols_and_conveniences(sample):
    path, t = sample
    table = parq.read_table(path)
    assert len(table) == table.num_rows == t.num_rows
    assert table.num_columns == 4
    assert table.column_names == t.column_names
    assert "parq.Table: 10000 rows" in repr(table)
    schema_capsule = table.__arrow_c_schema__()
    assert pa.Schema._import_from_c_capsule(schema_capsule).names == t.column_names
    assert table.to_pyarrow().num_rows == t.num_rows
    assert table.to_pandas()["id"].tolist() == list(range(t.num_rows))
    batch = table.to_batches()[0]
    schema, array = batch.__arrow_c_array__()
    imported = pa.RecordBatch._import_from_c_capsule(schema, array)
    assert imported.num_rows == batch.num_rows == len(batch)
    assert batch.to_pyarrow().num_rows == batch.num_rows
    polars = pytest.importorskip("polars")
    assert table.to_polars().shape == (t.num_rows, 4)
    assert isinstance(table.to_polars(), polars.DataFrame)


def test_concurrent_iteration_of_one_reader(sample):
    """Threads pulling from one reader get each batch once (the reader serializes them)."""
    path, t = sample
    reader = parq.ParquetFile(path).iter_batches(batch_size=500, threads=2)
    counts = []

    def pull():
        for b in reader:
            counts.append(b.num_rows)

    threads = [threading.Thread(target=pull) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sum(counts) == t.num_rows


def test_reading_releases_the_gil(tmp_path):
    """Another Python thread runs while a read decodes: it counts only while a
    read is in progress, which it could not if the read held the GIL."""
    path = tmp_path / "big.parquet"
    n = 3_000_000
    pq.write_table(pa.table({"a": pa.array(range(n), pa.int64()), "b": pa.array(range(n), pa.float64())}), path,
                   compression="zstd")
    state = {"reading": False, "ticks": 0}
    done = threading.Event()

    def tick():
        while not done.is_set():
            if state["reading"]:
                state["ticks"] += 1
            done.wait(0.0002)

    th = threading.Thread(target=tick)
    th.start()
    try:
        for _ in range(3):
            state["reading"] = True
            parq.read_table(path, threads=1)
            state["reading"] = False
    finally:
        done.set()
        th.join()
    assert state["ticks"] >= 3, state


def test_duckdb_scans_a_reader(sample):
    duckdb = pytest.importorskip("duckdb")
    path, t = sample
    reader = parq.ParquetFile(path).iter_batches(columns=["id"], batch_size=777)
    n = t.num_rows
    assert duckdb.sql("SELECT count(*), sum(id) FROM reader").fetchall() == [(n, n * (n - 1) // 2)]


def test_closed_file_refuses_reads(sample):
    path, _ = sample
    f = parq.ParquetFile(path)
    f.close()
    with pytest.raises(ValueError):
        f.read()
    assert "closed" in repr(f)
