"""Filters: pyarrow's tuple form gives the rows pyarrow's filtered read gives
(over a file with small row groups and pages, so that statistics, the page
index, dictionaries and bloom filters prune), the text form gives the rows
of the equivalent tuples, and bad filters raise ValueError."""

from __future__ import annotations

import datetime
import decimal
import random
import re

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import parq
from conftest import assert_same_rows

N = 3000
WORDS = ["apple", "banana", "cherry", "date", "elder", "fig", "grape", "it's", 'say "hi"']
DAY0 = datetime.date(2020, 1, 1)
TS0 = datetime.datetime(2021, 3, 1, 12, 0, 0)


def _table(seed=3):
    rnd = random.Random(seed)

    def maybe(v, p=0.1):
        return None if rnd.random() < p else v

    return pa.table(
        {
            "id": pa.array(range(N), pa.int64()),
            "i8": pa.array([maybe(rnd.randint(-128, 127)) for _ in range(N)], pa.int8()),
            "u32": pa.array([maybe(rnd.randint(0, 2**32 - 1)) for _ in range(N)], pa.uint32()),
            "f": pa.array([maybe(round(rnd.uniform(-100, 100), 3)) for _ in range(N)], pa.float64()),
            "f32": pa.array([maybe(rnd.choice([0.5, 1.25, -3.0, 7.75])) for _ in range(N)], pa.float32()),
            "s": pa.array([maybe(rnd.choice(WORDS)) for _ in range(N)]),
            "b": pa.array([maybe(rnd.choice(WORDS).encode()) for _ in range(N)], pa.binary()),
            "flag": pa.array([maybe(rnd.random() < 0.3) for _ in range(N)]),
            "day": pa.array([maybe(DAY0 + datetime.timedelta(days=rnd.randint(0, 400))) for _ in range(N)]),
            "ts": pa.array(
                [maybe(TS0 + datetime.timedelta(seconds=rnd.randint(0, 10**6))) for _ in range(N)], pa.timestamp("us")
            ),
            "ts_utc": pa.array(
                [maybe(TS0 + datetime.timedelta(seconds=rnd.randint(0, 10**6))) for _ in range(N)],
                pa.timestamp("ms", tz="UTC"),
            ),
            "dec": pa.array(
                [maybe(decimal.Decimal(rnd.randint(-10**6, 10**6)).scaleb(-2)) for _ in range(N)],
                pa.decimal128(12, 2),
            ),
            "st": pa.array([{"x": maybe(rnd.randint(0, 50))} for _ in range(N)]),
        }
    )


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    t = _table()
    d = tmp_path_factory.mktemp("filters")
    path = d / "f.parquet"
    parq.write_table(t, path, row_group_rows=700, page_rows=100, bloom_filter=["s", "id"], page_version=2)
    return path, t


def _expected(path, filters):
    return pq.read_table(path, filters=filters)


CASES = [
    [("id", "<", 100)],
    [("id", ">=", 2950)],
    [("id", "=", 1234)],
    [("id", "==", 7)],
    [("id", "!=", 5), ("id", "<", 10)],
    [("id", "in", [1, 50, 2999, 5000])],
    [("id", "not in", list(range(0, N, 2)))],
    [("id", "in", [])],
    [("i8", "<", 0)],
    [("i8", ">=", 100)],
    [("i8", "in", [1, 2, 3, None])],
    [("i8", "not in", [1, 2, 3])],
    [("i8", "not in", [1, None])],
    [("u32", ">", 2**31)],
    [("f", ">", 50.5)],
    [("f", "<=", -99.0)],
    [("f32", "=", 1.25)],
    [("f32", "in", [0.5, 7.75])],
    [("s", "=", "banana")],
    [("s", "=", "it's")],
    [("s", "=", 'say "hi"')],
    [("s", ">", "date")],
    [("s", "in", ["fig", "grape", "nope"])],
    [("s", "not in", ["apple"])],
    [("b", "=", b"cherry")],
    [("b", "in", [b"fig", b"elder"])],
    [("flag", "=", True)],
    [("flag", "!=", True)],
    [("day", ">=", datetime.date(2020, 12, 1))],
    [("day", "in", [datetime.date(2020, 1, 5), datetime.date(2020, 2, 29)])],
    [("ts", "<", datetime.datetime(2021, 3, 2))],
    [("ts", ">", datetime.datetime(2021, 3, 10, 6, 30, 15))],
    [("ts_utc", ">", datetime.datetime(2021, 3, 5, tzinfo=datetime.timezone.utc))],
    [("dec", ">", decimal.Decimal("100.50"))],
    [("dec", "=", decimal.Decimal("0.00"))],
    [("dec", "in", [decimal.Decimal("1.00"), decimal.Decimal("-2.50")])],
    [[("id", "<", 10)], [("id", ">", 2990)]],
    [[("s", "=", "fig"), ("i8", ">", 0)], [("flag", "=", False), ("f", "<", 0)], [("day", "=", DAY0)]],
    [("s", "=", "none such")],
]


@pytest.mark.parametrize("filters", CASES, ids=[repr(c)[:60] for c in CASES])
def test_tuples_give_pyarrows_rows(data, filters):
    path, _ = data
    got = parq.read_table(path, filters=filters)
    assert_same_rows(got, _expected(path, filters))


def test_random_conjunctions_give_pyarrows_rows(data):
    path, t = data
    rnd = random.Random(11)
    columns = ["id", "i8", "u32", "f", "s", "day", "dec"]
    ops = ["=", "!=", "<", "<=", ">", ">=", "in", "not in"]
    checked = 0
    for _ in range(60):
        terms = []
        for _ in range(rnd.randint(1, 3)):
            col = rnd.choice(columns)
            values = [v for v in t.column(col).to_pylist() if v is not None]
            op = rnd.choice(ops)
            value = rnd.sample(values, 3) if op.endswith("in") else rnd.choice(values)
            terms.append((col, op, value))
        filters = [terms] if rnd.random() < 0.7 else [terms[:1], terms[1:] or terms[:1]]
        assert_same_rows(parq.read_table(path, filters=filters), _expected(path, filters))
        checked += 1
    assert checked == 60


TEXT_CASES = [
    ("id < 100", [("id", "<", 100)]),
    ("s = 'it''s'", [("s", "=", "it's")]),
    ("s IN ('fig', 'grape')", [("s", "in", ["fig", "grape"])]),
    ("day >= DATE '2020-12-01'", [("day", ">=", datetime.date(2020, 12, 1))]),
    ("ts < TIMESTAMP '2021-03-02 00:00:00'", [("ts", "<", datetime.datetime(2021, 3, 2))]),
    ("dec > 100.50", [("dec", ">", decimal.Decimal("100.50"))]),
    ("b = X'636865727279'", [("b", "=", b"cherry")]),
    ("id BETWEEN 10 AND 20", [("id", ">=", 10), ("id", "<=", 20)]),
    ("id < 10 OR id > 2990", [[("id", "<", 10)], [("id", ">", 2990)]]),
    ("i8 > 10 AND flag = TRUE", [("i8", ">", 10), ("flag", "=", True)]),
]


@pytest.mark.parametrize("text,tuples", TEXT_CASES, ids=[c[0] for c in TEXT_CASES])
def test_text_gives_the_rows_of_its_tuples(data, text, tuples):
    path, _ = data
    got = parq.read_table(path, filter=text)
    assert_same_rows(got, parq.read_table(path, filter=tuples))
    assert_same_rows(got, _expected(path, tuples))


def test_filter_on_iter_batches_and_projection(data):
    path, _ = data
    f = parq.ParquetFile(path)
    rows = sum(b.num_rows for b in f.iter_batches(batch_size=64, filter=[("id", "<", 500)], columns=["s"]))
    assert rows == 500
    got = f.read(columns=["s"], filter="id >= 2900")
    assert got.column_names == ["s"]
    assert got.num_rows == 100


def test_filter_text_rendering():
    text = parq.filter_to_text([[("a", "in", [1, 2])], [("b", "=", "it's"), ("c", "<", datetime.date(2020, 1, 2))]])
    for part in ("a IN (1, 2)", "b = 'it''s'", "c < DATE '2020-01-02'", " OR "):
        assert part in text
    # The library reads its own rendering back to the same filter.
    assert parq.filter_to_text(text) == text


def test_zoned_datetime_compares_as_an_instant(data):
    path, _ = data
    plus2 = datetime.timezone(datetime.timedelta(hours=2))
    local = datetime.datetime(2021, 3, 3, 5, 0, tzinfo=plus2)
    got = parq.read_table(path, filters=[("ts_utc", "<=", local)])
    utc = local.astimezone(datetime.timezone.utc)
    assert_same_rows(got, _expected(path, [("ts_utc", "<=", utc)]))
    assert got.num_rows > 0


def test_nested_column_path(data):
    path, _ = data
    import pyarrow.compute as pc

    got = parq.read_table(path, filters=[("st.x", "<", 10)])
    assert_same_rows(got, pq.read_table(path, filters=pc.field("st", "x") < 10))
    assert_same_rows(parq.read_table(path, filter=[(("st", "x"), "<", 10)]), got)


def test_nan_sorts_above_every_number(tmp_path):
    """parq orders NaN above every number (as DuckDB and PostgreSQL do); pyarrow's
    comparisons are IEEE's, where NaN compares false."""
    path = tmp_path / "nan.parquet"
    parq.write_table(pa.table({"f": [1.0, float("nan"), -1.0, None]}), path)
    got = pa.table(parq.read_table(path, filters=[("f", ">", 0)])).column("f").to_pylist()
    assert len(got) == 2 and got[0] == 1.0 and got[1] != got[1]


BAD = [
    [("id", "~", 1)],
    [("id", "<")],
    [("id", "in", 5)],
    [("id", "in", "abc")],
    [("id", "=", object())],
    [("id", "=", "not a number")],
    [("i8", "=", 1000)],
    [("nope", "=", 1)],
    [("id", "=", 1), ["mixed"]],
    [],
    [[]],
    "id <",
    "id = 'unterminated",
    "nope = 1",
]


# Ids by position and without addresses (object()'s repr has one): pytest-xdist
# needs every worker to collect the same ids.
@pytest.mark.parametrize("filters", BAD, ids=[f"{i}-{re.sub(' at 0x[0-9a-f]+', '', repr(b))[:40]}" for i, b in enumerate(BAD)])
def test_bad_filters_are_value_errors(data, filters):
    path, _ = data
    with pytest.raises(ValueError):
        parq.read_table(path, filter=filters)
