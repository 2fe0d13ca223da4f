"""VARIANT columns from Python: with ``unshred_variants=True`` every readable
case of the spec's shredded-variant data (shared/parquet-testing/
shredded_variant/cases.json) comes back as a struct of ``metadata`` and
``value`` whose bytes are the case's expected variant, byte for byte; cases
the spec marks as errors raise ValueError (corrupt) or NotImplementedError
(unsupported types); without the option the stored columns come back."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

import parq
from conftest import SHARED

CASES_DIR = SHARED / "parquet-testing" / "shredded_variant"
# The spec leaves these to the reader; parq refuses a field both shredded
# and in `value` (shredding_test.cc says why).
REFUSED = {43, 125}


def cases():
    assert CASES_DIR.is_dir(), f"the shared corpus is not at {CASES_DIR}"
    return [c for c in json.loads((CASES_DIR / "cases.json").read_text()) if "parquet_file" in c]


def test_every_readable_case_gives_its_expected_bytes():
    checked = 0
    for case in cases():
        if "error_message" in case or case["case_number"] in REFUSED:
            continue
        files = case.get("variant_files") or [case["variant_file"]]
        table = pa.table(parq.read_table(str(CASES_DIR / case["parquet_file"]), unshred_variants=True))
        var = table.column("var")
        assert [(f.name, f.type) for f in var.type] == [("metadata", pa.binary()), ("value", pa.binary())]
        assert len(var) == len(files), case["case_number"]
        for row, name in enumerate(files):
            got = var[row].as_py()
            if name is None:
                assert got is None, (case["case_number"], row)
                continue
            expected = (CASES_DIR / name).read_bytes()
            assert got["metadata"] + got["value"] == expected, (case["case_number"], row)
            checked += 1
    assert checked >= 90


def test_invalid_shredding_raises_by_kind():
    raised = 0
    for case in cases():
        if "error_message" not in case and case["case_number"] not in REFUSED:
            continue
        path = str(CASES_DIR / case["parquet_file"])
        unsupported = "Unsupported" in case.get("error_message", "")
        with pytest.raises(NotImplementedError if unsupported else ValueError) as info:
            parq.read_table(path, unshred_variants=True)
        assert "variant var" in str(info.value)
        raised += 1
    assert raised == 8  # six the spec lists, two refused


def test_without_the_option_the_stored_columns_come_back():
    table = pa.table(parq.read_table(str(CASES_DIR / "case-083.parquet")))
    assert "typed_value" in [f.name for f in table.column("var").type]
    f = parq.ParquetFile(str(CASES_DIR / "case-083.parquet"))
    batches = list(f.iter_batches(unshred_variants=True))
    assert [x.name for x in pa.record_batch(batches[0]).schema.field("var").type] == ["metadata", "value"]


# JSON documents both ways through DuckDB's VARIANT: no decimals (DuckDB
# keeps numbers with a fraction as doubles, parq's text would quote a
# decimal) but every other kind, nesting, nulls, unicode and wide integers.
DOCUMENTS = [
    {"user": {"age": 31, "name": "ann", "tags": ["a", "b"]}, "score": 1.5},
    [1, 300, 70000, 5000000000, None, True, False, "x", {"k": []}],
    "plain text ü ✓",
    12,
    {},
    [],
    {"a": {"b": {"c": {"d": [1, [2, [3]]]}}}, "z": None},
    {"long": "y" * 200, "neg": -123456789012, "f": -0.25},
]


def duckdb_variant_file(path):
    import duckdb

    con = duckdb.connect()
    rows = ", ".join(f"({i}, ?::JSON::VARIANT)" for i in range(len(DOCUMENTS)))
    con.execute(f"COPY (SELECT * FROM (VALUES {rows}) t(id, v)) TO '{path}'",
                [json.dumps(d) for d in DOCUMENTS])


def test_duckdb_written_variants_read_as_their_documents(tmp_path):
    path = tmp_path / "duck.parquet"
    duckdb_variant_file(path)
    table = pa.table(parq.read_table(str(path), unshred_variants=True))
    got = [json.loads(parq.variant_to_json(r["metadata"], r["value"])) for r in table.column("v").to_pylist()]
    assert got == DOCUMENTS


def test_parq_written_variants_read_in_duckdb_as_their_documents(tmp_path):
    import duckdb

    source = tmp_path / "duck.parquet"
    duckdb_variant_file(source)
    table = pa.table(parq.read_table(str(source), unshred_variants=True))
    # The unshredded column travels as arrow.parquet.variant and is written
    # back as a VARIANT group.
    assert table.schema.field("v").metadata[b"ARROW:extension:name"] == b"arrow.parquet.variant"
    out = tmp_path / "parq.parquet"
    parq.write_table(table, str(out))
    assert "optional group v (VARIANT(1))" in str(parq.ParquetFile(str(out)).schema)
    rows = duckdb.sql(f"SELECT id, v::JSON FROM '{out}' ORDER BY id").fetchall()
    assert [json.loads(v) for _, v in rows] == DOCUMENTS


def test_variant_to_json_refuses_bytes_that_are_not_a_variant():
    assert parq.variant_to_json(b"\x01\x00\x00", b"\x0c\x05") == "5"
    with pytest.raises(ValueError, match="variant"):
        parq.variant_to_json(b"\x02\x00\x00", b"\x00")  # metadata version 2
    with pytest.raises(ValueError, match="follow the value"):
        parq.variant_to_json(b"\x01\x00\x00", b"\x00\x00")


def test_filters_into_shredded_fields_give_duckdbs_rows(tmp_path):
    """`v.user.age` reads the field's shredded columns: its typed column where
    it holds the value, its `value` column (doubles here) elsewhere, null where
    the field or the object is missing; NOT, IS NULL and IN as DuckDB has them."""
    import random

    import duckdb

    rng = random.Random(7)
    docs = []
    for i in range(3000):
        r = rng.random()
        if r < 0.8:
            d = {"user": {"age": rng.randint(1, 90), "name": f"n{i}"}, "k": i}
        elif r < 0.9:
            d = {"user": {"age": rng.randint(1, 90) + 0.5, "name": "s"}, "k": i}
        elif r < 0.95:
            d = {"user": {"name": "no age"}, "k": i}
        else:
            d = [1, 2]
        docs.append(json.dumps(d))
    path = tmp_path / "users.parquet"
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT i::BIGINT id, j::JSON::VARIANT v FROM "
                "(SELECT unnest(range(3000)) i, unnest(?) j)", [docs])
    con.execute(f"COPY t TO '{path}'")
    assert "typed_value" in str(parq.ParquetFile(str(path)).schema)
    # DuckDB's own comparison of a VARIANT with a number changed between
    # releases (1.5 casts the variant, 2.0 orders values of different types
    # by type), so its side casts explicitly: the numeric meaning parq gives.
    for where, duck_where in [
        ("v.user.age > 30", "v.user.age::DOUBLE > 30"),
        ("NOT (v.user.age > 30)", "NOT (v.user.age::DOUBLE > 30)"),
        ("v.user.age IS NULL", "v.user.age::DOUBLE IS NULL"),
        ("v.user.age IS NOT NULL", "v.user.age::DOUBLE IS NOT NULL"),
        ("v.user.age IN (31, 40.5)", "v.user.age::DOUBLE IN (31, 40.5)"),
        ("v.user.age <= 30.5 AND v.k < 2000", "v.user.age::DOUBLE <= 30.5 AND v.k::BIGINT < 2000"),
        ("v.user.name LIKE 'n1%'", "v.user.name::VARCHAR LIKE 'n1%'"),
    ]:
        duck = [r[0] for r in con.sql(f"SELECT id FROM t WHERE {duck_where} ORDER BY id").fetchall()]
        ours = pa.table(parq.read_table(str(path), columns=["id"], filter=where)).column("id").to_pylist()
        assert ours == duck, where
        assert duck, where  # each filter keeps some rows


def test_a_projection_of_a_shredded_field_gives_duckdbs_values(tmp_path):
    import duckdb

    path = tmp_path / "p.parquet"
    con = duckdb.connect()
    docs = [json.dumps({"user": {"age": i % 90, "name": f"n{i}"}} if i % 7 else [i]) for i in range(500)]
    con.execute("CREATE TABLE t AS SELECT i::BIGINT id, j::JSON::VARIANT v FROM "
                "(SELECT unnest(range(500)) i, unnest(?) j)", [docs])
    con.execute(f"COPY t TO '{path}'")
    duck = [json.loads(r[0]) if r[0] is not None else None
            for r in con.sql("SELECT v.user.age::JSON FROM t ORDER BY id").fetchall()]
    table = pa.table(parq.read_table(str(path), columns=["id", "v.user.age"], unshred_variants=True))
    ours = []
    for row in table.column("v").to_pylist():
        doc = json.loads(parq.variant_to_json(row["metadata"], row["value"]))
        ours.append(doc["user"]["age"] if isinstance(doc, dict) and "age" in doc.get("user", {}) else None)
    assert ours == duck
    assert sum(a is None for a in ours) == len([i for i in range(500) if i % 7 == 0])


def test_parq_shredded_files_read_in_duckdb_as_their_documents(tmp_path):
    """`parq convert --variant v --shred-variants`: DuckDB reads the shredded
    columns back as the same documents, and filters on them as parq does."""
    import subprocess

    import duckdb

    from conftest import REPO

    tool = REPO / "build" / "parq"
    assert tool.exists(), f"the parq tool is built by scripts/test.sh before the Python tests ({tool})"
    docs = [{"user": {"age": i % 90, "name": f"n{i}"}, "tags": ["a", i]} for i in range(300)] + DOCUMENTS
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps({"id": i, "v": d}) + "\n" for i, d in enumerate(docs)))
    out = tmp_path / "shredded.parquet"
    subprocess.run([str(tool), "convert", str(source), str(out), "--variant", "v", "--shred-variants"], check=True)
    assert "typed_value" in str(parq.ParquetFile(str(out)).schema)
    rows = duckdb.sql(f"SELECT id, v::JSON FROM '{out}' ORDER BY id").fetchall()
    assert [json.loads(v) for _, v in rows] == docs
    duck = [r[0] for r in duckdb.sql(f"SELECT id FROM '{out}' WHERE v.user.age::BIGINT >= 80 ORDER BY id").fetchall()]
    ours = pa.table(parq.read_table(str(out), columns=["id"], filter="v.user.age >= 80")).column("id").to_pylist()
    assert ours == duck and len(ours) == 30

