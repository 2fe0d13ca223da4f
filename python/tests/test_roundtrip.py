"""Round trips of many types between parq and pyarrow, polars, DuckDB and
pandas: data written by one is read by the other with the same values, and
parq's writes read back through parq too. Nulls sit at every level."""

from __future__ import annotations

import datetime
import decimal
import random

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import parq
from conftest import assert_same_rows

N = 257  # not a multiple of 8: validity bitmaps end mid-byte


def _nulls(values, every=7, offset=0):
    return [None if (i + offset) % every == 0 else v for i, v in enumerate(values)]


def _wide_table(n: int = N, seed: int = 1):
    rnd = random.Random(seed)
    ints = lambda lo, hi: _nulls([rnd.randint(lo, hi) for _ in range(n)], 5, rnd.randint(0, 4))
    cols = {}
    for bits in (8, 16, 32, 64):
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        cols[f"i{bits}"] = pa.array(ints(lo, hi), pa.int64()).cast(getattr(pa, f"int{bits}")())
        cols[f"u{bits}"] = pa.array(ints(0, (1 << bits) - 1), pa.uint64()).cast(getattr(pa, f"uint{bits}")())
    floats = [rnd.uniform(-1e6, 1e6) for _ in range(n)]
    floats[3], floats[4], floats[5] = float("nan"), float("inf"), -0.0
    cols["f32"] = pa.array(_nulls(floats, 11), pa.float32())
    cols["f64"] = pa.array(_nulls(floats, 13), pa.float64())
    cols["bool"] = pa.array(_nulls([rnd.random() < 0.5 for _ in range(n)], 3))
    words = ["", "a", "ümlaut", "日本語", "x" * 100, "tab\there", "quote'\""]
    cols["str"] = pa.array(_nulls([rnd.choice(words) + str(i) for i in range(n)], 6))
    cols["large_str"] = pa.array(_nulls([rnd.choice(words) for _ in range(n)], 4), pa.large_string())
    cols["bin"] = pa.array(_nulls([bytes(rnd.getrandbits(8) for _ in range(i % 9)) for i in range(n)], 5))
    cols["fixed"] = pa.array(_nulls([bytes([i % 256] * 4) for i in range(n)], 9), pa.binary(4))
    cols["dict_str"] = pa.array(_nulls([rnd.choice(words) for _ in range(n)], 8)).dictionary_encode()
    cols["dec9"] = pa.array(
        _nulls([decimal.Decimal(rnd.randint(-10**8, 10**8)).scaleb(-2) for _ in range(n)], 7), pa.decimal128(9, 2)
    )
    cols["dec18"] = pa.array(
        _nulls([decimal.Decimal(rnd.randint(-10**17, 10**17)).scaleb(-4) for _ in range(n)], 7), pa.decimal128(18, 4)
    )
    cols["dec38"] = pa.array(
        _nulls([decimal.Decimal(rnd.randint(-10**37, 10**37)).scaleb(-10) for _ in range(n)], 7),
        pa.decimal128(38, 10),
    )
    cols["dec76"] = pa.array(
        _nulls([decimal.Decimal(rnd.randint(-10**75, 10**75)).scaleb(-20) for _ in range(n)], 7),
        pa.decimal256(76, 20),
    )
    base = datetime.date(1970, 1, 1)
    cols["date"] = pa.array(_nulls([base + datetime.timedelta(days=rnd.randint(-50000, 50000)) for _ in range(n)], 6))
    cols["time_ms"] = pa.array(_nulls([rnd.randint(0, 86399999) for _ in range(n)], 5), pa.int32()).cast(
        pa.time32("ms")
    )
    cols["time_us"] = pa.array(_nulls([rnd.randint(0, 86399999999) for _ in range(n)], 5), pa.int64()).cast(
        pa.time64("us")
    )
    cols["time_ns"] = pa.array(_nulls([rnd.randint(0, 86399999999999) for _ in range(n)], 5), pa.int64()).cast(
        pa.time64("ns")
    )
    stamps = [rnd.randint(-2 * 10**9, 4 * 10**9) for _ in range(n)]
    for unit, scale in (("ms", 10**3), ("us", 10**6), ("ns", 10**9)):
        for tz in (None, "UTC", "Europe/Paris"):
            name = f"ts_{unit}_{(tz or 'naive').replace('/', '_').lower()}"
            cols[name] = pa.array(_nulls([s * scale + 7 for s in stamps], 6), pa.int64()).cast(pa.timestamp(unit, tz))
    cols["list_i64"] = pa.array(
        _nulls([_nulls([rnd.randint(-9, 9) for _ in range(i % 5)], 3) for i in range(n)], 6), pa.list_(pa.int64())
    )
    cols["list_str"] = pa.array(
        _nulls([_nulls([rnd.choice(words) for _ in range(i % 4)], 4) for i in range(n)], 5), pa.list_(pa.string())
    )
    cols["large_list"] = pa.array(
        _nulls([[float(j) for j in range(i % 3)] for i in range(n)], 9), pa.large_list(pa.float64())
    )
    cols["struct"] = pa.array(
        _nulls([{"a": _nulls([i], 4, i)[0], "b": rnd.choice(words)} for i in range(n)], 7),
        pa.struct([("a", pa.int32()), ("b", pa.string())]),
    )
    cols["map"] = pa.array(
        _nulls([[(f"k{j}", _nulls([j], 2, i)[0]) for j in range(i % 4)] for i in range(n)], 6),
        pa.map_(pa.string(), pa.int64()),
    )
    cols["list_struct"] = pa.array(
        _nulls([[{"x": j, "y": [j, None]} for j in range(i % 3)] for i in range(n)], 5),
        pa.list_(pa.struct([("x", pa.int16()), ("y", pa.list_(pa.int32()))])),
    )
    cols["struct_list"] = pa.array(
        _nulls([{"l": _nulls([[1, 2], [], None], 2, i)[i % 3], "s": {"z": i}} for i in range(n)], 4),
        pa.struct([("l", pa.list_(pa.int8())), ("s", pa.struct([("z", pa.int64())]))]),
    )
    cols["all_null"] = pa.array([None] * n, pa.int32())
    return pa.table(cols)


@pytest.fixture(scope="module")
def wide():
    return _wide_table()


def test_pyarrow_writes_parq_reads(tmp_path, wide):
    path = tmp_path / "pa.parquet"
    pq.write_table(wide, path, row_group_size=100)
    got = parq.read_table(path, batch_rows=64)
    assert got.num_rows == wide.num_rows
    assert got.num_batches > 1
    assert_same_rows(got, wide)


@pytest.mark.parametrize("dictionary", [True, False, ["str", "i32"]], ids=["dict", "plain", "some"])
@pytest.mark.parametrize("page_version", ["1.0", "2.0"])
def test_pyarrow_variants_parq_reads(tmp_path, wide, dictionary, page_version):
    path = tmp_path / "pa.parquet"
    pq.write_table(
        wide, path, data_page_version=page_version, compression="zstd", use_dictionary=dictionary,
        data_page_size=2048, write_page_index=True,
    )
    assert_same_rows(parq.read_table(path), wide)


def test_parq_writes_pyarrow_reads(tmp_path, wide):
    path = tmp_path / "parq.parquet"
    assert parq.write_table(wide, path, row_group_rows=100) == wide.num_rows
    back = pq.read_table(path)
    assert pq.ParquetFile(path).metadata.num_row_groups == 3
    assert_same_rows(back, wide)


@pytest.mark.parametrize("codec", ["uncompressed", "snappy", "gzip", "brotli", "zstd", "lz4_raw"])
@pytest.mark.parametrize("page_version", [1, 2])
def test_parq_writes_every_codec_and_page_version(tmp_path, wide, codec, page_version):
    path = tmp_path / "c.parquet"
    parq.write_table(wide, path, codec=codec, page_version=page_version, page_rows=50)
    assert_same_rows(pq.read_table(path), wide)
    assert_same_rows(parq.read_table(path), wide)


def test_parq_round_trip_of_its_own_table(tmp_path, wide):
    first = tmp_path / "a.parquet"
    second = tmp_path / "b.parquet"
    parq.write_table(wide, first)
    t = parq.read_table(first)
    parq.write_table(t, second)
    assert_same_rows(parq.read_table(second), wide)
    # The table stays whole after being written: it exports again.
    assert_same_rows(t, wide)


def test_polars_round_trip(tmp_path):
    pl = pytest.importorskip("polars")
    n = 300
    df = pl.DataFrame(
        {
            "i8": pl.Series([i % 100 - 50 for i in range(n)], dtype=pl.Int8),
            "u32": pl.Series([i * 1000 for i in range(n)], dtype=pl.UInt32),
            "i64": [None if i % 7 == 0 else i * 10**12 for i in range(n)],
            "f": [i / 3 for i in range(n)],
            "s": [None if i % 5 == 0 else f"name {i}" for i in range(n)],
            "b": [i % 2 == 0 for i in range(n)],
            "d": [datetime.date(2000, 1, 1) + datetime.timedelta(days=i) for i in range(n)],
            "ts": [datetime.datetime(2020, 1, 1) + datetime.timedelta(seconds=37 * i) for i in range(n)],
            "l": [[i, i + 1] if i % 3 else None for i in range(n)],
            "st": [{"a": i, "b": str(i)} for i in range(n)],
            "cat": pl.Series([["x", "y", "z"][i % 3] for i in range(n)], dtype=pl.Categorical),
            "dec": pl.Series([decimal.Decimal(i).scaleb(-2) for i in range(n)], dtype=pl.Decimal(10, 2)),
        }
    )
    path = tmp_path / "pl.parquet"
    parq.write_table(df, path)
    back = pl.DataFrame(parq.read_table(path))
    assert back.columns == df.columns
    assert back.rows() == df.rows()
    # polars reads parq's file as it wrote it.
    assert pl.read_parquet(path).rows() == df.rows()
    # parq reads polars' own file.
    df.write_parquet(tmp_path / "own.parquet")
    assert pl.DataFrame(parq.read_table(tmp_path / "own.parquet")).rows() == df.rows()


def test_duckdb_round_trip(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    rel = con.sql(
        """SELECT i::INTEGER AS i, i::BIGINT * 1000000007 AS big, (i % 3 = 0) AS flag,
                  CASE WHEN i % 5 = 0 THEN NULL ELSE 'row ' || i END AS s,
                  (i / 7.0)::DOUBLE AS d, (i * 1.25)::DECIMAL(12, 2) AS dec,
                  DATE '2020-01-01' + i::INTEGER AS day, TIMESTAMP '2021-06-01 12:00:00' + INTERVAL (i) MINUTE AS ts,
                  [i, i + 1] AS lst, {'k': i, 'v': 'x' || i} AS st,
                  MAP {'a': i} AS m
           FROM range(1000) t(i)"""
    )
    path = tmp_path / "duck.parquet"
    # A DuckDB relation speaks __arrow_c_stream__.
    parq.write_table(rel, path, row_group_rows=300)
    expected = pa.table(rel)
    assert_same_rows(parq.read_table(path), expected)
    # DuckDB reads parq's file, and scans a parq Table directly.
    assert con.sql(f"SELECT count(*), sum(i), count(s) FROM '{path}'").fetchall()[0] == (1000, 499500, 800)
    t = parq.read_table(path)
    assert con.sql("SELECT count(*), sum(i), count(s), sum(len(lst)) FROM t").fetchall()[0] == (1000, 499500, 800, 2000)
    # Twice: a Table exports as many times as asked.
    assert con.sql("SELECT max(big) FROM t").fetchall()[0] == (999 * 1000000007,)
    # DuckDB's own file, read by parq.
    con.sql(f"COPY (SELECT * FROM rel) TO '{tmp_path / 'own.parquet'}' (FORMAT parquet)")
    assert_same_rows(parq.read_table(tmp_path / "own.parquet"), expected)


def test_pandas_round_trip(tmp_path):
    pd = pytest.importorskip("pandas")
    n = 200
    df = pd.DataFrame(
        {
            "a": range(n),
            "f": [i * 0.5 if i % 4 else None for i in range(n)],
            "s": [f"s{i}" if i % 3 else None for i in range(n)],
            "t": pd.date_range("2024-01-01", periods=n, freq="h", tz="UTC"),
            "c": pd.Categorical([["lo", "mid", "hi"][i % 3] for i in range(n)]),
        }
    )
    path = tmp_path / "pd.parquet"
    parq.write_table(df, path)
    back = parq.read_table(path).to_pandas()
    assert list(back.columns) == list(df.columns)
    assert back["a"].tolist() == df["a"].tolist()
    assert back["f"].isna().tolist() == df["f"].isna().tolist()
    assert back["f"].dropna().tolist() == df["f"].dropna().tolist()
    assert back["s"].tolist() == [None if v is None else v for v in df["s"].tolist()]
    assert list(back["t"]) == list(df["t"])
    assert back["c"].astype(str).tolist() == df["c"].astype(str).tolist()
    # pandas reads parq's file through pyarrow.
    assert pd.read_parquet(path)["a"].tolist() == list(range(n))


def test_empty_table_round_trip(tmp_path):
    t = pa.table({"a": pa.array([], pa.int64()), "s": pa.array([], pa.string())})
    path = tmp_path / "empty.parquet"
    assert parq.write_table(t, path) == 0
    back = parq.read_table(path)
    assert back.num_rows == 0
    assert back.column_names == ["a", "s"]
    assert pa.table(back).schema.types == [pa.int64(), pa.string()]
    assert pq.read_table(path).num_rows == 0


def test_sliced_input_is_written_from_its_offset(tmp_path, wide):
    """Arrays with a non-zero offset (a pyarrow slice) write their own rows only."""
    part = wide.slice(13, 101)
    path = tmp_path / "slice.parquet"
    parq.write_table(part, path)
    assert_same_rows(parq.read_table(path), part)
