"""The multi-file dataset the distributed-engine tests read: lineitem-like rows
(integers, doubles, decimals, strings, dates, nulls) written by parq.

PARQ_DIST_ROWS sets the total rows (600,000 by default; the issue's full run
is PARQ_DIST_ROWS=6000000) and PARQ_DIST_FILES the files (4); row groups hold
PARQ_DIST_ROW_GROUP rows (50,000), so that every file has several and the
splits cut inside files. The rows are random but seeded: a run is
reproducible, and the expected answers always come from another reader.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path
from typing import List

DIST_ROWS = int(os.environ.get("PARQ_DIST_ROWS", "600000"))
DIST_FILES = int(os.environ.get("PARQ_DIST_FILES", "4"))
DIST_ROW_GROUP = int(os.environ.get("PARQ_DIST_ROW_GROUP", "50000"))

RETURN_FLAGS = ["A", "N", "R"]
LINE_STATUS = ["F", "O"]
SHIP_MODES = ["AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"]
WORDS = ["carefully", "final", "deposits", "quickly", "ironic", "packages", "sleep", "furiously", "regular"]

# The job's filter, in parq's text form and as the date it compares with.
SHIP_CUTOFF = datetime.date(1998, 9, 2)
FILTER_TEXT = "l_shipdate <= DATE '1998-09-02' AND l_quantity > 5"


def reference_filter(batch):
    """FILTER_TEXT in pyarrow's compute functions, for the engines' own readers."""
    import pyarrow as pa
    import pyarrow.compute as pc

    mask = pc.and_(pc.less_equal(batch["l_shipdate"], pa.scalar(SHIP_CUTOFF)), pc.greater(batch["l_quantity"], 5))
    return batch.filter(mask)


def _cents(cents, null):
    """A decimal(4,2) array of ``cents`` hundredths, built from its 128-bit unscaled
    values in one go (a Decimal object per row is slow at millions of rows)."""
    import numpy as np
    import pyarrow as pa

    words = np.zeros((len(cents), 2), dtype=np.int64)
    words[:, 0] = cents  # little-endian low word; the values are non-negative
    valid = pa.array(~null).buffers()[1]
    return pa.Array.from_buffers(pa.decimal128(4, 2), len(cents), [valid, pa.py_buffer(words.tobytes())])


def _table(rows: int, first_key: int, seed: int):
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    rng = np.random.default_rng(seed)
    orderkey = np.arange(first_key, first_key + rows, dtype=np.int64)
    quantity = rng.integers(1, 51, rows).astype(np.int64)
    quantity_null = rng.random(rows) < 0.02
    price = np.round(rng.uniform(900.0, 105000.0, rows), 2)
    discount_cents = rng.integers(0, 11, rows)
    discount_null = rng.random(rows) < 0.05
    ship = rng.integers(0, 2526, rows).astype(np.int32) + (datetime.date(1992, 1, 2) - datetime.date(1970, 1, 1)).days
    flags = np.array(RETURN_FLAGS)[rng.integers(0, len(RETURN_FLAGS), rows)]
    status = np.array(LINE_STATUS)[rng.integers(0, len(LINE_STATUS), rows)]
    modes = np.array(SHIP_MODES)[rng.integers(0, len(SHIP_MODES), rows)]
    words = np.array(WORDS)
    comment = pc.binary_join_element_wise(
        pa.array(words[rng.integers(0, len(words), rows)]),
        pa.array(words[rng.integers(0, len(words), rows)]),
        " ",
    )
    comment_null = pa.array(rng.random(rows) < 0.1)
    return pa.table(
        {
            "l_orderkey": pa.array(orderkey),
            "l_partkey": pa.array(rng.integers(1, 200001, rows).astype(np.int32)),
            "l_quantity": pa.array(quantity, mask=quantity_null),
            "l_extendedprice": pa.array(price),
            "l_discount": _cents(discount_cents, discount_null),
            "l_returnflag": pa.array(flags),
            "l_linestatus": pa.array(status),
            "l_shipdate": pa.array(ship, type=pa.int32()).cast(pa.date32()),
            "l_shipmode": pa.array(modes),
            "l_comment": pc.if_else(comment_null, pa.scalar(None, pa.string()), comment),
        }
    )


def write_dataset(directory: Path, rows: int = DIST_ROWS, files: int = DIST_FILES) -> List[Path]:
    """Writes ``files`` files of about ``rows / files`` rows each into ``directory``
    with parq, v1 and v2 pages and two codecs alternating; returns their paths."""
    import parq

    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    per_file = max(1, rows // files)
    for i in range(files):
        n = per_file if i < files - 1 else rows - per_file * (files - 1)
        path = directory / f"part-{i:03d}.parquet"
        parq.write_table(
            _table(n, 1 + i * per_file, seed=1000 + i),
            str(path),
            row_group_rows=DIST_ROW_GROUP,
            codec="zstd" if i % 2 == 0 else "snappy",
            page_version=1 + i % 2,
        )
        paths.append(path)
    return paths
