"""Datasets: many Parquet files (folders, globs, lists, URLs, a ``_metadata`` file) read
as one table, and partitioned folders written."""

from __future__ import annotations

import os
from typing import Any, List, Mapping, Optional, Sequence, Union

from ._errors import InvalidArgumentError
from ._parq import RecordBatchReader, Schema, Table, _Dataset, _is_dataset_location, _write_dataset
from ._reader import DEFAULT_BATCH_ROWS, Filter, StorageOptions, _columns, _threads
from ._writer import Where, _arrow_data, _path, writer_options

Locations = Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]


def _locations(source: Locations) -> List[str]:
    if isinstance(source, (str, os.PathLike)):
        return [os.fsdecode(os.fspath(source))]
    if isinstance(source, (list, tuple)):
        if not source:
            raise InvalidArgumentError("a dataset needs at least one location")
        return [os.fsdecode(os.fspath(s)) for s in source]
    raise TypeError(f"a dataset's source is a path, URL, glob or a list of them, not {type(source).__name__}")


def is_dataset_source(source: Any) -> bool:
    """Whether ``source`` names several files: a list, or a location the library reads
    as a dataset (a folder, a glob, a ``_metadata`` file, a URL prefix ending in '/')."""
    if isinstance(source, (list, tuple)):
        return True
    if not isinstance(source, (str, os.PathLike)):
        return False
    return _is_dataset_location(os.fsdecode(os.fspath(source)))


class Dataset:
    """Many Parquet files read as one table.

    ``source`` is a path, URL (``http(s)://``, ``s3://``), folder (every file below it,
    leaving out names starting with '_' or '.'), glob (``'data/**/*.parquet'``), a list of
    these, or a ``_metadata`` summary file. Folders named ``key=value`` become columns
    (``hive=False`` turns that off); columns are matched by name (``by_field_id=True``:
    by field id), a column a file lacks reads as nulls, INT32 widens to INT64 and FLOAT
    to DOUBLE. Opening reads every footer (on ``threads`` threads), except those of files
    whose partition values rule out ``filter``; reads open only the files whose partition
    values and statistics their filter leaves rows in.

    ``partition_types`` declares partition columns' types by key, in the schema notation
    (``{"year": "int32", "day": "date", "code": "string"}``); the others are inferred
    (INT64, DATE or STRING). ``storage_options`` configures URLs (see ``read_table``).
    ``decryption`` gives the keys of encrypted files (``parq.Decryption``; with
    ``kms_config``, each file's key material is found in it or beside it).
    """

    def __init__(
        self,
        source: Locations,
        *,
        hive: bool = True,
        by_field_id: bool = False,
        threads: Optional[int] = None,
        filter: Filter = None,
        partition_types: Optional[Mapping[str, str]] = None,
        storage_options: StorageOptions = None,
        decryption: Any = None,
    ) -> None:
        from . import _filters
        from ._crypto import decryption_dict

        types = []
        for key, type_text in (partition_types or {}).items():
            if not isinstance(key, str) or not isinstance(type_text, str):
                raise InvalidArgumentError(
                    f"partition_types maps keys to type texts such as 'int32', not {key!r}: {type_text!r}")
            types.append((key, type_text))
        self._dataset = _Dataset.open(
            _locations(source), bool(hive), bool(by_field_id), _threads(threads, None), _filters.normalize(filter),
            storage_options, types, decryption_dict(decryption)
        )

    @property
    def files(self) -> List[str]:
        """The files, in reading order."""
        return self._dataset.files

    @property
    def partition_columns(self) -> List[str]:
        """Columns taken from ``key=value`` folders."""
        return self._dataset.partition_columns

    @property
    def num_rows(self) -> int:
        return self._dataset.num_rows

    @property
    def schema(self) -> str:
        """The united Parquet schema in message notation (partition columns last)."""
        return self._dataset.schema_text()

    @property
    def schema_arrow(self) -> Schema:
        return self._dataset.arrow_schema(None)

    def count_rows(self, filter: Filter = None, threads: Optional[int] = None) -> int:
        """Rows that match ``filter`` (every row without one, from the footers)."""
        from . import _filters

        return self._dataset.count_rows(_filters.normalize(filter), _threads(threads, None))

    def _args(self, columns, filter, threads, batch_rows, memory_limit, verify_crc, file_name_column,
              row_index_column, use_threads):
        from . import _filters

        return (
            _columns(columns),
            _filters.normalize(filter),
            _threads(threads, use_threads),
            DEFAULT_BATCH_ROWS if batch_rows is None else int(batch_rows),
            int(memory_limit),
            bool(verify_crc),
            file_name_column or "",
            row_index_column or "",
        )

    def to_batches(
        self,
        columns: Optional[Sequence[str]] = None,
        filter: Filter = None,
        threads: Optional[int] = None,
        batch_rows: Optional[int] = None,
        *,
        memory_limit: int = 0,
        verify_crc: bool = True,
        file_name_column: Optional[str] = None,
        row_index_column: Optional[str] = None,
        use_threads: Optional[bool] = None,
    ) -> RecordBatchReader:
        """The rows as a RecordBatchReader (the arguments of ``to_table``)."""
        return self._dataset.read_batches(
            *self._args(columns, filter, threads, batch_rows, memory_limit, verify_crc, file_name_column,
                        row_index_column, use_threads))

    def to_table(
        self,
        columns: Optional[Sequence[str]] = None,
        filter: Filter = None,
        threads: Optional[int] = None,
        batch_rows: Optional[int] = None,
        *,
        memory_limit: int = 0,
        verify_crc: bool = True,
        file_name_column: Optional[str] = None,
        row_index_column: Optional[str] = None,
        use_threads: Optional[bool] = None,
    ) -> Table:
        """Reads the rows into a Table: ``columns`` and ``filter`` as for ``read_table``
        (partition columns included); ``file_name_column`` adds each row's file,
        ``row_index_column`` its index in that file."""
        return self._dataset.read_table(
            *self._args(columns, filter, threads, batch_rows, memory_limit, verify_crc, file_name_column,
                        row_index_column, use_threads))

    def __repr__(self) -> str:
        return f"<parq.Dataset: {len(self.files)} files, {self.num_rows} rows>"


def dataset(source: Locations, **kwargs: Any) -> Dataset:
    """Opens a dataset (see ``Dataset``)."""
    return Dataset(source, **kwargs)


def write_dataset(
    data: Any,
    where: Where,
    *,
    partition_by: Optional[Sequence[str]] = None,
    max_rows_per_file: int = 0,
    max_bytes_per_file: int = 0,
    summary: bool = False,
    **options: Any,
) -> List[str]:
    """Writes ``data`` (anything with ``__arrow_c_stream__``) into the folder ``where``:
    rows go to ``key=value`` folders by the ``partition_by`` columns (which the files then
    leave out), a file ends after ``max_rows_per_file`` rows or about
    ``max_bytes_per_file`` bytes, ``summary=True`` adds ``_metadata`` and
    ``_common_metadata``. Each file appears only once complete. Other options are those
    of ``write_table``. Returns the files written."""
    kind, capsules = _arrow_data(data)
    if kind != "stream":
        raise InvalidArgumentError("write_dataset takes a table or stream (__arrow_c_stream__), not a single array")
    by = [] if partition_by is None else ([partition_by] if isinstance(partition_by, str) else list(partition_by))
    return _write_dataset(
        _path(where), capsules, writer_options(options), by, int(max_rows_per_file), int(max_bytes_per_file),
        bool(summary)
    )
