"""Ray Data: a datasource whose read tasks parq runs, a few splits each.

    import parq.ray
    ds = parq.ray.read_parquet("lineitem/", columns=["l_returnflag", "l_quantity"],
                               filter="l_shipdate <= DATE '1998-09-02'")
    ds.groupby("l_returnflag").sum("l_quantity").take_all()

Planning reads only footers (``parq.plan_splits``); each task opens its files
and reads its row groups with parq, filter and projection included, and hands
Ray pyarrow tables. ``Dataset.select_columns`` after the read is pushed down
into parq's projection. Needs ray[data] (``pip install parq[ray]``).
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence

from ray.data import Dataset, read_datasource
from ray.data.block import BlockMetadata
from ray.data.datasource import Datasource, ReadTask

from ._reader import Filter, ParquetFile, _columns
from .splits import DEFAULT_TARGET_BYTES, Sources, Split, arrow_schema, plan_splits

__all__ = ["ParqDatasource", "read_parquet"]


class _ReadSplits:
    """A read task's work: a class, not a closure, so that it pickles small and by
    reference to this module."""

    def __init__(self, splits: List[Split], columns: Optional[List[str]], filter: Filter, threads: int) -> None:
        self.splits = splits
        self.columns = columns
        self.filter = filter
        self.threads = threads

    def __call__(self) -> Iterator[Any]:
        import pyarrow as pa

        for split in self.splits:
            yield pa.table(split.read(columns=self.columns, filter=self.filter, threads=self.threads))


def _group(splits: List[Split], groups: int) -> List[List[Split]]:
    """``splits`` in at most ``groups`` runs of consecutive splits, each closed once it
    holds its share of the bytes left, so that the tasks come out about even."""
    if groups >= len(splits):
        return [[s] for s in splits]
    out: List[List[Split]] = []
    left = sum(max(s.bytes, 1) for s in splits)
    current: List[Split] = []
    size = 0
    for i, s in enumerate(splits):
        current.append(s)
        size += max(s.bytes, 1)
        groups_left = groups - len(out)
        splits_left = len(splits) - i - 1
        # Close when the share is reached, or when every remaining split must
        # start a group of its own to use the groups asked for.
        if groups_left > 1 and (size * groups_left >= left or splits_left < groups_left):
            out.append(current)
            left -= size
            current, size = [], 0
    if current:
        out.append(current)
    return out


class ParqDatasource(Datasource):
    """The Parquet files of ``sources`` (a path, a list of paths, or a directory of
    ``*.parquet`` files) as a Ray datasource.

    ``columns`` (dotted paths) and ``filter`` (the forms of ``parq.read_table``) are
    applied by parq in each read task. The files are cut into splits of about
    ``target_bytes`` compressed bytes (``parq.plan_splits``); a read with less
    parallelism than splits gives each task a run of consecutive splits. ``threads``
    decode each split (one: Ray already runs a task per core). The dataset's schema
    is the first file's; the files must share it."""

    def __init__(
        self,
        sources: Sources,
        columns: Optional[Sequence[str]] = None,
        filter: Filter = None,
        target_bytes: int = DEFAULT_TARGET_BYTES,
        *,
        threads: int = 1,
    ) -> None:
        import pyarrow as pa

        super().__init__()
        self._projection_map: Optional[Dict[str, str]] = None
        self._sources = sources
        self._columns = _columns(columns)
        self._filter = filter
        self._target_bytes = target_bytes
        self._threads = threads
        self._splits = plan_splits(sources, target_bytes, self._columns)
        self._schema = pa.schema(arrow_schema(sources, self._columns))
        self._memory = self._inmemory_sizes(self._splits, self._columns)

    @staticmethod
    def _inmemory_sizes(splits: List[Split], columns: Optional[List[str]]) -> Dict[Split, int]:
        # The uncompressed sizes of the chunks read: closer to the decoded size
        # than the compressed bytes that steer the splits.
        sizes: Dict[Split, int] = {}
        by_file: Dict[str, Any] = {}
        for s in splits:
            if s.path not in by_file:
                with ParquetFile(s.path) as f:
                    by_file[s.path] = f.metadata
            meta = by_file[s.path]
            total = 0
            for g in s.row_groups:
                for c in meta.row_groups[g].columns:
                    p = c.path_in_schema or ""
                    if columns is None or any(p == x or p.startswith(x + ".") for x in columns):
                        total += c.total_uncompressed_size
            sizes[s] = total
        return sizes

    @property
    def splits(self) -> List[Split]:
        """The splits the read tasks share out."""
        return list(self._splits)

    def get_name(self) -> str:
        return "Parq"

    def supports_projection_pushdown(self) -> bool:
        return True

    def _read_columns(self) -> Optional[List[str]]:
        """The columns a task reads: those asked for, narrowed by a projection Ray
        pushed down (top-level names)."""
        projected = self.get_projection_map()
        if projected is None:
            return self._columns
        if self._columns is None:
            return [name for name in self._schema.names if name in projected]
        return [c for c in self._columns if c.split(".")[0] in projected]

    def estimate_inmemory_data_size(self) -> Optional[int]:
        return sum(self._memory.values())

    def get_read_tasks(
        self, parallelism: int, per_task_row_limit: Optional[int] = None, data_context: Any = None
    ) -> List[ReadTask]:
        columns = self._read_columns()
        schema = self._schema
        if columns != self._columns:
            import pyarrow as pa

            schema = pa.schema(arrow_schema(self._sources, columns))
        tasks = []
        groups = parallelism if parallelism and parallelism > 0 else len(self._splits)
        for group in _group(self._splits, groups):
            meta = BlockMetadata(
                # A filter's rows are unknown until read.
                num_rows=sum(s.rows for s in group) if self._filter is None else None,
                size_bytes=sum(self._memory[s] for s in group),
                input_files=tuple(sorted({s.path for s in group})),
                exec_stats=None,
            )
            tasks.append(
                ReadTask(
                    _ReadSplits(group, columns, self._filter, self._threads),
                    meta,
                    schema=schema,
                    per_task_row_limit=per_task_row_limit,
                )
            )
        return tasks


def read_parquet(
    sources: Sources,
    columns: Optional[Sequence[str]] = None,
    filter: Filter = None,
    target_bytes: int = DEFAULT_TARGET_BYTES,
    *,
    threads: int = 1,
    **read_args: Any,
) -> Dataset:
    """A Ray Dataset of the Parquet files of ``sources`` read by parq (see
    ParqDatasource); other keyword arguments go to ``ray.data.read_datasource``
    (``override_num_blocks``, ``concurrency``, ``ray_remote_args``, ...)."""
    return read_datasource(
        ParqDatasource(sources, columns=columns, filter=filter, target_bytes=target_bytes, threads=threads),
        **read_args,
    )
