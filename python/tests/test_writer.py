"""Writing: every option is honoured as pyarrow (or parq's own metadata, for
what pyarrow does not show) sees the file; ParquetWriter streams several
batches and tables; a failed write leaves no file and an existing file
untouched."""

from __future__ import annotations

import os

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import parq
from conftest import assert_same_rows

N = 5000


@pytest.fixture(scope="module")
def table():
    return pa.table(
        {
            "id": pa.array(range(N), pa.int64()),
            "cat": pa.array([f"c{i % 10}" for i in range(N)]),
            "x": pa.array([i * 1.5 for i in range(N)], pa.float64()),
            "text": pa.array([f"some longer text {i * 7919 % 10007}" for i in range(N)]),
        }
    )


def _md(path):
    return pq.ParquetFile(path).metadata


def _column(md, name, group=0):
    rg = md.row_group(group)
    for i in range(rg.num_columns):
        if rg.column(i).path_in_schema == name:
            return rg.column(i)
    raise KeyError(name)


def _page_types(path, name):
    chunk = next(c for c in parq.read_metadata(path).row_group(0).columns if c.path_in_schema == name)
    return {page_type for page_type, _, _ in chunk.page_encoding_stats}


@pytest.mark.parametrize(
    "codec,name",
    [("uncompressed", "UNCOMPRESSED"), ("snappy", "SNAPPY"), ("gzip", "GZIP"), ("brotli", "BROTLI"),
     ("zstd", "ZSTD"), ("zstd:9", "ZSTD"), ("lz4_raw", "LZ4_RAW"), ("lz4", "LZ4"), (None, "UNCOMPRESSED")],
)
def test_codec(tmp_path, table, codec, name):
    path = tmp_path / "c.parquet"
    parq.write_table(table, path, codec=codec, min_saving=0)
    # parq's names are the format's (pyarrow calls LZ4_RAW "LZ4").
    assert {c.compression for c in parq.read_metadata(path).row_group(0).columns} == {name}
    assert_same_rows(pq.read_table(path), table)


def test_compression_level_changes_the_output(tmp_path, table):
    sizes = {}
    for level in (1, 19):
        path = tmp_path / f"z{level}.parquet"
        parq.write_table(table, path, codec="zstd", compression_level=level, min_saving=0)
        sizes[level] = os.path.getsize(path)
    # zstd's levels are not monotonic on small pages; they differ, at least.
    assert sizes[19] != sizes[1]
    same = tmp_path / "same.parquet"
    parq.write_table(table, same, codec="zstd:19", min_saving=0)
    assert os.path.getsize(same) == sizes[19]


def test_per_column_codec(tmp_path, table):
    path = tmp_path / "pc.parquet"
    parq.write_table(table, path, compression={"text": "gzip", "x": "zstd"}, min_saving=0)
    md = _md(path)
    assert _column(md, "text").compression == "GZIP"
    assert _column(md, "x").compression == "ZSTD"
    assert _column(md, "id").compression == "SNAPPY"


def test_row_group_limits(tmp_path, table):
    path = tmp_path / "rg.parquet"
    parq.write_table(table, path, row_group_rows=1200)
    assert [g.num_rows for g in parq.read_metadata(path).row_groups] == [1200, 1200, 1200, 1200, 200]
    assert _md(path).num_row_groups == 5
    alias = tmp_path / "alias.parquet"
    parq.write_table(table, alias, row_group_size=2500)
    assert _md(alias).num_row_groups == 2
    # The byte limit is checked between slices of 64 Ki rows: a larger table.
    big = pa.concat_tables([table] * 40)
    by_bytes = tmp_path / "bytes.parquet"
    parq.write_table(big, by_bytes, row_group_bytes=1_000_000)
    assert _md(by_bytes).num_row_groups > 1  # one without the limit
    assert_same_rows(pq.read_table(by_bytes), big)


@pytest.mark.parametrize("version,expected", [(1, "DATA_PAGE"), (2, "DATA_PAGE_V2"), ("2.0", "DATA_PAGE_V2")])
def test_page_version(tmp_path, table, version, expected):
    path = tmp_path / "pv.parquet"
    if isinstance(version, str):
        parq.write_table(table, path, data_page_version=version)
    else:
        parq.write_table(table, path, page_version=version)
    assert _page_types(path, "id") - {"DICTIONARY_PAGE"} == {expected}
    assert_same_rows(pq.read_table(path), table)


def test_page_limits(tmp_path, table):
    few = tmp_path / "few.parquet"
    many = tmp_path / "many.parquet"
    parq.write_table(table, few, dictionary=False, page_rows=0)
    parq.write_table(table, many, dictionary=False, page_rows=100)
    def pages(path):
        chunk = parq.read_metadata(path).row_group(0).column(0)
        return sum(count for page_type, _, count in chunk.page_encoding_stats if page_type.startswith("DATA"))
    assert pages(many) == N // 100
    assert pages(few) < pages(many)
    small_pages = tmp_path / "small.parquet"
    parq.write_table(table, small_pages, dictionary=False, page_bytes=4096, page_rows=0)
    assert pages(small_pages) > pages(few)


def test_dictionary_switches(tmp_path, table):
    on = tmp_path / "on.parquet"
    off = tmp_path / "off.parquet"
    some = tmp_path / "some.parquet"
    parq.write_table(table, on)
    parq.write_table(table, off, dictionary=False)
    parq.write_table(table, some, use_dictionary=["cat"])
    assert _column(_md(on), "cat").has_dictionary_page
    assert not any(_md(off).row_group(0).column(i).has_dictionary_page for i in range(4))
    assert _column(_md(some), "cat").has_dictionary_page
    assert not _column(_md(some), "id").has_dictionary_page
    assert "RLE_DICTIONARY" in _column(_md(on), "cat").encodings


def test_dictionary_weighed_or_always(tmp_path):
    # Sorted keys, four rows each: from the second page on, the keys compress
    # better as they are than as new dictionary entries plus indices.
    keys = pa.table({"k": pa.array([i // 4 for i in range(40000)], pa.int64())})
    weighed = tmp_path / "weighed.parquet"
    always = tmp_path / "always.parquet"
    parq.write_table(keys, weighed, codec="zstd", page_rows=1000)
    parq.write_table(keys, always, codec="zstd", page_rows=1000, dictionary="always")
    assert weighed.stat().st_size * 2 < always.stat().st_size
    assert_same_rows(pq.read_table(weighed), keys)
    assert_same_rows(pq.read_table(always), keys)
    assert _column(_md(always), "k").has_dictionary_page


def test_dictionary_limit_and_fallback(tmp_path, table):
    path = tmp_path / "fb.parquet"
    parq.write_table(table, path, dictionary_entries=100, fallback={"text": "delta_byte_array"}, page_rows=500)
    enc = set(_column(_md(path), "text").encodings)
    assert {"RLE_DICTIONARY", "DELTA_BYTE_ARRAY"} <= enc
    small = tmp_path / "small_dict.parquet"
    parq.write_table(table, small, dictionary_bytes=64, page_rows=500)
    assert "PLAIN" in set(_column(_md(small), "text").encodings)
    assert_same_rows(pq.read_table(path), table)
    assert_same_rows(pq.read_table(small), table)


@pytest.mark.parametrize(
    "column,encoding,name",
    [("id", "delta_binary_packed", "DELTA_BINARY_PACKED"), ("x", "byte_stream_split", "BYTE_STREAM_SPLIT"),
     ("text", "delta_length_byte_array", "DELTA_LENGTH_BYTE_ARRAY"), ("cat", "plain", "PLAIN")],
)
def test_encoding(tmp_path, table, column, encoding, name):
    path = tmp_path / "enc.parquet"
    parq.write_table(table, path, encoding={column: encoding})
    chunk = _column(_md(path), column)
    assert name in chunk.encodings
    assert not chunk.has_dictionary_page
    assert_same_rows(pq.read_table(path), table)
    alias = tmp_path / "alias.parquet"
    parq.write_table(table, alias, column_encoding={column: encoding})
    assert name in _column(_md(alias), column).encodings


def test_statistics_page_index_and_crc(tmp_path, table):
    plain = tmp_path / "plain.parquet"
    parq.write_table(table, plain, statistics=False, page_index=False, crc=False, codec="uncompressed",
                     dictionary=False)
    md = _md(plain)
    for i in range(md.num_columns):
        c = md.row_group(0).column(i)
        assert not c.is_stats_set
        assert not c.has_offset_index and not c.has_column_index
    full = tmp_path / "full.parquet"
    parq.write_table(table, full, write_statistics=True, write_page_index=True, write_page_checksum=True,
                     codec="uncompressed", dictionary=False)
    c = _column(_md(full), "id")
    assert c.is_stats_set and c.statistics.min == 0 and c.statistics.max == N - 1
    assert c.statistics.null_count == 0
    assert c.has_offset_index and c.has_column_index
    some = tmp_path / "some.parquet"
    parq.write_table(table, some, statistics=["x"])
    assert _column(_md(some), "x").is_stats_set
    assert not _column(_md(some), "id").is_stats_set
    # A page checksum makes a damaged page an error; without one it goes unnoticed.
    for path, checked in ((plain, False), (full, True)):
        data = bytearray(path.read_bytes())
        chunk = _column(_md(path), "x")
        data[chunk.data_page_offset + chunk.total_compressed_size - 5] ^= 0x01
        damaged = tmp_path / "damaged.parquet"
        damaged.write_bytes(bytes(data))
        if checked:
            with pytest.raises(parq.CorruptFileError, match="CRC"):
                parq.read_table(damaged, columns=["x"])
        else:
            parq.read_table(damaged, columns=["x"])


def test_bloom_filter(tmp_path, table):
    path = tmp_path / "bf.parquet"
    parq.write_table(table, path, bloom_filter=["cat", "id"], bloom_fpp=0.001)
    chunks = {c.path_in_schema: c for c in parq.read_metadata(path).row_group(0).columns}
    assert chunks["cat"].has_bloom_filter and chunks["id"].has_bloom_filter
    assert not chunks["x"].has_bloom_filter
    loose = tmp_path / "loose.parquet"
    parq.write_table(table, loose, bloom_filter="id", bloom_fpp=0.2)
    loose_id = parq.read_metadata(loose).row_group(0).column(0)
    assert loose_id.bloom_filter_length < chunks["id"].bloom_filter_length
    # A filter on a value the bloom filter rules out still reads correctly.
    assert parq.read_table(path, filter=[("cat", "=", "absent")]).num_rows == 0


def test_key_value_metadata_and_created_by(tmp_path, table):
    path = tmp_path / "kv.parquet"
    parq.write_table(table, path, key_value_metadata={"origin": "test", b"raw": b"\xff\x00", "none": None},
                     created_by="parq tests")
    md = _md(path)
    assert md.created_by == "parq tests"
    assert md.metadata[b"origin"] == b"test"
    assert md.metadata[b"raw"] == b"\xff\x00"
    mine = parq.read_metadata(path)
    assert mine.key_value_metadata["origin"] == "test"
    assert mine.metadata[b"none"] is None
    default = tmp_path / "default.parquet"
    parq.write_table(table, default)
    assert _md(default).created_by.startswith("parq version")


def test_threads_and_min_saving_keep_the_rows(tmp_path, table):
    a = tmp_path / "a.parquet"
    b = tmp_path / "b.parquet"
    parq.write_table(table, a, threads=1)
    parq.write_table(table, b, threads=4, min_saving=0.5)
    assert_same_rows(pq.read_table(a), table)
    assert_same_rows(pq.read_table(b), table)


def test_streaming_writer(tmp_path, table):
    path = tmp_path / "stream.parquet"
    batches = table.to_batches(max_chunksize=700)
    with parq.ParquetWriter(path, table.schema, row_group_rows=2000, codec="zstd") as w:
        for b in batches[:3]:
            w.write_batch(b)
        w.write_table(table.slice(2100, 1000))
        w.write(pa.RecordBatchReader.from_batches(table.schema, iter([table.slice(3100).combine_chunks().to_batches()[0]])))
        assert w.num_rows == N
        assert not w.closed
        assert "message schema" in w.schema
    assert w.closed
    assert_same_rows(pq.read_table(path), table)
    assert [g.num_rows for g in parq.read_metadata(path).row_groups] == [2000, 2000, 1000]


def test_streaming_writer_of_parq_batches(tmp_path, table):
    src = tmp_path / "src.parquet"
    parq.write_table(table, src)
    out = tmp_path / "out.parquet"
    f = parq.ParquetFile(src)
    with parq.ParquetWriter(out, f.schema_arrow) as w:
        for batch in f.iter_batches(batch_size=999):
            w.write(batch)
    assert_same_rows(parq.read_table(out), table)


def test_generator_backed_stream(tmp_path, table):
    """A producer that calls back into Python for each batch (the GIL is taken back as it needs)."""
    def gen():
        for b in table.to_batches(max_chunksize=333):
            yield b
    reader = pa.RecordBatchReader.from_batches(table.schema, gen())
    path = tmp_path / "gen.parquet"
    assert parq.write_table(reader, path) == N
    assert_same_rows(pq.read_table(path), table)


def test_schema_mismatch_leaves_no_file(tmp_path, table):
    path = tmp_path / "bad.parquet"
    w = parq.ParquetWriter(path, table.schema)
    w.write(table.slice(0, 10))
    with pytest.raises(ValueError, match="schema"):
        w.write(pa.table({"other": [1, 2]}))
    assert w.closed
    with pytest.raises(ValueError):
        w.write(table)
    with pytest.raises(ValueError):
        w.close()
    assert not path.exists()
    assert os.listdir(tmp_path) == []


def test_exception_in_with_block_leaves_no_file(tmp_path, table):
    path = tmp_path / "aborted.parquet"
    with pytest.raises(RuntimeError):
        with parq.ParquetWriter(path, table.schema) as w:
            w.write(table)
            raise RuntimeError("stop")
    assert not path.exists()
    assert os.listdir(tmp_path) == []


def test_failed_write_keeps_an_existing_file(tmp_path, table):
    path = tmp_path / "keep.parquet"
    parq.write_table(table, path)
    before = path.read_bytes()
    bad = pa.table({"d": pa.array([1, 2], pa.duration("s"))})  # no Parquet type for durations
    with pytest.raises(parq.ParqError):
        parq.write_table(bad, path)
    assert path.read_bytes() == before
    # A stream that fails midway leaves the old file too.
    def gen():
        yield table.to_batches()[0]
        raise RuntimeError("producer failed")
    reader = pa.RecordBatchReader.from_batches(table.schema, gen())
    with pytest.raises(Exception):
        parq.write_table(reader, path)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["keep.parquet"]


def test_unclosed_writer_leaves_no_file(tmp_path, table):
    import gc

    path = tmp_path / "unclosed.parquet"
    w = parq.ParquetWriter(path, table.schema)
    w.write(table)
    del w
    gc.collect()
    assert not path.exists()
    assert os.listdir(tmp_path) == []


def test_writer_options_reject_duplicates_and_bad_types(table):
    with pytest.raises(ValueError):
        parq.writer_options({"codec": "zstd", "compression": "gzip"})
    with pytest.raises(ValueError):
        parq.writer_options({"row_group_rows": "many"})
    with pytest.raises(ValueError):
        parq.writer_options({"encoding": "plain"})
    assert parq.writer_options({"compression": "none", "use_dictionary": False}) == {
        "codec": "none", "dictionary": False
    }
