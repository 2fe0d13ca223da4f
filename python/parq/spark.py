"""Spark: parq as a Python data source of Spark 4, one input partition per split.

    from parq.spark import ParqDataSource
    spark.dataSource.register(ParqDataSource)
    df = (spark.read.format("parq")
          .option("columns", "l_returnflag,l_quantity")
          .option("filter", "l_shipdate <= DATE '1998-09-02'")
          .load("lineitem/"))

Options: ``path`` (what ``load`` takes: a file or a directory of ``*.parquet``
files; ``load`` with a list sets ``paths``), ``columns`` (comma-separated dotted
paths), ``filter`` (``parq cat --where`` text), ``targetBytes`` (the split size,
128 MiB), ``threads`` (decoding threads per partition, 1). Planning reads only
footers; each Python worker reads its split with parq and hands Spark Arrow
record batches. Spark's own ``where`` is not pushed into parq (Python data
sources push filters only with ``spark.sql.python.filterPushdown.enabled``);
give the ``filter`` option to prune row groups and pages.

Types map as Spark's Parquet reader maps the same files: unsigned 8/16/32-bit
integers widen to short/int/long, unsigned 64-bit to decimal(20,0), zone-less
timestamps are TIMESTAMP_NTZ and UTC-adjusted ones TIMESTAMP, INT96 (written by
Spark as an instant) TIMESTAMP. Types Spark lacks (decimals above precision 38,
intervals) raise UnsupportedError when the schema is asked for.

INT96 reaches Python as Arrow's nanoseconds since the epoch, which wrap around
outside 1677-09-21..2262-04-11 (as in pyarrow); Spark's own reader gives the
true instant there. A read meeting such a value fails with UnsupportedError
rather than handing Spark a wrong instant. The check is that the value is a
whole microsecond: every Spark-written INT96 is, and wrapping by 2^64 ns (584
years, 616 ns past a whole microsecond) breaks that for any k wraps not a
multiple of 125, which covers years 1 to 9999 whole (a zone-less TIMESTAMP of
nanoseconds written by others is not checked). Needs pyspark 4 and pyarrow (``pip install parq[spark]``).
"""

from __future__ import annotations

import json
from typing import Any, Iterator, List, Optional, Sequence, Set

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition
from pyspark.sql.pandas.types import to_arrow_schema
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    BooleanType,
    ByteType,
    DataType,
    DateType,
    DayTimeIntervalType,
    DecimalType,
    DoubleType,
    FloatType,
    IntegerType,
    LongType,
    MapType,
    NullType,
    ShortType,
    StringType,
    StructField,
    StructType,
    TimestampNTZType,
    TimestampType,
)

from ._errors import InvalidArgumentError, UnsupportedError
from ._reader import ParquetFile
from .splits import DEFAULT_TARGET_BYTES, Split, arrow_schema, plan_splits, source_paths

__all__ = ["ParqDataSource", "ParqDataSourceReader", "spark_schema", "spark_type"]


def spark_type(t: pa.DataType, int96: bool = False) -> DataType:
    """The Spark type of an Arrow type parq reads; ``int96`` says that zone-less
    nanosecond timestamps below come from INT96, an instant for Spark."""
    if isinstance(t, pa.ExtensionType):
        return spark_type(t.storage_type, int96)
    if pa.types.is_dictionary(t):
        return spark_type(t.value_type, int96)
    simple = [
        (pa.types.is_boolean, BooleanType),
        (pa.types.is_int8, ByteType),
        (pa.types.is_int16, ShortType),
        (pa.types.is_int32, IntegerType),
        (pa.types.is_int64, LongType),
        (pa.types.is_uint8, ShortType),
        (pa.types.is_uint16, IntegerType),
        (pa.types.is_uint32, LongType),
        (pa.types.is_float16, FloatType),
        (pa.types.is_float32, FloatType),
        (pa.types.is_float64, DoubleType),
        (pa.types.is_date32, DateType),
        (pa.types.is_null, NullType),
    ]
    for test, spark in simple:
        if test(t):
            return spark()
    if pa.types.is_uint64(t):
        return DecimalType(20, 0)
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return StringType()
    if (
        pa.types.is_binary(t)
        or pa.types.is_large_binary(t)
        or pa.types.is_binary_view(t)
        or pa.types.is_fixed_size_binary(t)
    ):
        return BinaryType()
    if pa.types.is_decimal(t):
        if t.precision > 38:
            raise UnsupportedError(f"Spark has no decimal of precision {t.precision} (at most 38)")
        return DecimalType(t.precision, t.scale)
    if pa.types.is_timestamp(t):
        if t.tz is not None or (int96 and t.unit == "ns"):
            return TimestampType()
        return TimestampNTZType()
    if pa.types.is_duration(t):
        return DayTimeIntervalType()
    if pa.types.is_time(t):
        from pyspark.sql.types import TimeType

        return TimeType()
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return ArrayType(spark_type(t.value_type, int96), containsNull=True)
    if pa.types.is_map(t):
        return MapType(spark_type(t.key_type, int96), spark_type(t.item_type, int96), valueContainsNull=True)
    if pa.types.is_struct(t):
        return StructType([StructField(f.name, spark_type(f.type, int96), nullable=True) for f in t])
    raise UnsupportedError(f"Spark has no type for Arrow's {t}")


def spark_schema(schema: pa.Schema, int96_columns: Set[str] = frozenset()) -> StructType:  # type: ignore[assignment]
    """The Spark schema of a read whose Arrow schema is ``schema``; ``int96_columns``
    names the top-level columns with INT96 leaves. Every field is nullable."""
    fields = []
    for f in schema:
        try:
            fields.append(StructField(f.name, spark_type(f.type, f.name in int96_columns), nullable=True))
        except UnsupportedError as e:
            raise UnsupportedError(f"column {f.name}: {e}") from None
    return StructType(fields)


def _int96_columns(path: str) -> Set[str]:
    with ParquetFile(path) as f:
        return {c.path.split(".")[0] for c in f.schema.columns if c.physical_type == "INT96"}


class _SplitPartition(InputPartition):
    """One split (picklable, as Spark ships it to a Python worker)."""

    def __init__(self, split: Split) -> None:
        super().__init__(split)
        self.split = split


class ParqDataSourceReader(DataSourceReader):
    """Plans a read as one input partition per split and reads each with parq."""

    def __init__(
        self,
        paths: List[str],
        columns: Optional[List[str]],
        filter: Optional[str],
        target_bytes: int,
        threads: int,
        schema: StructType,
        int96_columns: Set[str] = frozenset(),  # type: ignore[assignment]
    ) -> None:
        self.int96_columns = set(int96_columns)
        self.paths = paths
        self.columns = columns
        self.filter = filter
        self.target_bytes = target_bytes
        self.threads = threads
        self.schema = schema

    def partitions(self) -> List[InputPartition]:
        return [_SplitPartition(s) for s in plan_splits(self.paths, self.target_bytes, self.columns)]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        split: Split = partition.value
        table = pa.table(split.read(columns=self.columns, filter=self.filter, threads=self.threads))
        # Spark accepts only batches of exactly its Arrow form of the schema
        # (names of list items, microseconds, UTC); the cast changes types
        # only where a Spark type is wider (unsigned integers, float16) or a
        # unit coarser (nanoseconds fail unless whole microseconds).
        target = to_arrow_schema(self.schema, timezone="UTC")
        for batch in table.to_batches():
            yield self._cast(batch, target)

    def _cast(self, batch: pa.RecordBatch, target: pa.Schema) -> pa.RecordBatch:
        columns = []
        for i, field in enumerate(target):
            try:
                columns.append(_cast_array(batch.column(i), field.type))
            except pa.ArrowInvalid as e:
                if field.name not in self.int96_columns:
                    raise
                # A wrapped value is almost never a whole microsecond, which
                # is how this shows.
                raise UnsupportedError(
                    f"column {field.name}: an INT96 timestamp outside 1677-09-21..2262-04-11, where the "
                    f"nanoseconds parq converts INT96 to wrap around ({e})"
                ) from None
        return pa.RecordBatch.from_arrays(columns, schema=target)


def _cast_array(a: pa.Array, t: pa.DataType) -> pa.Array:
    if isinstance(a.type, pa.ExtensionType):
        a = a.storage
    # A zone-less timestamp cast to UTC is relabelled, not shifted: right
    # for INT96, which stores the instant's UTC time.
    return a if a.type == t else a.cast(t)


class ParqDataSource(DataSource):
    """The ``parq`` format of ``spark.read``: Parquet files read by parq (see the module
    documentation for the options)."""

    def __init__(self, options: Any) -> None:
        super().__init__(options)
        paths: Sequence[str]
        if options.get("paths"):
            paths = json.loads(options["paths"])
        elif options.get("path"):
            paths = [options["path"]]
        else:
            raise InvalidArgumentError("the parq data source needs a path: spark.read.format('parq').load(path)")
        self.paths = source_paths(list(paths))
        columns = options.get("columns")
        self.columns = [c.strip() for c in columns.split(",") if c.strip()] if columns else None
        self.filter = options.get("filter") or None
        self.target_bytes = int(options.get("targetBytes", DEFAULT_TARGET_BYTES))
        self.threads = int(options.get("threads", 1))

    @classmethod
    def name(cls) -> str:
        return "parq"

    def schema(self) -> StructType:
        return spark_schema(pa.schema(arrow_schema(self.paths, self.columns)), _int96_columns(self.paths[0]))

    def reader(self, schema: StructType) -> DataSourceReader:
        return ParqDataSourceReader(
            self.paths,
            self.columns,
            self.filter,
            self.target_bytes,
            self.threads,
            schema,
            _int96_columns(self.paths[0]),
        )
