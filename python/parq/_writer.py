"""Writing: write_table and the streaming ParquetWriter.

Data comes in through the Arrow PyCapsule interface: anything with
``__arrow_c_stream__`` (pyarrow Table and RecordBatchReader, polars and pandas
DataFrames, DuckDB relations, parq's own Table) or ``__arrow_c_array__``
(pyarrow and parq RecordBatch). Writer options are those of ``parq rewrite``
as keywords, with pyarrow's common names accepted too.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple, Union

from ._crypto import encryption_dict
from ._errors import InvalidArgumentError
from ._parq import _write_stream, _Writer

Where = Union[str, "os.PathLike[str]"]

# parq's option names, each with the type the extension expects.
_OPTIONS = (
    "encryption",
    "codec",
    "compression_level",
    "page_version",
    "dictionary",
    "dictionary_bytes",
    "dictionary_entries",
    "encoding",
    "fallback",
    "row_group_rows",
    "row_group_bytes",
    "page_bytes",
    "page_rows",
    "bloom_filter",
    "bloom_fpp",
    "statistics",
    "page_index",
    "crc",
    "min_saving",
    "max_statistics_bytes",
    "threads",
    "key_value_metadata",
    "created_by",
    "checkpoint",
)

# pyarrow's names for the same settings.
_ALIASES = {
    "compression": "codec",
    "row_group_size": "row_group_rows",
    "data_page_size": "page_bytes",
    "data_page_version": "page_version",
    "use_dictionary": "dictionary",
    "dictionary_pagesize_limit": "dictionary_bytes",
    "write_statistics": "statistics",
    "write_page_index": "page_index",
    "write_page_checksum": "crc",
    "column_encoding": "encoding",
    "metadata": "key_value_metadata",
}


def _path(where: Where) -> str:
    if isinstance(where, (str, os.PathLike)):
        return os.fsdecode(os.fspath(where))
    raise TypeError(f"a destination is a path (str or os.PathLike), not {type(where).__name__}")


def _int(name: str, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise InvalidArgumentError(f"{name} takes an int, not {v!r}")
    return v


_SWITCH_WORDS = ("on", "true", "1", "off", "false", "0")


def _bool(name: str, v: Any) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.lower() in _SWITCH_WORDS:
        return v.lower() in ("on", "true", "1")
    raise InvalidArgumentError(f"{name} takes a bool, not {v!r}")


def _columns(name: str, v: Any) -> List[str]:
    if isinstance(v, str):
        return [v]
    if isinstance(v, Iterable):
        out = [".".join(c) if isinstance(c, (tuple, list)) else c for c in v]
        if all(isinstance(c, str) for c in out):
            return out
    raise InvalidArgumentError(f"{name} takes a column path or a list of them, not {v!r}")


def _by_column(name: str, v: Any) -> Dict[str, str]:
    if not isinstance(v, Mapping) or not all(isinstance(k, str) and isinstance(e, str) for k, e in v.items()):
        raise InvalidArgumentError(f"{name} takes a dict of column path to encoding name, not {v!r}")
    return dict(v)


def _as_bytes(name: str, v: Any) -> bytes:
    if isinstance(v, str):
        return v.encode("utf-8", "surrogateescape")
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v)
    raise InvalidArgumentError(f"{name} keys and values are str or bytes, not {v!r}")


def _codec(v: Any) -> str:
    if v is None:
        return "uncompressed"
    if not isinstance(v, str):
        raise InvalidArgumentError(f"codec takes a name such as 'zstd' or 'zstd:9', not {v!r}")
    return v


def writer_options(kwargs: Mapping[str, Any]) -> Dict[str, Any]:
    """Checks and normalizes writer keywords into what the extension takes.

    Every option of ``parq rewrite``, by its name with ``_`` for ``-``:
    ``codec`` (``"zstd"``, ``"zstd:9"``, ... or a dict of column to codec),
    ``compression_level``, ``page_version`` (1 or 2), ``dictionary`` (bool,
    ``"always"`` to keep dictionaries that the writer would otherwise drop
    after a chunk's second page for a smaller fallback, or a list of the
    columns to dictionary-encode), ``dictionary_bytes``, ``dictionary_entries``,
    ``encoding`` ({column: encoding}), ``fallback`` ({column: encoding}),
    ``row_group_rows``, ``row_group_bytes``, ``page_bytes``, ``page_rows``,
    ``bloom_filter`` (columns), ``bloom_fpp``, ``statistics`` (bool or columns),
    ``page_index``, ``crc``, ``min_saving``, ``max_statistics_bytes``, ``threads``,
    ``key_value_metadata`` (a dict of str or bytes), ``created_by``, ``encryption``
    (a ``parq.Encryption`` or a dict of its fields) and ``checkpoint`` (row groups as
    an int, or ``"64MiB"``, ``"30s"``: the file is written in place with
    checkpoints that ``parq.recover`` recovers a crashed write from). pyarrow's names
    work too: ``compression``, ``row_group_size``, ``data_page_size``,
    ``data_page_version`` ("1.0"/"2.0"), ``use_dictionary``,
    ``dictionary_pagesize_limit``, ``write_statistics``, ``write_page_index``,
    ``write_page_checksum``, ``column_encoding`` and ``metadata``.
    """
    given: Dict[str, Any] = {}
    for key, value in kwargs.items():
        name = _ALIASES.get(key, key)
        if name not in _OPTIONS:
            raise TypeError(f"unknown writer option '{key}'")
        if name in given:
            raise InvalidArgumentError(f"writer option '{name}' given twice (as '{key}' too)")
        given[name] = value

    out: Dict[str, Any] = {}
    for name, v in given.items():
        if v is None and name not in ("codec",):
            continue
        if name == "codec":
            if isinstance(v, Mapping):
                out["column_codecs"] = {str(c): _codec(x) for c, x in v.items()}
            else:
                out["codec"] = _codec(v)
        elif name == "page_version":
            if isinstance(v, str) and v in ("1.0", "2.0", "1", "2"):
                v = int(float(v))
            out[name] = _int(name, v)
        elif name == "dictionary":
            if isinstance(v, str) and v.lower() == "always":
                out["dictionary"] = True
                out["weigh_dictionary"] = False
            elif isinstance(v, bool) or (isinstance(v, str) and v.lower() in _SWITCH_WORDS):
                out[name] = _bool(name, v)
            else:
                out["dictionary"] = False
                out["column_dictionary"] = {c: True for c in _columns(name, v)}
        elif name == "statistics":
            if isinstance(v, bool):
                out[name] = v
            else:
                out["statistics"] = False
                out["column_statistics"] = {c: True for c in _columns(name, v)}
        elif name in ("page_index", "crc"):
            out[name] = _bool(name, v)
        elif name in ("encoding", "fallback"):
            out[name] = _by_column(name, v)
        elif name == "bloom_filter":
            out[name] = _columns(name, v)
        elif name in ("bloom_fpp", "min_saving"):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise InvalidArgumentError(f"{name} takes a number, not {v!r}")
            out[name] = float(v)
        elif name == "key_value_metadata":
            if not isinstance(v, Mapping):
                raise InvalidArgumentError(f"key_value_metadata takes a dict, not {v!r}")
            pairs: List[Tuple[bytes, Optional[bytes]]] = []
            for k, x in v.items():
                pairs.append((_as_bytes(name, k), None if x is None else _as_bytes(name, x)))
            out[name] = pairs
        elif name == "encryption":
            out[name] = encryption_dict(v)
        elif name == "checkpoint":
            if isinstance(v, bool) or not isinstance(v, (int, str)):
                raise InvalidArgumentError(f"checkpoint takes row groups (an int) or a str such as '64MiB' or '30s', not {v!r}")
            out[name] = str(v)
        elif name == "created_by":
            if not isinstance(v, str):
                raise InvalidArgumentError(f"created_by takes a str, not {v!r}")
            out[name] = v
        else:
            out[name] = _int(name, v)
    return out


def _schema_capsule(schema: Any) -> Any:
    if hasattr(schema, "__arrow_c_schema__"):
        return schema.__arrow_c_schema__()
    raise TypeError(
        "a schema is an object with __arrow_c_schema__ (pyarrow.Schema, parq.Schema, ...), "
        f"not {type(schema).__name__}"
    )


def _arrow_data(data: Any) -> Tuple[str, Any]:
    """('stream', capsule) or ('array', (schema, array)) for anything Arrow can describe."""
    if hasattr(data, "__arrow_c_stream__"):
        return "stream", data.__arrow_c_stream__()
    if hasattr(data, "__arrow_c_array__"):
        return "array", data.__arrow_c_array__()
    # Older DuckDB relations and other producers without the protocol.
    for method in ("to_arrow_table", "arrow", "to_arrow"):
        if callable(getattr(data, method, None)):
            converted = getattr(data, method)()
            if hasattr(converted, "__arrow_c_stream__"):
                return "stream", converted.__arrow_c_stream__()
    raise TypeError(
        "data to write has __arrow_c_stream__ or __arrow_c_array__ (a pyarrow Table or RecordBatch, a polars, "
        f"pandas or DuckDB frame, a parq Table...), not {type(data).__name__}"
    )


def write_table(data: Any, where: Where, **options: Any) -> int:
    """Writes ``data`` (anything with ``__arrow_c_stream__`` or ``__arrow_c_array__``) as a
    Parquet file at ``where``, with the writer options of ``writer_options``. The file
    appears only once complete: a write that fails leaves the path as it was. Returns the
    number of rows written."""
    path = _path(where)
    opts = writer_options(options)
    kind, capsules = _arrow_data(data)
    if kind == "stream":
        return _write_stream(path, capsules, opts)
    schema, array = capsules
    w = _Writer(path, schema, opts)
    try:
        w.write_array(schema, array)
        w.close()
    finally:
        if not w.closed:
            w.abort()
    return w.num_rows


class ParquetWriter:
    """Writes a Parquet file batch by batch.

    ``schema`` is an object with ``__arrow_c_schema__`` (a ``pyarrow.Schema``, a
    ``parq.Schema``...); every batch or table written must have that schema. Options are
    those of ``writer_options``. The file appears at ``where`` only when ``close()``
    succeeds; a writer left unclosed, a failed write, or leaving a ``with`` block by an
    exception abandons it, and the path stays as it was.
    """

    def __init__(self, where: Where, schema: Any, **options: Any) -> None:
        self.where = _path(where)
        self._writer = _Writer(self.where, _schema_capsule(schema), writer_options(options))

    def write(self, data: Any) -> None:
        """Appends the rows of a table, batch or stream (anything with ``__arrow_c_stream__``
        or ``__arrow_c_array__``)."""
        kind, capsules = _arrow_data(data)
        if kind == "stream":
            self._writer.write_stream(capsules)
        else:
            self._writer.write_array(*capsules)

    def write_table(self, table: Any) -> None:
        """Appends the rows of a table (same as ``write``)."""
        self.write(table)

    def write_batch(self, batch: Any) -> None:
        """Appends the rows of a record batch (same as ``write``)."""
        self.write(batch)

    def close(self) -> None:
        """Writes the footer and makes the file appear under its name."""
        self._writer.close()

    def abort(self) -> None:
        """Abandons the file: nothing appears at the path."""
        self._writer.abort()

    @property
    def num_rows(self) -> int:
        """Rows written so far."""
        return self._writer.num_rows

    @property
    def closed(self) -> bool:
        """Whether the writer is closed, failed or aborted."""
        return self._writer.closed

    @property
    def schema(self) -> str:
        """The Parquet schema being written, in ``parq schema`` notation."""
        return self._writer.schema_text

    def __enter__(self) -> "ParquetWriter":
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is not None:
            if not self.closed:
                self.abort()
        elif not self.closed:
            self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{self.num_rows} rows so far"
        return f"<parq.ParquetWriter {self.where!r}: {state}>"

