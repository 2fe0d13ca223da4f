"""Spark interop both ways, parquet-java being the reference implementation:
files Spark writes (every Spark type, nulls, nesting; standard and legacy
layouts; INT96, micros and millis timestamps) read by parq, and files parq
writes (v1 and v2 pages, several codecs) read by Spark, compared row by row in
one canonical Python form.

Canonical form (``_canon``): structs as dicts, maps as lists of (key, value)
pairs sorted by key (PySpark moves maps between Python and the JVM through
java.util.HashMap, which does not keep their order), binaries as bytes, NaN as a marker, TIMESTAMP as the UTC
instant and TIMESTAMP_NTZ as the wall-clock time. PySpark's ``collect``
renders a TIMESTAMP as a naive datetime in the Python process's local zone; it
is converted back to UTC. The session's zone is America/Los_Angeles (see the
``spark`` fixture), so values written through Spark cross a zone that is not
UTC.

Findings, asserted below rather than hidden:
- INT96 (Spark's default timestamp output) is read by parq as Arrow's
  zone-less ``timestamp[ns]`` of the UTC time, as pyarrow reads it; Spark reads
  the same column as TIMESTAMP, an instant. The values agree once the
  zone-less value is taken as UTC, which parq.spark does (INT96 columns map to
  TIMESTAMP) -- but only within 1677-09-21..2262-04-11: outside, nanoseconds
  since the epoch overflow int64 and wrap around (parq/arrow/c_export.h says
  so; pyarrow gives the same wrapped values), while Spark reads the true
  instant. Spark writes INT96 for any timestamp by default, so a Spark table
  with such instants (0001-01-01 sentinels, 9999-12-31 "open end" markers)
  reads wrong through parq's Arrow export, parq.spark included.
- Dates and timestamps before 1582-10-15 written by Spark with
  ``datetimeRebaseModeInWrite=LEGACY`` are stored shifted into the Julian
  calendar and tagged ``org.apache.spark.legacyDateTime``; Spark shifts them back
  on reading, parq (like pyarrow and the Parquet spec) reads the stored
  proleptic Gregorian value, so such dates differ by the calendars' gap.
- Spark cannot read what Arrow calls ``timestamp[ns]`` written as
  TIMESTAMP(NANOS): not a parq issue, so the parq-written files use micros
  and millis only.
"""

from __future__ import annotations

import datetime
import decimal
import math
import random
import struct
from typing import Any, Dict, List

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

# Plain imports: a missing engine fails the module, never skips it.
from pyspark.sql import types as T

import parq

pytestmark = pytest.mark.spark

ROWS = 300
UTC = datetime.timezone.utc

SPARK_DDL = """
id INT, b BOOLEAN, i8 TINYINT, i16 SMALLINT, i32 INT, i64 BIGINT, f32 FLOAT, f64 DOUBLE,
d5 DECIMAL(5,2), d18 DECIMAL(18,4), d25 DECIMAL(25,10), d38 DECIMAL(38,0),
s STRING, bin BINARY, dt DATE, ts TIMESTAMP, ts_ntz TIMESTAMP_NTZ,
arr_i ARRAY<INT>, arr_s ARRAY<STRING>, arr_arr ARRAY<ARRAY<DOUBLE>>,
st STRUCT<a: INT, b: STRING, inner: STRUCT<x: DOUBLE, y: ARRAY<BIGINT>>>,
m MAP<STRING, INT>, m_st MAP<INT, STRUCT<p: STRING, q: DATE>>,
nested ARRAY<STRUCT<k: STRING, vals: ARRAY<MAP<STRING, BIGINT>>>>,
nothing STRING
"""

# The same columns as Arrow types, plus types Spark reads but does not write.
ARROW_SCHEMA = pa.schema(
    [
        ("id", pa.int32()), ("b", pa.bool_()), ("i8", pa.int8()), ("i16", pa.int16()), ("i32", pa.int32()),
        ("i64", pa.int64()), ("f32", pa.float32()), ("f64", pa.float64()),
        ("d5", pa.decimal128(5, 2)), ("d18", pa.decimal128(18, 4)), ("d25", pa.decimal128(25, 10)),
        ("d38", pa.decimal128(38, 0)), ("s", pa.string()), ("bin", pa.binary()), ("dt", pa.date32()),
        ("ts", pa.timestamp("us", tz="UTC")), ("ts_ntz", pa.timestamp("us")),
        ("arr_i", pa.list_(pa.int32())), ("arr_s", pa.list_(pa.string())),
        ("arr_arr", pa.list_(pa.list_(pa.float64()))),
        ("st", pa.struct([("a", pa.int32()), ("b", pa.string()),
                          ("inner", pa.struct([("x", pa.float64()), ("y", pa.list_(pa.int64()))]))])),
        ("m", pa.map_(pa.string(), pa.int32())),
        ("m_st", pa.map_(pa.int32(), pa.struct([("p", pa.string()), ("q", pa.date32())]))),
        ("nested", pa.list_(pa.struct([("k", pa.string()),
                                       ("vals", pa.list_(pa.map_(pa.string(), pa.int64())))]))),
        ("nothing", pa.string()),
        ("u8", pa.uint8()), ("u16", pa.uint16()), ("u32", pa.uint32()), ("u64", pa.uint64()),
        ("ts_ms", pa.timestamp("ms", tz="UTC")), ("fsb", pa.binary(4)),
    ]
)
SPARK_ONLY = [f.name for f in ARROW_SCHEMA][:25]

STRINGS = ["", "a", "é", "日本語", "emoji \U0001f600", "tab\tnew\nline", "x" * 300, "NULL", "'quoted'"]
DATES = [datetime.date(1, 1, 1), datetime.date(1000, 3, 1), datetime.date(1582, 10, 4), datetime.date(1582, 10, 15),
         datetime.date(1900, 1, 1), datetime.date(1970, 1, 1), datetime.date(2000, 2, 29), datetime.date(9999, 12, 31)]
FLOATS = [0.0, -0.0, 1.5, -2.25, 1e30, float("nan"), float("inf"), float("-inf")]


def _decimal(rng: random.Random, precision: int, scale: int) -> decimal.Decimal:
    digits = rng.randint(1, precision)
    unscaled = rng.randint(0, 10**digits - 1) * rng.choice([1, -1])
    return decimal.Decimal(unscaled).scaleb(-scale)


def _instant(rng: random.Random) -> datetime.datetime:
    seconds = rng.choice([rng.randint(-2_000_000_000, 4_000_000_000), rng.randint(-62_000_000_000, 250_000_000_000)])
    return datetime.datetime(1970, 1, 1, tzinfo=UTC) + datetime.timedelta(seconds=seconds, microseconds=rng.randint(0, 999_999))


def _rows(seed: int = 7) -> List[Dict[str, Any]]:
    """Rows in the canonical form: maps as lists of pairs, structs as dicts."""
    rng = random.Random(seed)

    def maybe(make, p=0.15):
        return None if rng.random() < p else make()

    def lst(make, n=4):
        return [make() for _ in range(rng.randint(0, n))]

    def pairs(key, value, n=3):
        keys = list(dict.fromkeys(key() for _ in range(rng.randint(0, n))))
        return [(k, value()) for k in keys]

    rows = []
    for i in range(ROWS):
        ts = _instant(rng)
        rows.append(
            {
                "id": i,
                "b": maybe(lambda: rng.random() < 0.5),
                "i8": maybe(lambda: rng.randint(-128, 127)),
                "i16": maybe(lambda: rng.randint(-(2**15), 2**15 - 1)),
                "i32": maybe(lambda: rng.randint(-(2**31), 2**31 - 1)),
                "i64": maybe(lambda: rng.choice([-(2**63), 2**63 - 1, rng.randint(-(2**63), 2**63 - 1)])),
                "f32": maybe(lambda: rng.choice(FLOATS)),
                "f64": maybe(lambda: rng.choice(FLOATS + [rng.uniform(-1e300, 1e300), 5e-324])),
                "d5": maybe(lambda: _decimal(rng, 5, 2)),
                "d18": maybe(lambda: _decimal(rng, 18, 4)),
                "d25": maybe(lambda: _decimal(rng, 25, 10)),
                "d38": maybe(lambda: _decimal(rng, 38, 0)),
                "s": maybe(lambda: rng.choice(STRINGS)),
                "bin": maybe(lambda: bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 12)))),
                "dt": maybe(lambda: rng.choice(DATES + [datetime.date(1970, 1, 1) + datetime.timedelta(rng.randint(-30000, 30000))])),
                "ts": maybe(lambda: ts),
                "ts_ntz": maybe(lambda: ts.replace(tzinfo=None)),
                "arr_i": maybe(lambda: lst(lambda: maybe(lambda: rng.randint(-1000, 1000)))),
                "arr_s": maybe(lambda: lst(lambda: maybe(lambda: rng.choice(STRINGS)))),
                "arr_arr": maybe(lambda: lst(lambda: maybe(lambda: lst(lambda: maybe(lambda: rng.choice(FLOATS)))))),
                "st": maybe(
                    lambda: {
                        "a": maybe(lambda: rng.randint(0, 9)),
                        "b": maybe(lambda: rng.choice(STRINGS)),
                        "inner": maybe(lambda: {"x": maybe(lambda: rng.random()),
                                                "y": maybe(lambda: lst(lambda: maybe(lambda: rng.randint(0, 99))))}),
                    }
                ),
                "m": maybe(lambda: pairs(lambda: rng.choice(STRINGS), lambda: maybe(lambda: rng.randint(0, 9)))),
                "m_st": maybe(
                    lambda: pairs(
                        lambda: rng.randint(0, 20),
                        lambda: maybe(lambda: {"p": maybe(lambda: rng.choice(STRINGS)),
                                               "q": maybe(lambda: rng.choice(DATES))}),
                    )
                ),
                "nested": maybe(
                    lambda: lst(
                        lambda: maybe(
                            lambda: {
                                "k": maybe(lambda: rng.choice(STRINGS)),
                                "vals": maybe(lambda: lst(lambda: maybe(lambda: pairs(
                                    lambda: rng.choice(STRINGS), lambda: maybe(lambda: rng.randint(-5, 5)))), 3)),
                            }
                        ),
                        3,
                    )
                ),
                "nothing": None,
                "u8": maybe(lambda: rng.randint(0, 255)),
                "u16": maybe(lambda: rng.randint(0, 65535)),
                "u32": maybe(lambda: rng.randint(0, 2**32 - 1)),
                "u64": maybe(lambda: rng.choice([2**64 - 1, rng.randint(0, 2**64 - 1)])),
                "ts_ms": maybe(lambda: ts.replace(microsecond=ts.microsecond // 1000 * 1000)),
                "fsb": maybe(lambda: bytes(rng.getrandbits(8) for _ in range(4))),
            }
        )
    return rows


def _for_spark(v: Any, t: T.DataType) -> Any:
    """A canonical value as createDataFrame takes it (maps as dicts, structs as Rows)."""
    if v is None:
        return None
    if isinstance(t, T.StructType):
        return tuple(_for_spark(v[f.name], f.dataType) for f in t.fields)
    if isinstance(t, T.ArrayType):
        return [_for_spark(x, t.elementType) for x in v]
    if isinstance(t, T.MapType):
        return {_for_spark(k, t.keyType): _for_spark(x, t.valueType) for k, x in v}
    return v


def _canon(v: Any, t: T.DataType, naive_is: str) -> Any:
    """One value in the canonical form. ``naive_is`` says what a naive datetime of a
    TIMESTAMP column is: "local" (PySpark's collect) or "utc" (INT96 through Arrow)."""
    if v is None:
        return None
    if isinstance(t, T.StructType):
        get = v.asDict() if hasattr(v, "asDict") else v
        return {f.name: _canon(get[f.name], f.dataType, naive_is) for f in t.fields}
    if isinstance(t, T.ArrayType):
        return [_canon(x, t.elementType, naive_is) for x in v]
    if isinstance(t, T.MapType):
        items = v.items() if isinstance(v, dict) else v
        pairs = [(_canon(k, t.keyType, naive_is), _canon(x, t.valueType, naive_is)) for k, x in items]
        return sorted(pairs, key=lambda p: repr(p[0]))
    if isinstance(t, T.BinaryType):
        return bytes(v)
    if isinstance(t, T.FloatType):
        # Source values are Python floats; the column holds their float32 rounding.
        return "NaN" if math.isnan(v) else struct.unpack("<f", struct.pack("<f", v))[0]
    if isinstance(t, T.DoubleType):
        return "NaN" if math.isnan(v) else v
    if isinstance(t, T.DecimalType):
        return decimal.Decimal(v)
    if isinstance(t, T.TimestampType):
        if v.tzinfo is None:
            v = v.astimezone() if naive_is == "local" else v.replace(tzinfo=UTC)
        return v.astimezone(UTC)
    return v


def _canon_rows(rows, schema: T.StructType, naive_is: str) -> List[Dict[str, Any]]:
    out = []
    for r in rows:
        get = r.asDict() if hasattr(r, "asDict") else r
        out.append({f.name: _canon(get[f.name], f.dataType, naive_is) for f in schema.fields})
    return sorted(out, key=lambda r: r["id"])


def _assert_same(got: List[Dict[str, Any]], expected: List[Dict[str, Any]]) -> None:
    assert len(got) == len(expected) > 0
    for g, e in zip(got, expected):
        for name in e:
            assert g[name] == e[name], f"row {e['id']} column {name}: {g[name]!r} != {e[name]!r}"


def _parq_rows(path) -> List[Dict[str, Any]]:
    tables = [pa.table(s.read()) for s in parq.plan_splits(path)]
    return pa.concat_tables(tables).to_pylist()


@pytest.fixture(scope="module")
def rows():
    return _rows()


@pytest.fixture(scope="module")
def spark_frame(spark, rows):
    schema = T._parse_datatype_string(SPARK_DDL)
    data = [tuple(_for_spark(r[f.name], f.dataType) for f in schema.fields) for r in rows]
    return spark.createDataFrame(data, schema).repartition(3)


# (name, Spark SQL settings of the write): the default INT96 timestamps; the
# micros that parquet-java annotates; millis in the legacy layout (two-level
# lists named "bag"/"array", decimals as fixed-length byte arrays).
SPARK_WRITES = [
    ("int96", {}),
    ("micros", {"spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS"}),
    ("legacy-millis", {"spark.sql.parquet.outputTimestampType": "TIMESTAMP_MILLIS",
                       "spark.sql.parquet.writeLegacyFormat": "true"}),
]


def _with_conf(spark, conf, fn):
    old = {k: spark.conf.get(k, None) for k in conf}
    for k, v in conf.items():
        spark.conf.set(k, v)
    try:
        return fn()
    finally:
        for k, v in old.items():
            if v is None:
                spark.conf.unset(k)
            else:
                spark.conf.set(k, v)


@pytest.mark.parametrize("name,conf", SPARK_WRITES, ids=[w[0] for w in SPARK_WRITES])
def test_parq_reads_what_spark_writes(spark, spark_frame, tmp_path, name, conf):
    path = str(tmp_path / name)
    _with_conf(spark, conf, lambda: spark_frame.write.parquet(path))
    files = parq.splits.source_paths(path)
    assert len(files) == 3
    created = parq.read_metadata(files[0]).created_by
    assert created and created.startswith("parquet-mr")
    # The layouts are the ones meant: legacy lists and decimals, or the standard ones.
    text = str(parq.read_schema(files[0]))
    legacy = name.startswith("legacy")
    assert ("repeated group bag" in text) == legacy and ("repeated group list" in text) != legacy
    assert ("fixed_len_byte_array(3) d5" in text) == legacy
    ref = spark.read.parquet(path)
    schema = ref.schema
    expected = _canon_rows(ref.collect(), schema, naive_is="local")
    assert len(expected) == ROWS
    # Millis lose the micros: the expected rows are Spark's own read, not the source.
    got = _canon_rows(_parq_rows(path), schema, naive_is="utc")
    if name == "int96":
        _set_aside_int96_wraparound(files, expected, got)
    _assert_same(got, expected)
    # And through the parq data source: the same Spark schema and rows.
    ours = spark.read.format("parq").load(path)
    assert ours.schema.simpleString() == schema.simpleString()
    if name == "int96":
        # Wrapped instants fail the read instead of reaching Spark wrong...
        with pytest.raises(Exception, match="INT96 timestamp outside 1677-09-21..2262-04-11"):
            ours.collect()
        # ...and the instants inside the range read as Spark reads them.
        path = str(tmp_path / "int96-in-range")
        in_range = spark_frame.where(
            "ts IS NULL OR ts BETWEEN TIMESTAMP '1677-09-22 00:00:00Z' AND TIMESTAMP '2262-04-10 00:00:00Z'"
        )
        in_range.write.parquet(path)
        ref = spark.read.parquet(path)
        expected = _canon_rows(ref.collect(), schema, naive_is="local")
        assert 0 < len(expected) < ROWS
        ours = spark.read.format("parq").load(path)
    _assert_same(_canon_rows(ours.collect(), schema, naive_is="local"), expected)
    # The INT96 finding: a zone-less nanosecond column in Arrow, an instant for Spark.
    ts_type = pa.schema(parq.splits.arrow_schema(files[0], ["ts"])).field("ts").type
    if name == "int96":
        assert ts_type == pa.timestamp("ns")
        assert [c.physical_type for c in parq.read_schema(files[0]).columns if c.path == "ts"] == ["INT96"]
    else:
        assert ts_type == pa.timestamp("us" if name == "micros" else "ms", tz="UTC")


NS_MIN = datetime.datetime(1677, 9, 21, 0, 12, 44, tzinfo=UTC)
NS_MAX = datetime.datetime(2262, 4, 11, 23, 47, 16, tzinfo=UTC)


def _set_aside_int96_wraparound(files, expected, got) -> None:
    """The INT96 finding outside 1677..2262: parq converts INT96 to Arrow's
    timestamp[ns], which wraps there, as pyarrow's reading does. Checks that on
    the rows Spark reads outside that range parq gives pyarrow's wrapped value,
    not Spark's, then takes their ``ts`` out of the comparison."""
    pyarrow_ts = {}
    for f in files:
        t = pq.read_table(f, columns=["id", "ts"])
        ids = t["id"].to_pylist()
        values = t["ts"].cast(pa.int64()).to_pylist()  # the nanoseconds as converted
        pyarrow_ts.update(zip(ids, values))
    outside = {r["id"] for r in expected if r["ts"] is not None and not NS_MIN <= r["ts"] <= NS_MAX}
    assert 0 < len(outside) < len(expected)
    for r, e in zip(got, expected):
        if r["id"] not in outside:
            continue
        ts = r["ts"]
        assert ts != e["ts"]
        ns = (ts - datetime.datetime(1970, 1, 1, tzinfo=UTC)) // datetime.timedelta(microseconds=1) * 1000
        assert ns + getattr(ts, "nanosecond", 0) == pyarrow_ts[r["id"]]
        r["ts"] = e["ts"] = "wrapped"


def test_spark_wrote_the_source_rows(spark_frame, rows, spark, tmp_path):
    # The canonical form is right about Spark: its own round trip gives the source rows.
    path = str(tmp_path / "plain")
    spark_frame.write.parquet(path)
    ref = spark.read.parquet(path)
    _assert_same(_canon_rows(ref.collect(), ref.schema, "local"), _canon_rows(rows, ref.schema, "utc"))


def test_legacy_calendar_dates_differ_as_documented(spark, tmp_path):
    path = str(tmp_path / "legacy-dates")
    old = [datetime.date(1000, 3, 1), datetime.date(1500, 6, 1)]
    modern = datetime.date(2000, 1, 1)
    df = spark.createDataFrame([(i, d) for i, d in enumerate(old + [modern])], "id INT, dt DATE").coalesce(1)
    _with_conf(spark, {"spark.sql.parquet.datetimeRebaseModeInWrite": "LEGACY"}, lambda: df.write.parquet(path))
    (file,) = parq.splits.source_paths(path)
    assert "org.apache.spark.legacyDateTime" in parq.read_metadata(file).key_value_metadata
    spark_dates = [r.dt for r in spark.read.parquet(path).orderBy("id").collect()]
    parq_dates = pa.table(parq.read_table(file)).sort_by("id")["dt"].to_pylist()
    assert spark_dates == old + [modern]
    # parq reads the stored proleptic value, as pyarrow does; Spark rebases it.
    assert parq_dates == pq.read_table(file).sort_by("id")["dt"].to_pylist()
    assert parq_dates[-1] == modern
    for s, p in zip(spark_dates[:2], parq_dates[:2]):
        assert s != p and abs((s - p).days) < 20


# parq's writes: v1 and v2 pages, with and without dictionaries, four codecs.
PARQ_WRITES = [
    ("v1-snappy", {}),
    ("v2-zstd", {"page_version": 2, "codec": "zstd"}),
    ("v1-gzip-plain", {"codec": "gzip", "dictionary": False}),
    ("v2-lz4raw-plain", {"page_version": 2, "codec": "lz4_raw", "dictionary": False}),
]


@pytest.mark.parametrize("name,options", PARQ_WRITES, ids=[w[0] for w in PARQ_WRITES])
def test_spark_reads_what_parq_writes(spark, rows, tmp_path, name, options):
    source = pa.Table.from_pylist(rows, schema=ARROW_SCHEMA)
    path = str(tmp_path / f"{name}.parquet")
    parq.write_table(source, path, row_group_rows=100, **options)
    df = spark.read.parquet(path)
    types = dict(df.dtypes)
    # Spark's reading of the types it does not write.
    assert (types["u8"], types["u16"], types["u32"], types["u64"]) == ("smallint", "int", "bigint", "decimal(20,0)")
    assert (types["ts"], types["ts_ntz"], types["ts_ms"], types["fsb"]) == ("timestamp", "timestamp_ntz", "timestamp", "binary")
    expected = _canon_rows(rows, df.schema, naive_is="utc")
    got = _canon_rows(df.collect(), df.schema, naive_is="local")
    _assert_same(got, expected)
