"""The pyarrow side of the GEOMETRY interop test (tests/geo/geo_interop_test.cc).

``write OUT``: writes deterministic WKB geometries (every type, XY/XYZ/XYM/
XYZM, both byte orders, empties, NaN coordinates, nested collections, nulls)
(each row group in its own band of X) as a ``geoarrow.wkb`` column, which pyarrow stores as GEOMETRY with
GeospatialStatistics, in row groups of 50 rows.

``stats FILE``: prints, as JSON, the GeospatialStatistics pyarrow reads from
each row group's ``geometry`` chunk (null where a chunk has none).
"""

from __future__ import annotations

import json
import math
import random
import struct
import sys

import pyarrow as pa
import pyarrow.parquet as pq


class WkbType(pa.ExtensionType):
    def __init__(self):
        super().__init__(pa.binary(), "geoarrow.wkb")

    def __arrow_ext_serialize__(self):
        return b"{}"

    @classmethod
    def __arrow_ext_deserialize__(cls, storage_type, serialized):
        return WkbType()


def geometry(rnd: random.Random, lo: float, depth: int = 0) -> bytes:
    big = rnd.random() < 0.3
    order = ">" if big else "<"
    dims = rnd.randrange(4)
    ncoord = 2 + (dims in (1, 3)) + (dims in (2, 3))
    kind = rnd.randrange(1, 8) if depth < 2 else rnd.randrange(1, 4)

    def header(t: int) -> bytes:
        return struct.pack(order + "BI", 0 if big else 1, dims * 1000 + t)

    def coords() -> bytes:
        v = [round(rnd.uniform(lo, lo + 30), 3), round(rnd.uniform(-80, 80), 3)]
        v += [round(rnd.uniform(-1000, 1000), 2) for _ in range(ncoord - 2)]
        if rnd.random() < 0.05:
            v[rnd.randrange(ncoord)] = math.nan
        return struct.pack(order + "d" * ncoord, *v)

    def points(n: int) -> bytes:
        return struct.pack(order + "I", n) + b"".join(coords() for _ in range(n))

    def single(t: int) -> bytes:
        if t == 1:
            if rnd.random() < 0.1:  # POINT EMPTY
                return header(1) + struct.pack(order + "d" * ncoord, *([math.nan] * ncoord))
            return header(1) + coords()
        if t == 2:
            return header(2) + points(rnd.randrange(0, 4))
        rings = rnd.randrange(0, 3)
        return header(3) + struct.pack(order + "I", rings) + b"".join(points(rnd.randrange(0, 5)) for _ in range(rings))

    if kind <= 3:
        return single(kind)
    n = rnd.randrange(0, 3)
    if kind == 7:
        # Parts of a collection share its dimensions; built with the same
        # generator state, they may use the other byte order.
        parts = []
        for _ in range(n):
            sub = random.Random(rnd.random())
            while True:
                g = geometry(sub, lo, depth + 1)
                code = struct.unpack((">" if g[0] == 0 else "<") + "I", g[1:5])[0]
                if code // 1000 == dims:
                    parts.append(g)
                    break
        return header(7) + struct.pack(order + "I", n) + b"".join(parts)
    return header(kind) + struct.pack(order + "I", n) + b"".join(single(kind - 3) for _ in range(n))


def write(path: str) -> None:
    rnd = random.Random(7)
    # Row group k's X lie in [45 k - 170, 45 k - 140], so that boxes prune.
    values = [None if rnd.random() < 0.1 else geometry(rnd, 45 * (i // 50) - 170) for i in range(400)]
    # A row group whose every value is a point near (10, 10), for pruning.
    values[350:400] = [struct.pack("<BIdd", 1, 1, 10 + i / 100, 10) for i in range(50)]
    arr = pa.ExtensionArray.from_storage(WkbType(), pa.array(values, pa.binary()))
    table = pa.table({"id": pa.array(range(len(values)), pa.int64()), "geometry": arr})
    pq.write_table(table, path, row_group_size=50)


def stats(path: str) -> None:
    f = pq.ParquetFile(path)
    col = f.schema_arrow.get_field_index("geometry")
    out = []
    for g in range(f.metadata.num_row_groups):
        c = f.metadata.row_group(g).column(col)
        if not c.is_geo_stats_set:
            out.append(None)
            continue
        s = c.geo_statistics
        out.append(
            {
                "types": list(s.geospatial_types or []),
                "bbox": [s.xmin, s.xmax, s.ymin, s.ymax, s.zmin, s.zmax, s.mmin, s.mmax],
                "logical": str(f.schema.column(col).logical_type),
            }
        )
    print(json.dumps(out))


if __name__ == "__main__":
    pa.register_extension_type(WkbType())
    {"write": write, "stats": stats}[sys.argv[1]](sys.argv[2])
