"""Exceptions raised by parq.

Every failure of the C++ library carries a kind, which picks the exception
class, and a location, whose known fields become attributes. Each class also
derives from the builtin exception a Python caller would expect, so code that
catches ``OSError`` or ``ValueError`` keeps working:

================  =========================  ==========================
kind              class                      builtin base
================  =========================  ==========================
``io``            ParqIOError                OSError
                  ParqFileNotFoundError      FileNotFoundError
``corrupt``       CorruptFileError           ValueError
``invalid_argument`` InvalidArgumentError    ValueError
``unsupported``   UnsupportedError           NotImplementedError
``limit``         LimitError                 MemoryError
================  =========================  ==========================
"""

from __future__ import annotations

import errno
import os
from typing import Optional


class ParqError(Exception):
    """Base class of parq's exceptions.

    Attributes:
        kind: ``"corrupt"``, ``"invalid_argument"``, ``"io"``, ``"unsupported"`` or ``"limit"``.
        detail: the message without the location.
        file: the file's path (``None`` when unknown).
        row_group: the row group's index, or ``None``.
        column: the dotted path of the column, or ``None``.
        page: the page's ordinal in its column chunk, or ``None``.
        offset: a byte offset in the file, or ``None``.
    """

    kind: str = "corrupt"
    detail: str = ""
    file: Optional[str] = None
    row_group: Optional[int] = None
    column: Optional[str] = None
    page: Optional[int] = None
    offset: Optional[int] = None


class CorruptFileError(ParqError, ValueError):
    """The bytes are not valid Parquet, or not what their metadata says."""

    kind = "corrupt"


class InvalidArgumentError(ParqError, ValueError):
    """The caller asked for something that cannot be: an unknown column, a bad option or filter."""

    kind = "invalid_argument"


class ParqIOError(ParqError, OSError):
    """The system failed to open, read, write, sync or rename a file."""

    kind = "io"


class ParqFileNotFoundError(ParqIOError, FileNotFoundError):
    """A file to read does not exist."""


class UnsupportedError(ParqError, NotImplementedError):
    """Valid Parquet that needs what parq does not have (a key for an encrypted column)."""

    kind = "unsupported"


class LimitError(ParqError, MemoryError):
    """A limit the caller set (``memory_limit``) is too small for the data."""

    kind = "limit"


_BY_KIND = {
    "corrupt": CorruptFileError,
    "invalid_argument": InvalidArgumentError,
    "io": ParqIOError,
    "unsupported": UnsupportedError,
    "limit": LimitError,
}


def _from_parq(
    kind: str,
    message: str,
    detail: str,
    file: Optional[str],
    row_group: Optional[int],
    column: Optional[str],
    page: Optional[int],
    offset: Optional[int],
) -> ParqError:
    """Builds the exception for a parq::Error (called by the extension)."""
    cls = _BY_KIND.get(kind, CorruptFileError)
    if cls is ParqIOError and file is not None and not os.path.lexists(file):
        exc: ParqError = ParqFileNotFoundError(errno.ENOENT, message)
        exc.filename = file  # type: ignore[attr-defined]
    else:
        exc = cls(message)
    exc.kind = kind
    exc.detail = detail
    exc.file = file
    exc.row_group = row_group
    exc.column = column
    exc.page = page
    exc.offset = offset
    return exc
