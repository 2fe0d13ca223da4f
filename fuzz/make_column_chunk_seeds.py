"""Seeds for column_chunk_fuzz: real column chunks, written by parq and by
pyarrow for each column kind the target knows (in its order) and each codec
and page version they write, each behind the prefix the target reads (kind,
codec, flags, num_rows, num_values). Run from the repository root with the
package installed (python/setup-venv.sh):

    .venv/bin/python fuzz/make_column_chunk_seeds.py fuzz/corpus/column_chunk_fuzz
"""

from __future__ import annotations

import hashlib
import struct
import sys
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

import parq

ROWS = 300
CODECS = {"UNCOMPRESSED": 0, "SNAPPY": 1, "GZIP": 2, "LZO": 3, "BROTLI": 4, "LZ4": 5, "ZSTD": 6, "LZ4_RAW": 7}


def nullable(values):
    return [None if i % 7 == 3 else v for i, v in enumerate(values)]


# Column kinds in column_chunk_fuzz.cc's order.
KINDS = [
    pa.field("c", pa.int32(), nullable=False),
    pa.field("c", pa.int64()),
    pa.field("c", pa.float64()),
    pa.field("c", pa.string()),
    pa.field("c", pa.binary(16)),
    pa.field("c", pa.bool_()),
    pa.field("c", pa.list_(pa.field("element", pa.int32()))),
    pa.field("c", pa.float32()),
]


def column(kind: int) -> pa.Array:
    f = KINDS[kind]
    n = range(ROWS)
    data = {
        0: lambda: list(n),
        1: lambda: nullable([i * 1_000_003 for i in n]),
        2: lambda: nullable([i / 7 if i % 11 else float("nan") for i in n]),
        3: lambda: nullable([f"v{i % 23}" * (i % 5) for i in n]),
        4: lambda: nullable([(i % 13).to_bytes(16, "little") for i in n]),
        5: lambda: nullable([i % 3 == 0 for i in n]),
        6: lambda: nullable([[j for j in range(i % 4)] for i in n]),
        7: lambda: nullable([float(i % 50) for i in n]),
    }[kind]()
    return pa.array(data, f.type)


def seed(path: Path, kind: int, codec: str) -> bytes:
    md = pq.ParquetFile(path).metadata
    c = md.row_group(0).column(0)
    start = c.dictionary_page_offset if c.has_dictionary_page else c.data_page_offset
    chunk = path.read_bytes()[start : start + c.total_compressed_size]
    flags = 0x01 if c.has_dictionary_page else 0
    flags |= 0x02  # check CRCs
    # pyarrow names LZO, which it cannot read, UNKNOWN.
    codec_id = CODECS[c.compression] if c.compression != "UNKNOWN" else CODECS[codec.upper()]
    prefix = bytes([kind, codec_id]) + struct.pack("<BHH", flags, md.num_rows, c.num_values)
    return prefix + chunk


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    with tempfile.TemporaryDirectory() as tmp:
        for kind, field in enumerate(KINDS):
            table = pa.table({"c": column(kind)}, schema=pa.schema([field]))
            runs = []
            for codec in ("uncompressed", "snappy", "gzip", "brotli", "lz4", "zstd", "lz4_raw", "lzo"):
                for version in (1, 2):
                    runs.append(("parq", codec, version))
            for codec in ("none", "snappy", "gzip", "brotli", "lz4", "zstd"):
                for version in ("1.0", "2.0"):
                    runs.append(("pyarrow", codec, version))
            for writer, codec, version in runs:
                path = Path(tmp) / f"{kind}-{writer}-{codec}-{version}.parquet"
                try:
                    if writer == "parq":
                        parq.write_table(table, path, codec=codec, page_version=version, page_rows=64, crc=True)
                    else:
                        pq.write_table(table, path, compression=codec, data_page_version=version,
                                       data_page_size=256, write_page_checksum=True)
                except Exception as e:  # a codec one writer lacks
                    print(f"skipped {path.name}: {e}", file=sys.stderr)
                    continue
                data = seed(path, kind, codec)
                (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
                written += 1
    print(f"{written} seeds in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
