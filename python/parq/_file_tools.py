"""File tools: recovery of a file cut short, verification of every page,
concatenation and splitting of files by copying their row groups as they are,
and merging by re-encoding (the library's file/recover.h, file/verify.h,
file/row_group_copy.h and file/merge.h, as `parq recover`, `parq verify`,
`parq concat`, `parq split` and `parq merge` run them)."""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from ._crypto import decryption_dict
from ._errors import InvalidArgumentError
from ._parq import _concat, _merge, _recover, _split, _verify
from ._writer import writer_options

Where = Union[str, "os.PathLike[str]"]


def _path(where: Where) -> str:
    if isinstance(where, (str, os.PathLike)):
        return os.fsdecode(os.fspath(where))
    raise TypeError(f"a path is a str or os.PathLike, not {type(where).__name__}")


def recover(broken: Where, out: Where, *, schema: Optional[Where] = None, scan: bool = True) -> Dict[str, Any]:
    """Recovers a Parquet file cut short (a killed writer, a full disk) into ``out``,
    written atomically: the row groups its newest checkpoint lists (files written
    with ``checkpoint=``), then those whose pages past it are all there, found by
    scanning page headers. ``schema``: a Parquet file written like ``broken``, whose
    schema and codecs scan a file without checkpoints; ``scan=False`` stops at the
    checkpoint. Returns what was recovered: ``rows``, ``checkpoint_row_groups``,
    ``scanned_row_groups``, ``bytes_kept``, ``bytes_lost``, ``whole`` (nothing was
    missing), ``found_checkpoint`` and ``scan_stopped`` (why the scan stopped)."""
    return _recover(_path(broken), _path(out), None if schema is None else _path(schema), bool(scan))


def verify(path: Where, *, columns: Optional[Sequence[str]] = None, decryption: Any = None) -> List[Dict[str, Any]]:
    """Reads every page of a file and checks it against itself: CRCs, sizes,
    decompression, levels and values, dictionary indexes, counts, statistics and
    the page index against the values, offsets and bloom filters against the
    file. Returns the problems, each a dict of ``file``, ``row_group``, ``column``,
    ``page``, ``offset`` (None where unknown), ``problem`` (expected against
    found) and ``text`` (one line); empty for a sound file. ``columns`` limits the
    page checks to those leaves; ``decryption`` as for ``read_table``."""
    cols = None if columns is None else [str(c) for c in columns]
    dec = None if decryption is None else decryption_dict(decryption)
    return _verify(_path(path), cols, dec)


def concat(inputs: Iterable[Where], out: Where) -> Dict[str, Any]:
    """Writes the row groups of ``inputs``, in order, to ``out`` (atomically) by
    copying their column chunks byte for byte, with statistics, page indexes and
    bloom filters; nothing is decoded. The schemas must match (the error names the
    first input that differs and how). Returns ``rows``, ``row_groups`` and
    ``without_statistics`` (inputs by another writer than the first, whose chunk
    statistics were left out)."""
    return _concat([_path(i) for i in inputs], _path(out))


def merge(inputs: Iterable[Where], out: Where, **options: Any) -> Dict[str, Any]:
    """Writes the rows of ``inputs``, in order, to ``out`` (atomically; it may be
    one of the inputs), re-encoded into new row groups with the writer options
    of ``write_table`` as keywords (``row_group_rows=``, ``codec=``, ...). Unlike
    ``concat``, inputs by any writer join, and the output takes this writer's
    encodings. The schemas must match (the error names the first input that
    differs and how). The output keeps the first input's key-value metadata
    unless ``key_value_metadata`` is given. Returns ``rows`` and ``row_groups``."""
    paths = [_path(i) for i in inputs]
    return _merge(paths, _path(out), writer_options(options))


def split(
    source: Where,
    outdir: Where,
    *,
    rows: Optional[int] = None,
    bytes: Optional[int] = None,
    row_groups: Optional[int] = None,
) -> Dict[str, Any]:
    """Cuts ``source`` into pieces ``outdir/part-00000.parquet``, ... of ``rows``
    rows, about ``bytes`` stored bytes or ``row_groups`` row groups each (give
    exactly one). Row groups wholly inside a piece are copied byte for byte with
    their statistics, page indexes and bloom filters; the rows of one cut by a
    piece's edge are re-encoded. Each piece is written atomically; pieces of an
    earlier split beyond this one's last are removed afterwards, so ``outdir``
    reads as ``source``. Returns ``pieces`` (each a dict of ``path``, ``rows``,
    ``row_groups``) and ``removed`` (stale pieces deleted)."""
    given = {k: v for k, v in (("rows", rows), ("bytes", bytes), ("row_groups", row_groups)) if v is not None}
    if len(given) != 1:
        raise InvalidArgumentError("split: give exactly one of rows=, bytes=, row_groups=")
    ((name, n),) = given.items()
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidArgumentError(f"split: {name} takes an int of at least 1, not {n!r}")
    return _split(_path(source), _path(outdir), rows or 0, bytes or 0, row_groups or 0)
