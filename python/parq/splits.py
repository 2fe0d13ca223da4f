"""Splits: a dataset's row groups cut into units of parallel work for engines
(Dask partitions, Ray read tasks, Spark input partitions).

A split is a run of consecutive whole row groups of one file, of about
``target_bytes`` compressed bytes of the columns a read fetches; a row group
larger than the target is a split of its own. Splits are small picklable
values: an engine plans them on its driver and ships them to its workers,
each of which opens the file and reads its row groups with ``Split.read``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Iterable, List, Optional, Sequence, Union

from ._errors import InvalidArgumentError
from ._parq import Schema, Table
from ._reader import Filter, ParquetFile, _columns

#: The default size of a split: a common HDFS block and Spark's default
#: ``spark.sql.files.maxPartitionBytes``.
DEFAULT_TARGET_BYTES = 128 * 1024 * 1024

PathLike = Union[str, "os.PathLike[str]"]
Sources = Union[PathLike, Sequence[PathLike]]


@dataclass(frozen=True)
class Split:
    """Row groups ``[row_group_begin, row_group_end)`` of the file at ``path``: ``rows``
    rows and ``bytes`` compressed bytes of the column chunks a read of the planned
    columns fetches."""

    path: str
    row_group_begin: int
    row_group_end: int
    rows: int
    bytes: int

    @property
    def row_groups(self) -> range:
        """The indices of the split's row groups."""
        return range(self.row_group_begin, self.row_group_end)

    def read(
        self,
        columns: Optional[Sequence[str]] = None,
        filter: Filter = None,
        threads: Optional[int] = 1,
        **kwargs: Any,
    ) -> Table:
        """Reads the split's row groups into a Table.

        ``columns`` and ``filter`` are those of ``parq.read_table``; ``threads`` defaults
        to one, since an engine already runs one split per core. Other keyword
        arguments go to ``ParquetFile.read`` (``batch_rows``, ``memory_limit``, ...)."""
        with ParquetFile(self.path) as f:
            return f.read(columns=columns, filter=filter, row_groups=self.row_groups, threads=threads, **kwargs)


def source_paths(sources: Sources) -> List[str]:
    """The files ``sources`` names: a path, a list of paths, or directories (every
    ``*.parquet`` file below one, in sorted order). Names starting with ``.`` or ``_``
    are skipped inside directories, as Spark and Hive write their markers and
    checksums under such names (``_SUCCESS``, ``.part-0.parquet.crc``)."""
    if isinstance(sources, (str, os.PathLike)):
        items: Iterable[PathLike] = [sources]
    else:
        items = sources
    paths: List[str] = []
    for item in items:
        path = os.fsdecode(os.fspath(item))
        if os.path.isdir(path):
            found: List[str] = []
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames[:] = [d for d in dirnames if not d.startswith((".", "_"))]
                found.extend(
                    os.path.join(dirpath, n)
                    for n in filenames
                    if n.endswith(".parquet") and not n.startswith((".", "_"))
                )
            paths.extend(sorted(found))
        else:
            paths.append(path)
    if not paths:
        raise InvalidArgumentError(f"no Parquet files in {sources!r}")
    return paths


def plan_splits(
    sources: Sources,
    target_bytes: int = DEFAULT_TARGET_BYTES,
    columns: Optional[Sequence[str]] = None,
) -> List[Split]:
    """Cuts the files of ``sources`` (see ``source_paths``) into splits of about
    ``target_bytes`` compressed bytes each, file by file in order; reading every split
    reads every row once. With ``columns`` (dotted paths; a group's path stands for
    its leaves) only those columns' chunks count. Files without row groups have no
    splits.
    Reads only the footers."""
    if isinstance(target_bytes, bool) or not isinstance(target_bytes, int):
        raise InvalidArgumentError(f"target_bytes must be an int, not {target_bytes!r}")
    cols = _columns(columns)
    splits: List[Split] = []
    for path in source_paths(sources):
        with ParquetFile(path) as f:
            for begin, end, rows, size in f._file.plan_splits(target_bytes, cols):
                splits.append(Split(path, begin, end, rows, size))
    return splits


def arrow_schema(sources: Sources, columns: Optional[Sequence[str]] = None) -> Schema:
    """The Arrow schema a read of ``columns`` of the first file of ``sources`` yields;
    engines take it as the schema of the whole dataset. Reads only the footer."""
    with ParquetFile(source_paths(sources)[0]) as f:
        return f._file.arrow_schema(_columns(columns))
