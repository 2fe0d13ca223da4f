"""Errors by kind: each failure raises the builtin exception a Python caller
expects (OSError, ValueError, NotImplementedError, MemoryError) as a
ParqError subclass carrying the kind and the location. Bad input never
crashes."""

from __future__ import annotations

import os
import random

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import parq


@pytest.fixture
def small(tmp_path):
    t = pa.table({"a": pa.array(range(1000), pa.int64()), "s": pa.array([f"v{i}" for i in range(1000)])})
    path = tmp_path / "small.parquet"
    pq.write_table(t, path, compression="NONE", use_dictionary=False, write_page_checksum=True)
    return path


def test_class_hierarchy():
    assert issubclass(parq.ParqIOError, OSError)
    assert issubclass(parq.ParqFileNotFoundError, FileNotFoundError)
    assert issubclass(parq.CorruptFileError, ValueError)
    assert issubclass(parq.InvalidArgumentError, ValueError)
    assert issubclass(parq.UnsupportedError, NotImplementedError)
    assert issubclass(parq.LimitError, MemoryError)
    for cls in (parq.ParqIOError, parq.CorruptFileError, parq.InvalidArgumentError, parq.UnsupportedError,
                parq.LimitError):
        assert issubclass(cls, parq.ParqError)


def test_missing_file_is_file_not_found(tmp_path):
    missing = tmp_path / "missing.parquet"
    with pytest.raises(FileNotFoundError) as info:
        parq.read_table(missing)
    e = info.value
    assert isinstance(e, parq.ParqIOError)
    assert e.kind == "io"
    assert e.filename == str(missing)
    assert str(missing) in str(e)


def test_directory_is_os_error(tmp_path):
    with pytest.raises(OSError) as info:
        parq.ParquetFile(tmp_path)
    assert info.value.kind == "io"


def test_truncated_file_is_corrupt(small, tmp_path):
    data = small.read_bytes()
    for cut in (0, 3, 8, len(data) // 2, len(data) - 1):
        p = tmp_path / f"cut{cut}.parquet"
        p.write_bytes(data[:cut])
        with pytest.raises(ValueError) as info:
            parq.read_table(p)
        assert isinstance(info.value, parq.CorruptFileError)
        assert info.value.kind == "corrupt"


def test_not_parquet_is_corrupt():
    with pytest.raises(parq.CorruptFileError):
        parq.ParquetFile(b"this is not a parquet file at all")


def test_corrupt_page_names_its_location(small, tmp_path):
    data = bytearray(small.read_bytes())
    md = pq.ParquetFile(small).metadata
    chunk = md.row_group(0).column(1)
    # A byte in the middle of column s's data page: its CRC no longer matches.
    data[chunk.data_page_offset + chunk.total_compressed_size // 2] ^= 0xFF
    p = tmp_path / "flipped.parquet"
    p.write_bytes(bytes(data))
    with pytest.raises(parq.CorruptFileError) as info:
        parq.read_table(p)
    e = info.value
    assert e.kind == "corrupt"
    assert e.column == "s"
    assert e.row_group == 0
    assert e.page == 0
    assert e.file == str(p)
    assert e.detail and e.detail in str(e)
    # Without checksum verification the page decodes (its values are strings).
    assert parq.read_table(p, verify_crc=False, columns=["a"]).num_rows == 1000


def test_unknown_column_is_value_error(small):
    with pytest.raises(ValueError, match="zz"):
        parq.read_table(small, columns=["zz"])


def test_unknown_column_kind_is_invalid_argument(small):
    with pytest.raises(parq.InvalidArgumentError) as info:
        parq.read_table(small, columns=["zz"])
    assert info.value.kind == "invalid_argument"


def test_bad_arguments_are_value_errors(small):
    f = parq.ParquetFile(small)
    with pytest.raises(parq.InvalidArgumentError):
        f.read(row_groups=[5])
    with pytest.raises(parq.InvalidArgumentError):
        f.read(threads=0)
    with pytest.raises(parq.InvalidArgumentError):
        f.read(batch_rows=0)
    with pytest.raises(parq.InvalidArgumentError):
        f.read(columns="a")
    with pytest.raises(TypeError):
        parq.ParquetFile(12345)


def test_memory_limit_too_small_is_memory_error(small):
    with pytest.raises(MemoryError) as info:
        parq.read_table(small, memory_limit=1)
    assert isinstance(info.value, parq.LimitError)
    assert info.value.kind == "limit"


def test_writer_errors_leave_no_file(tmp_path):
    t = pa.table({"a": [1, 2, 3]})
    target = tmp_path / "out.parquet"
    with pytest.raises(ValueError):
        parq.write_table(t, target, codec="nonsense")
    with pytest.raises(ValueError):
        parq.write_table(t, target, codec="zstd", compression_level=1000)
    with pytest.raises(ValueError):
        parq.write_table(t, target, page_version=3)
    with pytest.raises(ValueError):
        parq.write_table(t, target, encoding={"no_such_column": "plain"})
    with pytest.raises(ValueError):
        parq.write_table(t, target, encoding={"a": "zigzag"})
    with pytest.raises(ValueError):
        parq.write_table(t, target, bloom_fpp=2.0)
    with pytest.raises(TypeError):
        parq.write_table(t, target, no_such_option=1)
    with pytest.raises(TypeError):
        parq.write_table(object(), target)
    assert not target.exists()
    assert os.listdir(tmp_path) == []


def test_writing_into_a_missing_folder_is_os_error(tmp_path):
    with pytest.raises(OSError) as info:
        parq.write_table(pa.table({"a": [1]}), tmp_path / "no" / "such" / "out.parquet")
    assert info.value.kind == "io"


def test_random_damage_never_crashes(small, tmp_path):
    """Bytes flipped anywhere: the read succeeds or raises a ParqError."""
    data = small.read_bytes()
    rnd = random.Random(7)
    p = tmp_path / "damaged.parquet"
    outcomes = {"ok": 0, "error": 0}
    for _ in range(200):
        d = bytearray(data)
        for _ in range(rnd.randint(1, 4)):
            d[rnd.randrange(len(d))] = rnd.randrange(256)
        p.write_bytes(bytes(d))
        try:
            t = parq.read_table(p, verify_crc=rnd.random() < 0.5)
        except parq.ParqError:
            outcomes["error"] += 1
            continue
        arrow = pa.table(t)
        arrow.validate()  # lengths, offsets and buffers are consistent
        try:
            arrow.validate(full=True)
            outcomes["ok"] += 1
        except pa.ArrowInvalid as e:
            # parq hands STRING bytes over as they are stored: damage inside
            # a string (read without checksums) is not UTF-8 any more.
            assert "UTF8" in str(e)
            outcomes["invalid utf-8"] = outcomes.get("invalid utf-8", 0) + 1
    assert sum(outcomes.values()) == 200


def test_reader_that_failed_stays_failed(small, tmp_path):
    data = bytearray(small.read_bytes())
    chunk = pq.ParquetFile(small).metadata.row_group(0).column(0)
    data[chunk.data_page_offset + chunk.total_compressed_size // 2] ^= 0xFF
    p = tmp_path / "flipped.parquet"
    p.write_bytes(bytes(data))
    reader = parq.ParquetFile(p).iter_batches(columns=["a"])
    with pytest.raises(parq.CorruptFileError):
        next(reader)
    with pytest.raises(ValueError, match="failed earlier"):
        next(reader)
    # Through a consumer, the stream reports the error instead of crashing.
    with pytest.raises(OSError, match="CRC"):
        pa.RecordBatchReader.from_stream(parq.ParquetFile(p).iter_batches(columns=["a"])).read_all()
