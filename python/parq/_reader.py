"""Reading: ParquetFile, read_table, and the metadata as Python objects."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _filters
from ._crypto import decryption_dict
from ._errors import InvalidArgumentError
from ._parq import RecordBatchReader, Schema, Table, _File

Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, Any]
Filter = Union[None, str, Sequence[Any]]
# URLs' settings by name: access_key_id, secret_access_key, session_token, region,
# endpoint (endpoint_url), path_style, anonymous (S3; the aws_ prefixed names of Polars
# are accepted too), max_concurrent_requests, max_retries, connect_timeout_ms,
# stall_timeout_ms, request_timeout_ms, verify_tls, ca_file, ...: parq/io/remote.h's
# RemoteOptions. Unset ones come from the environment and the AWS files.
StorageOptions = Optional[Mapping[str, Any]]

DEFAULT_BATCH_ROWS = 64 * 1024


def _default_threads() -> int:
    return max(1, os.cpu_count() or 1)


def _threads(threads: Optional[int], use_threads: Optional[bool]) -> int:
    if threads is not None:
        if isinstance(threads, bool) or not isinstance(threads, int):
            raise InvalidArgumentError(f"threads must be an int, not {threads!r}")
        return threads
    if use_threads is False:
        return 1
    return _default_threads()


def _open(source: Source, storage_options: StorageOptions = None, decryption: Any = None) -> _File:
    keys = decryption_dict(decryption)
    if isinstance(source, (str, os.PathLike)):
        # A missing file comes back as ParqFileNotFoundError: the library
        # names the path in the error's location (_errors._from_parq).
        return _File.open_path(os.fsdecode(os.fspath(source)), storage_options, keys)
    if storage_options is not None:
        raise InvalidArgumentError("storage_options apply to URLs, not to data in memory")
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _File.open_bytes(bytes(source), keys)
    if hasattr(source, "read"):
        return _File.open_bytes(source.read(), keys)
    raise TypeError(f"a source is a path, bytes or a binary file object, not {type(source).__name__}")


@dataclass(frozen=True)
class Statistics:
    """A column chunk's statistics as stored: ``min`` and ``max`` are the raw bytes of the
    physical values (plain encoding), ``None`` when absent."""

    null_count: Optional[int]
    distinct_count: Optional[int]
    nan_count: Optional[int]
    min: Optional[bytes]
    max: Optional[bytes]
    is_min_exact: Optional[bool]
    is_max_exact: Optional[bool]

    @property
    def has_min_max(self) -> bool:
        """Whether both bounds are present."""
        return self.min is not None and self.max is not None


@dataclass(frozen=True)
class ColumnChunkMetaData:
    """One column chunk of a row group, as the footer describes it."""

    path_in_schema: Optional[str]
    physical_type: Optional[str]
    compression: Optional[str]
    encodings: Tuple[str, ...]
    num_values: int
    total_compressed_size: int
    total_uncompressed_size: int
    data_page_offset: int
    dictionary_page_offset: Optional[int]
    index_page_offset: Optional[int]
    bloom_filter_offset: Optional[int]
    bloom_filter_length: Optional[int]
    offset_index_offset: Optional[int]
    offset_index_length: Optional[int]
    column_index_offset: Optional[int]
    column_index_length: Optional[int]
    file_offset: int
    encrypted: bool
    statistics: Optional[Statistics]
    page_encoding_stats: Tuple[Tuple[str, str, int], ...]

    @property
    def has_dictionary_page(self) -> bool:
        """Whether the chunk starts with a dictionary page."""
        return self.dictionary_page_offset is not None

    @property
    def has_offset_index(self) -> bool:
        """Whether the chunk has an offset index (the page index's page locations)."""
        return self.offset_index_offset is not None

    @property
    def has_column_index(self) -> bool:
        """Whether the chunk has a column index (the page index's per-page statistics)."""
        return self.column_index_offset is not None

    @property
    def has_bloom_filter(self) -> bool:
        """Whether the chunk has a bloom filter."""
        return self.bloom_filter_offset is not None

    @property
    def is_stats_set(self) -> bool:
        """Whether the chunk has statistics."""
        return self.statistics is not None

    @classmethod
    def _from(cls, d: Dict[str, Any]) -> "ColumnChunkMetaData":
        s = d.get("statistics")
        return cls(
            path_in_schema=d.get("path_in_schema"),
            physical_type=d.get("physical_type"),
            compression=d.get("compression"),
            encodings=tuple(d.get("encodings", ())),
            num_values=d.get("num_values", 0),
            total_compressed_size=d.get("total_compressed_size", 0),
            total_uncompressed_size=d.get("total_uncompressed_size", 0),
            data_page_offset=d.get("data_page_offset", 0),
            dictionary_page_offset=d.get("dictionary_page_offset"),
            index_page_offset=d.get("index_page_offset"),
            bloom_filter_offset=d.get("bloom_filter_offset"),
            bloom_filter_length=d.get("bloom_filter_length"),
            offset_index_offset=d.get("offset_index_offset"),
            offset_index_length=d.get("offset_index_length"),
            column_index_offset=d.get("column_index_offset"),
            column_index_length=d.get("column_index_length"),
            file_offset=d.get("file_offset", 0),
            encrypted=d.get("encrypted", False),
            statistics=Statistics(**s) if s is not None else None,
            page_encoding_stats=tuple(tuple(e) for e in d.get("page_encoding_stats", ())),
        )


@dataclass(frozen=True)
class RowGroupMetaData:
    """One row group: its size and its column chunks."""

    num_rows: int
    total_byte_size: int
    total_compressed_size: Optional[int]
    file_offset: Optional[int]
    ordinal: Optional[int]
    sorting_columns: Tuple[Tuple[int, bool, bool], ...]
    columns: Tuple[ColumnChunkMetaData, ...]

    @property
    def num_columns(self) -> int:
        """The number of column chunks."""
        return len(self.columns)

    def column(self, i: int) -> ColumnChunkMetaData:
        """The ``i``-th column chunk."""
        return self.columns[i]

    @classmethod
    def _from(cls, d: Dict[str, Any]) -> "RowGroupMetaData":
        return cls(
            num_rows=d["num_rows"],
            total_byte_size=d["total_byte_size"],
            total_compressed_size=d["total_compressed_size"],
            file_offset=d["file_offset"],
            ordinal=d["ordinal"],
            sorting_columns=tuple(tuple(s) for s in d["sorting_columns"]),
            columns=tuple(ColumnChunkMetaData._from(c) for c in d["columns"]),
        )


@dataclass(frozen=True)
class FileMetaData:
    """A file's footer: row counts, writer, schema, key-value metadata and row groups.

    ``key_value_metadata`` maps keys to values as text (UTF-8, undecodable bytes kept as
    surrogate escapes); ``raw_key_value_metadata`` keeps the pairs as bytes, in order."""

    num_rows: int
    num_row_groups: int
    num_columns: int
    format_version: int
    created_by: Optional[str]
    schema: str = field(repr=False)
    raw_key_value_metadata: Tuple[Tuple[bytes, Optional[bytes]], ...]
    row_groups: Tuple[RowGroupMetaData, ...] = field(repr=False)

    @property
    def key_value_metadata(self) -> Dict[str, Optional[str]]:
        """The key-value metadata as a dict of text (later keys win)."""

        def text(b: Optional[bytes]) -> Optional[str]:
            return None if b is None else b.decode("utf-8", "surrogateescape")

        return {text(k): text(v) for k, v in self.raw_key_value_metadata}  # type: ignore[misc]

    @property
    def metadata(self) -> Dict[bytes, Optional[bytes]]:
        """The key-value metadata as bytes, as pyarrow's ``FileMetaData.metadata`` gives it."""
        return dict(self.raw_key_value_metadata)

    def row_group(self, i: int) -> RowGroupMetaData:
        """The ``i``-th row group."""
        return self.row_groups[i]

    @property
    def row_group_sizes(self) -> List[int]:
        """Rows in each row group."""
        return [g.num_rows for g in self.row_groups]

    @classmethod
    def _from(cls, d: Dict[str, Any]) -> "FileMetaData":
        return cls(
            num_rows=d["num_rows"],
            num_row_groups=d["num_row_groups"],
            num_columns=d["num_columns"],
            format_version=d["format_version"],
            created_by=d["created_by"],
            schema=d["schema"],
            raw_key_value_metadata=tuple(tuple(kv) for kv in d["key_value_metadata"]),  # type: ignore[misc]
            row_groups=tuple(RowGroupMetaData._from(g) for g in d["row_groups"]),
        )


@dataclass(frozen=True)
class ColumnSchema:
    """A leaf column of a Parquet schema."""

    path: str
    physical_type: str
    type_length: int
    logical_type: str
    repetition: str
    max_definition_level: int
    max_repetition_level: int


@dataclass(frozen=True)
class ParquetSchema:
    """A file's Parquet schema: ``str(schema)`` is the message notation of ``parq schema``;
    ``columns`` lists the leaves."""

    text: str
    columns: Tuple[ColumnSchema, ...]

    @property
    def names(self) -> List[str]:
        """The dotted paths of the leaf columns."""
        return [c.path for c in self.columns]

    def column(self, i: int) -> ColumnSchema:
        """The ``i``-th leaf column."""
        return self.columns[i]

    def __len__(self) -> int:
        return len(self.columns)

    def __str__(self) -> str:
        return self.text


class ParquetFile:
    """An open Parquet file; opening reads only its footer.

    ``source`` is a path (``str`` or ``os.PathLike``; the file is memory-mapped), bytes-like
    data, or a binary file object (read whole into memory). Reads started from the file
    (``iter_batches``) keep it open on their own, so they outlive ``close()`` and the object.
    A URL (``http(s)://``, ``s3://``) is read with ranged requests; ``storage_options``
    configures them (see ``read_table``). ``decryption`` (a ``parq.Decryption`` or a dict
    of its fields) gives the keys of an encrypted file.
    """

    def __init__(self, source: Source, *, threads: Optional[int] = None,
                 storage_options: StorageOptions = None, decryption: Any = None) -> None:
        self._file = _open(source, storage_options, decryption)
        self._threads = threads
        self._metadata: Optional[FileMetaData] = None

    @property
    def metadata(self) -> FileMetaData:
        """The footer as a FileMetaData."""
        if self._metadata is None:
            self._metadata = FileMetaData._from(self._file.metadata())
        return self._metadata

    @property
    def schema(self) -> ParquetSchema:
        """The Parquet schema."""
        return ParquetSchema(
            self._file.schema_text(), tuple(ColumnSchema(**c) for c in self._file.leaf_columns())
        )

    @property
    def schema_arrow(self) -> Schema:
        """The Arrow schema of a read of every column (it has ``__arrow_c_schema__``)."""
        return self._file.arrow_schema(None)

    @property
    def num_rows(self) -> int:
        """Rows in the file."""
        return self._file.num_rows

    @property
    def num_row_groups(self) -> int:
        """Row groups in the file."""
        return self._file.num_row_groups

    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called."""
        return self._file.closed

    def iter_batches(
        self,
        batch_size: int = DEFAULT_BATCH_ROWS,
        row_groups: Optional[Sequence[int]] = None,
        columns: Optional[Sequence[str]] = None,
        filter: Filter = None,
        threads: Optional[int] = None,
        *,
        use_threads: Optional[bool] = None,
        memory_limit: int = 0,
        verify_crc: bool = True,
        unshred_variants: bool = False,
    ) -> RecordBatchReader:
        """Reads the file batch by batch.

        Returns a RecordBatchReader: iterate it for RecordBatch objects of at most
        ``batch_size`` rows, or hand it to an Arrow consumer (``__arrow_c_stream__``).
        ``columns`` are dotted paths (a group's path selects its subtree), ``row_groups``
        indices in the order to read, ``filter`` a text in ``parq cat --where`` syntax or
        pyarrow's list of ``(column, op, value)`` tuples (or a list of such lists: OR of
        ANDs). ``threads`` decode column chunks in parallel (default: one per CPU;
        ``use_threads=False``: one). ``memory_limit`` bounds the bytes the read holds at
        once (0: no limit). ``verify_crc=False`` reads pages whose checksum does not match
        instead of raising CorruptFileError. ``unshred_variants=True`` returns each VARIANT
        column as a struct of ``metadata`` and ``value`` with whole values, shredded ones
        rebuilt (the default returns the columns the file stores)."""
        return self._file.read_batches(
            _columns(columns),
            _filters.normalize(filter),
            _row_groups(row_groups),
            _threads(threads if threads is not None else self._threads, use_threads),
            batch_size,
            memory_limit,
            verify_crc,
            unshred_variants,
        )

    def read(
        self,
        columns: Optional[Sequence[str]] = None,
        filter: Filter = None,
        row_groups: Optional[Sequence[int]] = None,
        threads: Optional[int] = None,
        batch_rows: Optional[int] = None,
        *,
        use_threads: Optional[bool] = None,
        memory_limit: int = 0,
        verify_crc: bool = True,
        unshred_variants: bool = False,
    ) -> Table:
        """Reads the file (or the chosen columns, rows and row groups) into a Table.
        The arguments are those of ``iter_batches``."""
        return self._file.read_table(
            _columns(columns),
            _filters.normalize(filter),
            _row_groups(row_groups),
            _threads(threads if threads is not None else self._threads, use_threads),
            batch_rows if batch_rows is not None else DEFAULT_BATCH_ROWS,
            memory_limit,
            verify_crc,
            unshred_variants,
        )

    def read_row_group(
        self, i: int, columns: Optional[Sequence[str]] = None, threads: Optional[int] = None, **kwargs: Any
    ) -> Table:
        """Reads one row group into a Table."""
        return self.read(columns=columns, row_groups=[i], threads=threads, **kwargs)

    def read_row_groups(
        self, row_groups: Sequence[int], columns: Optional[Sequence[str]] = None, threads: Optional[int] = None,
        **kwargs: Any
    ) -> Table:
        """Reads the given row groups, in that order, into a Table."""
        return self.read(columns=columns, row_groups=row_groups, threads=threads, **kwargs)

    def close(self) -> None:
        """Releases the file; reads in progress keep it open until they end."""
        self._file.close()

    def __enter__(self) -> "ParquetFile":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        if self.closed:
            return "<parq.ParquetFile (closed)>"
        return f"<parq.ParquetFile {self._file.name!r}: {self.num_rows} rows in {self.num_row_groups} row groups>"


def _columns(columns: Optional[Sequence[str]]) -> Optional[List[str]]:
    if columns is None:
        return None
    if isinstance(columns, str):
        raise InvalidArgumentError("columns is a list of column paths, not one string")
    return [".".join(c) if isinstance(c, (tuple, list)) else c for c in columns]


def _row_groups(row_groups: Optional[Sequence[int]]) -> Optional[List[int]]:
    if row_groups is None:
        return None
    return [int(g) for g in row_groups]


def read_table(
    source: Source,
    columns: Optional[Sequence[str]] = None,
    filter: Filter = None,
    row_groups: Optional[Sequence[int]] = None,
    threads: Optional[int] = None,
    batch_rows: Optional[int] = None,
    *,
    filters: Filter = None,
    use_threads: Optional[bool] = None,
    memory_limit: int = 0,
    verify_crc: bool = True,
    storage_options: StorageOptions = None,
    partition_types: Optional[Mapping[str, str]] = None,
    unshred_variants: bool = False,
    decryption: Any = None,
) -> Table:
    """Reads a Parquet file into a Table.

    ``source`` is a path or URL, bytes-like data or a binary file object; or several
    files (a folder, a glob, a list, a ``_metadata`` file: see ``Dataset``). ``columns`` are dotted
    paths; ``filter`` (or pyarrow's name, ``filters``) a text in ``parq cat --where``
    syntax or a list of ``(column, op, value)`` tuples (AND), or a list of such lists (OR
    of ANDs), with ops ``=``, ``==``, ``!=``, ``<``, ``<=``, ``>``, ``>=``, ``in``,
    ``not in``; ``row_groups`` indices; ``threads`` decoding threads (default one per
    CPU); ``batch_rows`` rows per record batch (65536); ``memory_limit`` bytes the read
    may hold at once (0: no limit); ``verify_crc=False`` accepts pages whose checksum
    does not match. ``storage_options`` configures URLs: ``{"endpoint":
    "http://127.0.0.1:9000", "region": "eu-west-1", "access_key_id": ..., "secret_access_key":
    ...}`` for S3 (Polars' ``aws_`` names work too), timeouts, retries and concurrency
    (``max_concurrent_requests``, ``max_retries``, ``request_timeout_ms``, ...); what is
    unset comes from the environment and the AWS config files. ``partition_types``
    declares the types of a dataset's partition columns (see ``Dataset``).
    ``unshred_variants=True`` returns VARIANT columns whole (see ``ParquetFile.iter_batches``;
    one file only). ``decryption`` gives the keys of encrypted files (``parq.Decryption``)."""
    if filter is not None and filters is not None:
        raise InvalidArgumentError("give filter or filters, not both")
    from ._dataset import Dataset, is_dataset_source

    if is_dataset_source(source):
        if unshred_variants:
            raise NotImplementedError("unshred_variants reads one file; datasets do not take it yet")
        if row_groups is not None:
            raise InvalidArgumentError("row_groups names row groups of one file, not of a dataset")
        the_filter = filter if filter is not None else filters
        return Dataset(source, threads=threads, filter=the_filter, storage_options=storage_options,
                       partition_types=partition_types, decryption=decryption).to_table(
            columns=columns,
            filter=the_filter,
            threads=threads,
            batch_rows=batch_rows,
            use_threads=use_threads,
            memory_limit=memory_limit,
            verify_crc=verify_crc,
        )
    if partition_types is not None:
        raise InvalidArgumentError("partition_types apply to datasets (folders, globs, lists), not to one file")
    f = ParquetFile(source, storage_options=storage_options, decryption=decryption)
    try:
        return f.read(
            columns=columns,
            filter=filter if filter is not None else filters,
            row_groups=row_groups,
            threads=threads,
            batch_rows=batch_rows,
            use_threads=use_threads,
            memory_limit=memory_limit,
            verify_crc=verify_crc,
            unshred_variants=unshred_variants,
        )
    finally:
        f.close()


def read_metadata(source: Source, *, storage_options: StorageOptions = None, decryption: Any = None) -> FileMetaData:
    """The footer of a Parquet file."""
    with ParquetFile(source, storage_options=storage_options, decryption=decryption) as f:
        return f.metadata


def read_schema(source: Source, *, storage_options: StorageOptions = None, decryption: Any = None) -> ParquetSchema:
    """The Parquet schema of a file."""
    with ParquetFile(source, storage_options=storage_options, decryption=decryption) as f:
        return f.schema


def iter_batches(source: Source, *, storage_options: StorageOptions = None, decryption: Any = None,
                 **kwargs: Any) -> RecordBatchReader:
    """Opens a file and reads it batch by batch (the arguments of ``ParquetFile.iter_batches``).
    The returned reader keeps the file open until it ends."""
    f = ParquetFile(source, storage_options=storage_options, decryption=decryption)
    try:
        return f.iter_batches(**kwargs)
    finally:
        f.close()
