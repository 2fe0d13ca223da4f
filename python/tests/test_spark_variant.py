"""VARIANT columns both ways through Spark 4 (parquet-java): Spark-written
variants, plain and shredded, read by parq as Spark's documents and filtered
into by field; parq-written ones, plain and shredded, read by Spark. Kept
apart from test_variant.py because the sanitized run leaves out the JVM
engines (python/run-sanitized-tests.sh)."""

from __future__ import annotations

import json

import pyarrow as pa

import parq


# Spark 4 writes VARIANT (and, asked to, shreds it by a schema it is given)
# and reads both forms back: its documents both ways. Spark keeps numbers
# with a fraction as decimals, which parq's text quotes: both sides read
# fractions as their text.
SPARK_DOCUMENTS = [
    {"a": 1, "b": "x", "c": [1, 2]},
    {"a": "str", "d": 1.5},
    {"a": 300000, "b": None, "c": [1, "q"]},
    5,
    "s",
    [1, {"z": 2}],
    {"nested": {"deep": [{"k": -7}]}, "big": 5000000000},
]


def _loads(text):
    return None if text is None else json.loads(text, parse_float=str)


def test_spark_written_variants_read_as_their_documents(spark, tmp_path):
    frame = spark.createDataFrame([(i, json.dumps(d)) for i, d in enumerate(SPARK_DOCUMENTS)],
                                  "id int, j string").selectExpr("id", "parse_json(j) AS v")
    expected = [_loads(r[0]) for r in frame.orderBy("id").selectExpr("to_json(v)").collect()]
    for shredded in (False, True):
        spark.conf.set("spark.sql.variant.writeShredding.enabled", str(shredded).lower())
        spark.conf.set("spark.sql.variant.forceShreddingSchemaForTest", "a int, b string, c array<int>")
        out = tmp_path / f"spark-{shredded}"
        frame.coalesce(1).write.parquet(str(out))
        spark.conf.unset("spark.sql.variant.writeShredding.enabled")
        spark.conf.unset("spark.sql.variant.forceShreddingSchemaForTest")
        (path,) = out.glob("*.parquet")
        assert ("typed_value" in str(parq.ParquetFile(str(path)).schema)) == shredded
        table = pa.table(parq.read_table(str(path), unshred_variants=True)).sort_by("id")
        got = [_loads(parq.variant_to_json(r["metadata"], r["value"])) for r in table.column("v").to_pylist()]
        assert got == expected, shredded
        # Filters into fields, shredded or found inside whole values.
        for where, keep in [
            ("v.a >= 2", lambda d: isinstance(d, dict) and type(d.get("a")) is int and d["a"] >= 2),
            ("v.a = 'str'", lambda d: isinstance(d, dict) and d.get("a") == "str"),
            ("v.nested.deep IS NOT NULL", lambda d: isinstance(d, dict) and "nested" in d),
            ("v.b IS NULL", lambda d: not isinstance(d, dict) or d.get("b") is None),
        ]:
            ids = pa.table(parq.read_table(str(path), columns=["id"], filter=where)).column("id").to_pylist()
            assert sorted(ids) == [i for i, d in enumerate(SPARK_DOCUMENTS) if keep(d)], (where, shredded)


def test_parq_written_variants_read_in_spark_as_their_documents(spark, tmp_path):
    import subprocess

    from conftest import REPO

    tool = REPO / "build" / "parq"
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps({"id": i, "v": d}) + "\n" for i, d in enumerate(SPARK_DOCUMENTS)))
    for flags in ([], ["--shred-variants"]):
        out = tmp_path / f"parq{len(flags)}.parquet"
        subprocess.run([str(tool), "convert", str(source), str(out), "--variant", "v", *flags], check=True)
        assert ("typed_value" in str(parq.ParquetFile(str(out)).schema)) == bool(flags)
        rows = spark.read.parquet(str(out)).orderBy("id").selectExpr("to_json(v)").collect()
        assert [_loads(r[0]) for r in rows] == [_loads(json.dumps(d)) for d in SPARK_DOCUMENTS], flags
