"""parq: Apache Parquet for Python on parq's C++ engine.

Reading returns Arrow data through the Arrow PyCapsule interface, so pyarrow,
polars, pandas and DuckDB take it without copying fixed-width buffers::

    import parq, pyarrow, polars, duckdb

    t = parq.read_table("data.parquet", columns=["id", "name"], filter=[("id", ">", 10)])
    pyarrow.table(t)            # or polars.DataFrame(t), duckdb.sql("SELECT * FROM t")

    with parq.ParquetFile("data.parquet") as f:
        print(f.metadata.num_rows, f.schema)
        for batch in f.iter_batches(batch_size=10_000):
            ...

    parq.write_table(t, "copy.parquet", codec="zstd:9", page_version=2)

Errors are ParqError subclasses that are also the builtin exceptions one would
expect: OSError for I/O, ValueError for corrupt files and bad arguments,
NotImplementedError for what parq cannot do (an encrypted column without its key), MemoryError
for a memory limit too small.

``plan_splits`` cuts files into runs of row groups for parallel reads; the
modules parq.dask, parq.ray and parq.spark read through it in those engines
(each imported on its own, with its engine installed).
"""

from ._errors import (
    CorruptFileError,
    InvalidArgumentError,
    LimitError,
    ParqError,
    ParqFileNotFoundError,
    ParqIOError,
    UnsupportedError,
)
from . import _parq
from ._parq import RecordBatch, RecordBatchReader, Schema, Table, variant_to_json
from ._reader import (
    ColumnChunkMetaData,
    ColumnSchema,
    FileMetaData,
    ParquetFile,
    ParquetSchema,
    RowGroupMetaData,
    Statistics,
    iter_batches,
    read_metadata,
    read_schema,
    read_table,
)
from ._crypto import Decryption, Encryption, InMemoryKms, rotate_master_keys
from ._writer import ParquetWriter, write_table, writer_options
from ._file_tools import concat, merge, recover, split, verify
from ._dataset import Dataset, dataset, write_dataset
from .splits import Split, plan_splits
from ._filters import to_text as filter_to_text

# The C++ library's version (PARQ_VERSION), which the package shares.
__version__: str = getattr(_parq, "__version__")

__all__ = [
    "ColumnChunkMetaData",
    "ColumnSchema",
    "CorruptFileError",
    "Dataset",
    "Decryption",
    "Encryption",
    "FileMetaData",
    "InMemoryKms",
    "InvalidArgumentError",
    "LimitError",
    "ParqError",
    "ParqFileNotFoundError",
    "ParqIOError",
    "ParquetFile",
    "ParquetSchema",
    "ParquetWriter",
    "RecordBatch",
    "RecordBatchReader",
    "RowGroupMetaData",
    "Schema",
    "Split",
    "Statistics",
    "Table",
    "UnsupportedError",
    "filter_to_text",
    "iter_batches",
    "plan_splits",
    "read_metadata",
    "read_schema",
    "read_table",
    "recover",
    "rotate_master_keys",
    "variant_to_json",
    "write_table",
    "writer_options",
    "__version__",
    "concat",
    "merge",
    "split",
    "verify",
    "dataset",
    "write_dataset",
]
