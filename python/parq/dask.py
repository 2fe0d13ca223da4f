"""Dask: a dask DataFrame whose partitions parq reads, one split each.

    import parq.dask
    df = parq.dask.read_parquet("lineitem/", columns=["l_returnflag", "l_quantity"],
                                filter="l_shipdate <= DATE '1998-09-02'")
    df.groupby("l_returnflag").l_quantity.sum().compute()

Planning reads only footers (``parq.plan_splits``); each task opens its file and
reads its row groups with parq, filter and projection included, and converts
the rows to pandas through pyarrow. Needs dask[dataframe] and pyarrow
(``pip install parq[dask]``).
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from ._errors import InvalidArgumentError
from ._reader import Filter
from .splits import DEFAULT_TARGET_BYTES, Sources, Split, arrow_schema, plan_splits

__all__ = ["read_parquet"]


def _pandas_type(t: Any, backend: Optional[str]) -> Any:
    """The pandas dtype of an Arrow type: the same for every partition and for the
    meta, whether or not a partition has nulls (numpy's int64 would turn float64 in
    one that has). None leaves the choice to pyarrow (floats, timestamps, durations
    and dictionaries, which hold nulls as NaN, NaT or a category)."""
    import pandas as pd
    import pyarrow as pa

    if backend == "pyarrow":
        return pd.ArrowDtype(t)
    if pa.types.is_integer(t):
        signed = pa.types.is_signed_integer(t)
        return pd.api.types.pandas_dtype(("Int" if signed else "UInt") + str(t.bit_width))
    if pa.types.is_boolean(t):
        return pd.BooleanDtype()
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return pd.StringDtype("pyarrow")
    if pa.types.is_floating(t) or pa.types.is_timestamp(t) or pa.types.is_duration(t) or pa.types.is_dictionary(t):
        return None
    # Decimals, dates, times, binaries, nested values: numpy has no type for
    # them, and objects would lose the Arrow type.
    return pd.ArrowDtype(t)


def _to_pandas(table: Any, index: Optional[str], backend: Optional[str]) -> Any:
    import pyarrow as pa

    t = pa.table(table)
    types = {f.type: _pandas_type(f.type, backend) for f in t.schema}
    df = t.to_pandas(types_mapper=types.get)
    return df.set_index(index) if index is not None else df


class _ReadSplit:
    """The function each partition runs: a class, not a closure, so that it pickles
    by reference to this module on the way to the workers."""

    def __init__(
        self, columns: Optional[List[str]], filter: Filter, index: Optional[str], backend: Optional[str], threads: int
    ) -> None:
        self.columns = columns
        self.filter = filter
        self.index = index
        self.backend = backend
        self.threads = threads

    def __call__(self, split: Split) -> Any:
        table = split.read(columns=self.columns, filter=self.filter, threads=self.threads)
        return _to_pandas(table, self.index, self.backend)


def read_parquet(
    sources: Sources,
    columns: Optional[Sequence[str]] = None,
    filter: Filter = None,
    target_bytes: int = DEFAULT_TARGET_BYTES,
    index: Optional[str] = None,
    *,
    dtype_backend: Optional[str] = None,
    threads: int = 1,
) -> Any:
    """A dask DataFrame of the Parquet files of ``sources`` (a path, a list of paths,
    or a directory of ``*.parquet`` files), one partition per split of about
    ``target_bytes`` compressed bytes.

    ``columns`` (dotted paths) and ``filter`` (the forms of ``parq.read_table``) are
    applied by parq as each partition is read. ``index`` names a column to make the
    index of every partition (its divisions stay unknown). ``threads`` decode each
    partition (one: Dask already runs a partition per core). The DataFrame's
    ``meta`` comes from the first file's schema, without reading rows; the files
    must share that schema.

    Columns keep one dtype whether or not a partition has nulls: integers and
    booleans are pandas' nullable types (``Int64``, ``boolean``), strings
    ``string[pyarrow]``, floats and timestamps numpy's, and types numpy lacks
    (decimals, dates, times, binaries, lists, structs, maps) ``pd.ArrowDtype``.
    ``dtype_backend="pyarrow"`` makes every column a ``pd.ArrowDtype``."""
    import dask.dataframe as dd
    import pyarrow as pa

    if dtype_backend not in (None, "pyarrow"):
        raise InvalidArgumentError(f"dtype_backend is None or 'pyarrow', not {dtype_backend!r}")
    cols = list(columns) if columns is not None else None
    # Empty with the dtypes a read gives: the same conversion on no rows.
    meta = _to_pandas(pa.schema(arrow_schema(sources, cols)).empty_table(), index, dtype_backend)
    splits = plan_splits(sources, target_bytes, cols)
    if not splits:
        # from_map wants at least one partition; a dataset without rows is one
        # empty partition.
        return dd.from_pandas(meta, npartitions=1)
    return dd.from_map(
        _ReadSplit(cols, filter, index, dtype_backend, threads),
        splits,
        meta=meta,
        label="read-parq",
        enforce_metadata=False,
    )
