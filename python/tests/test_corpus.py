"""Every file of the shared corpus (parquet-testing), read by parq and by
pyarrow: the same rows. A file pyarrow cannot read is skipped (and counted in
pytest's skips); a file the corpus names corrupt or malformed must either
read as pyarrow reads it or fail with a ValueError, never crash."""

from __future__ import annotations

import gc

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import parq
from conftest import CORPUS, assert_same_rows


def _files(pattern: str):
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob(pattern) if p.is_file())


def _damaged(name: str) -> bool:
    return "corrupt" in name or "malformed" in name


@pytest.mark.parametrize("path", _files("*.parquet"), ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_file_reads_as_pyarrow_reads_it(path):
    try:
        expected = pq.read_table(path)
    except Exception as e:  # pyarrow's own limits, not parq's
        pytest.skip(f"pyarrow cannot read it: {type(e).__name__}: {str(e)[:100]}")
    try:
        got = parq.read_table(path, threads=2)
    except ValueError as e:
        if _damaged(path.name):
            assert isinstance(e, parq.ParqError)
            # pyarrow does not verify page checksums; parq does unless told not to.
            if "CRC" in str(e):
                assert_same_rows(parq.read_table(path, verify_crc=False), expected)
            return
        raise
    assert got.num_rows == expected.num_rows
    assert_same_rows(got, expected)


@pytest.mark.parametrize("path", _files("*.parquet"), ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_file_batches_and_metadata(path):
    """Reading batch by batch gives the rows of the footer; metadata agrees with pyarrow's."""
    try:
        md = pq.ParquetFile(path).metadata
    except Exception as e:
        pytest.skip(f"pyarrow cannot read its footer: {type(e).__name__}")
    f = parq.ParquetFile(path)
    assert f.num_rows == md.num_rows
    assert f.num_row_groups == md.num_row_groups
    assert f.metadata.row_group_sizes == [md.row_group(i).num_rows for i in range(md.num_row_groups)]
    assert f.metadata.num_columns == md.num_columns
    assert (f.metadata.created_by or "") == (md.created_by or "")
    reader = f.iter_batches(batch_size=1000, threads=1, verify_crc=False)
    del f
    gc.collect()
    rows = 0
    try:
        for batch in reader:
            assert batch.num_rows <= 1000
            rows += batch.num_rows
    except ValueError:
        assert _damaged(path.name), "only a damaged file may fail"
        return
    # The row groups' counts: a few writers leave the footer's total at 0.
    assert rows == sum(md.row_group(i).num_rows for i in range(md.num_row_groups))


@pytest.mark.parametrize("path", _files("*.parquet.encrypted"), ids=lambda p: str(p.relative_to(CORPUS)))
def test_encrypted_file_without_keys_is_not_implemented(path):
    with pytest.raises(NotImplementedError) as info:
        parq.read_table(path)
    assert isinstance(info.value, parq.UnsupportedError)
    assert info.value.kind == "unsupported"
