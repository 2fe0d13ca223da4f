"""Filters in pyarrow's list-of-tuples form, made ready for the extension.

``[("a", ">", 3), ("b", "in", [1, 2])]`` is a conjunction (AND) of terms;
``[[...], [...]]`` a disjunction (OR) of conjunctions. Each value becomes a
literal of parq's filter language as a ``(kind, text)`` pair, which the
library types by the column's logical type when it binds the filter to the
file, exactly as it types the literals of a ``--where`` text. A text filter
passes through unchanged.
"""

from __future__ import annotations

import datetime
import decimal
import math
import numbers
import uuid
from typing import Any, List, Sequence, Tuple, Union

from ._errors import InvalidArgumentError

LiteralSpec = Tuple[str, str]
TermSpec = Tuple[str, str, List[LiteralSpec]]
FilterSpec = Union[None, str, List[List[TermSpec]]]

_OPERATORS = {"=", "==", "!=", "<", "<=", ">", ">=", "in", "not in"}


def _number(v: float) -> str:
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return repr(float(v))


def _literal(value: Any) -> LiteralSpec:
    """A Python value as a (kind, text) literal."""
    if value is None:
        return ("null", "")
    if isinstance(value, bool):
        return ("bool", "true" if value else "false")
    # numpy's bool_ is not a bool; it names itself so.
    if type(value).__name__ == "bool_":
        return ("bool", "true" if bool(value) else "false")
    if isinstance(value, numbers.Integral):
        return ("number", str(int(value)))
    if isinstance(value, decimal.Decimal):
        if value.is_nan():
            return ("number", "NaN")
        if value.is_infinite():
            return ("number", "Infinity" if value > 0 else "-Infinity")
        return ("number", format(value, "f"))
    if isinstance(value, numbers.Real):
        return ("number", _number(float(value)))
    if isinstance(value, str):
        return ("string", value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return ("binary", bytes(value).hex())
    if isinstance(value, uuid.UUID):
        return ("string", str(value))
    # datetime before date: a datetime is a date.
    if isinstance(value, datetime.datetime):
        return ("timestamp", value.isoformat(sep=" "))
    if isinstance(value, datetime.date):
        return ("date", value.isoformat())
    if isinstance(value, datetime.time):
        if value.utcoffset() is not None:
            raise InvalidArgumentError(f"filter value {value!r}: a time of day with a time zone has no Parquet type")
        return ("time", value.isoformat())
    raise InvalidArgumentError(f"filter value {value!r} of type {type(value).__name__} is not supported")


def _term(term: Any) -> TermSpec:
    if not isinstance(term, (tuple, list)) or len(term) != 3:
        raise InvalidArgumentError(f"a filter term is (column, operator, value), not {term!r}")
    column, op, value = term
    if isinstance(column, (tuple, list)):
        column = ".".join(column)
    if not isinstance(column, str):
        raise InvalidArgumentError(f"a filter's column is a name or a path, not {column!r}")
    if not isinstance(op, str) or op.strip().lower() not in _OPERATORS:
        raise InvalidArgumentError(f"unknown filter operator {op!r} (=, ==, !=, <, <=, >, >=, in, not in)")
    op = " ".join(op.strip().lower().split())
    if op in ("in", "not in"):
        if isinstance(value, (str, bytes, bytearray)) or not hasattr(value, "__iter__"):
            raise InvalidArgumentError(f"'{op}' takes a list of values, not {value!r}")
        return (column, op, [_literal(v) for v in value])
    return (column, op, [_literal(value)])


def normalize(filters: Any) -> FilterSpec:
    """A filter for the extension: None, a text, or a list of conjunctions of terms."""
    if filters is None or isinstance(filters, str):
        return filters
    if not isinstance(filters, (list, tuple)) or len(filters) == 0:
        raise InvalidArgumentError(
            "a filter is a text, a list of (column, op, value) tuples, or a list of such lists; got " + repr(filters)
        )
    if all(isinstance(t, tuple) for t in filters):
        return [[_term(t) for t in filters]]
    if all(isinstance(c, list) for c in filters):
        conjunctions: List[List[TermSpec]] = []
        for c in filters:
            if len(c) == 0:
                raise InvalidArgumentError("a conjunction of a filter is empty")
            conjunctions.append([_term(t) for t in c])
        return conjunctions
    raise InvalidArgumentError(
        "a filter is a list of (column, op, value) tuples, or a list of lists of them; got " + repr(filters)
    )


def to_text(filters: Sequence[Any]) -> str:
    """A filter in parq's SQL-like text, as the library reads it back (for messages and debugging)."""
    from ._parq import _filter_text

    return _filter_text(normalize(filters))
