// The writer settings that the writing commands (rewrite, convert, bench
// write) share, parsed the same way everywhere.
#pragma once

#include <string>
#include <vector>

#include "args.h"
#include "parq/file/file_writer.h"

// The help text of those options, to append to a command's --help (a
// literal, so that help texts stay constants).
#define PARQ_WRITE_OPTIONS_HELP                                                           \
  "Writer options:\n"                                                                     \
  "  --codec NAME[:LEVEL]     uncompressed, snappy (default), gzip, brotli, zstd, lz4,\n" \
  "                           lz4_raw, lzo; e.g. zstd:9\n"                                \
  "  --page-version 1|2       data page version (1 by default)\n"                         \
  "  --dictionary on|off|always  dictionary encoding first (on by default): on\n"         \
  "                           drops a chunk's dictionary after its first page when\n"     \
  "                           the fallback compresses clearly smaller; always keeps\n"    \
  "                           it until the limits below\n"                                \
  "  --dictionary-bytes N     dictionary page limit, after which a column chunk\n"        \
  "                           falls back to its other encoding (1048576)\n"               \
  "  --dictionary-entries N   the same limit in entries (no limit)\n"                     \
  "  --encoding COL=ENC       encoding of COL (a column or group path), without\n"        \
  "                           a dictionary: plain, rle, delta_binary_packed,\n"           \
  "                           delta_length_byte_array, delta_byte_array,\n"               \
  "                           byte_stream_split, alp (FLOAT, DOUBLE; Preview)\n"          \
  "                           (repeatable)\n"                                             \
  "  --fallback COL=ENC       dictionary first for COL, then ENC once the dictionary\n"   \
  "                           is full (repeatable)\n"                                     \
  "  --row-group-rows N       rows per row group (1048576)\n"                             \
  "  --row-group-bytes N      encoded bytes per row group (134217728)\n"                  \
  "  --page-bytes N           encoded bytes per data page (1048576)\n"                    \
  "  --page-rows N            rows per data page (20000; 0: no limit)\n"                  \
  "  --bloom-filter COL       write a bloom filter for COL (repeatable)\n"                \
  "  --bloom-fpp P            their false-positive rate (0.01)\n"                         \
  "  --stats on|off           column chunk and page statistics (on)\n"                    \
  "  --page-index on|off      column and offset indexes (on)\n"                           \
  "  --crc on|off             page checksums (on)\n"                                      \
  "  --float-order total|type order floats by IEEE 754 total order (NaN bounds for\n"     \
  "                           NaN-only pages), or by their type (the default)\n"          \
  "  --min-saving F           store a column's pages without compressing them after\n"    \
  "                           one that compression shrank by less than F (0.125;\n"       \
  "                           0: compress every page)\n"                                  \
  "  --threads N              encode columns on N threads (1)\n"                          \
  "  --checkpoint N|SIZE|TIME write the file in place and append a cumulative footer\n"   \
  "                           every N row groups, SIZE bytes (64MiB) or TIME (30s,\n"     \
  "                           5m), so that 'parq recover' gets back a file cut by a\n"    \
  "                           crash up to its last checkpoint\n"

namespace parq::tool {

// `own` plus --codec, --page-version, --dictionary, --row-group-rows,
// --row-group-bytes, --page-bytes, --page-rows, --dictionary-bytes,
// --dictionary-entries, --encoding and --fallback (repeatable),
// --bloom-filter (repeatable), --bloom-fpp, --stats, --page-index, --crc,
// --min-saving, --threads, --float-order, --checkpoint.
std::vector<OptionSpec> with_write_options(std::vector<OptionSpec> own);

// The WriteOptions those arguments ask for; throws UsageError for a bad
// value. Column names are checked when the writer opens.
WriteOptions parse_write_options(const Args& args);

}  // namespace parq::tool
