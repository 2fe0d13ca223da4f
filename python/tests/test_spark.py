"""parq.spark, the ``parq`` Python data source, in Spark's local mode: the same
job answers as Spark's own Parquet reader (spark.read.parquet, parquet-java
underneath), one input partition per split, options and schema mapping."""

from __future__ import annotations

import math

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

# Plain imports: a missing engine fails the module, never skips it.
from pyspark.sql import functions as F
from pyspark.sql import types as T

import parq
import parq.spark
from dist_data import FILTER_TEXT, SHIP_CUTOFF

pytestmark = pytest.mark.spark

SPLIT_BYTES = 1 << 20


def _job(df):
    out = df.groupBy("l_returnflag", "l_linestatus").agg(
        F.count(F.lit(1)).alias("rows"),
        F.sum("l_quantity").alias("qty"),
        F.sum("l_extendedprice").alias("price"),
        F.min("l_extendedprice").alias("price_min"),
        F.max("l_extendedprice").alias("price_max"),
        F.max("l_discount").alias("disc_max"),
        F.count("l_comment").alias("comments"),
    )
    return sorted(tuple(r) for r in out.collect())


def test_job_gives_the_answers_of_spark_read_parquet(spark, dist_dataset):
    ours = (
        spark.read.format("parq")
        .option("filter", FILTER_TEXT)
        .option("columns", "l_quantity,l_extendedprice,l_discount,l_returnflag,l_linestatus,l_comment")
        .option("targetBytes", str(SPLIT_BYTES))
        .load(str(dist_dataset))
    )
    ref = spark.read.parquet(str(dist_dataset)).where(
        (F.col("l_shipdate") <= F.lit(SHIP_CUTOFF)) & (F.col("l_quantity") > 5)
    )
    got, expected = _job(ours), _job(ref)
    assert len(got) == len(expected) == 6
    for g, e in zip(got, expected):
        assert g[:4] == e[:4] and g[5:] == e[5:], (g, e)
        assert math.isclose(g[4], e[4], rel_tol=1e-12)  # a double sum in another order
    assert 0 < sum(r[2] for r in got) < sum(s.rows for s in parq.plan_splits(dist_dataset))


def test_one_partition_per_split_and_every_row(spark, dist_dataset):
    df = spark.read.format("parq").option("targetBytes", str(SPLIT_BYTES)).load(str(dist_dataset))
    splits = parq.plan_splits(dist_dataset, SPLIT_BYTES)
    assert df.rdd.getNumPartitions() == len(splits) > 4
    ref = spark.read.parquet(str(dist_dataset))
    assert df.schema.simpleString() == ref.schema.simpleString()  # same names and types
    # Every row once: the multiset difference is empty both ways.
    assert df.count() == ref.count() == sum(s.rows for s in splits)
    assert df.exceptAll(ref).count() == 0 and ref.exceptAll(df).count() == 0


def test_paths_and_columns(spark, dist_dataset):
    files = sorted(str(p) for p in dist_dataset.glob("*.parquet"))
    df = spark.read.format("parq").option("columns", "l_orderkey, l_shipdate").load(files[:2])
    assert df.columns == ["l_orderkey", "l_shipdate"]
    assert dict(df.dtypes) == {"l_orderkey": "bigint", "l_shipdate": "date"}
    rows = df.orderBy("l_orderkey").collect()
    expected = pq.read_table(files[:2], columns=["l_orderkey", "l_shipdate"]).sort_by("l_orderkey")
    assert [r.l_orderkey for r in rows] == expected["l_orderkey"].to_pylist()
    assert [r.l_shipdate for r in rows] == expected["l_shipdate"].to_pylist()


def test_filter_option_is_parqs_text(spark, dist_dataset):
    df = (
        spark.read.format("parq")
        .option("filter", "l_shipmode IN ('AIR', 'MAIL') AND l_comment IS NULL")
        .load(str(dist_dataset / "part-001.parquet"))
    )
    t = pq.read_table(dist_dataset / "part-001.parquet")
    mask = pa.compute.and_(pa.compute.is_in(t["l_shipmode"], pa.array(["AIR", "MAIL"])), t["l_comment"].is_null())
    expected = t.filter(mask)
    got = sorted(r.l_orderkey for r in df.select("l_orderkey").collect())
    assert got == sorted(expected["l_orderkey"].to_pylist()) and len(got) > 0


def test_missing_path_and_bad_filter_fail(spark, dist_dataset):
    with pytest.raises(Exception, match="needs a path"):
        spark.read.format("parq").load().schema
    with pytest.raises(Exception, match="no column 'nope'"):
        spark.read.format("parq").option("filter", "nope > 1").load(str(dist_dataset)).count()


def test_type_mapping():
    s = parq.spark.spark_type
    assert s(pa.uint8()) == T.ShortType() and s(pa.uint32()) == T.LongType()
    assert s(pa.uint64()) == T.DecimalType(20, 0)
    assert s(pa.timestamp("us", tz="UTC")) == T.TimestampType()
    assert s(pa.timestamp("us")) == T.TimestampNTZType()
    assert s(pa.timestamp("ns")) == T.TimestampNTZType()
    assert s(pa.timestamp("ns"), int96=True) == T.TimestampType()
    assert s(pa.map_(pa.string(), pa.list_(pa.int32()))) == T.MapType(
        T.StringType(), T.ArrayType(T.IntegerType(), True), True
    )
    assert s(pa.struct([("a", pa.decimal128(38, 3))])) == T.StructType([T.StructField("a", T.DecimalType(38, 3))])
    with pytest.raises(parq.UnsupportedError, match="precision 40"):
        s(pa.decimal256(40, 2))
    with pytest.raises(parq.UnsupportedError, match="column big"):
        parq.spark.spark_schema(pa.schema([("big", pa.decimal256(50, 0))]))
