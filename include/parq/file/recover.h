// Recovery of a Parquet file cut short: by a crash of its writer, a full
// disk, a copy that stopped.
//
// Two sources, newest first:
//   1. the newest complete checkpoint (file/checkpoint.h) gives every row
//      group it lists, with their statistics, page indexes and bloom filters;
//   2. past it (or past the leading magic, for a file written without
//      checkpoints, given the schema of a file like it), the page headers are
//      scanned forward and every row group whose pages are all there, CRC-valid
//      and consistent with the schema is rebuilt (no statistics, no page index).
// The recovered file is the input's bytes up to the end of the last recovered
// row group, followed by a footer for them, written atomically.
//
// Scanning cannot always tell where one column chunk ends and the next
// begins: pages do not name their column, and a dictionary page is the only
// mark of a chunk's start. Among the splits of a row group into columns that
// give every column the same number of rows and whose pages all decode as
// their column's, the one with the most rows is taken; two adjacent columns
// of one physical type without dictionaries may, in rare layouts, be split
// wrongly. Checkpoints have no such doubt.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "parq/format/metadata.h"
#include "parq/io/input.h"

namespace parq::file {

struct RecoverOptions {
  // The schema to scan pages with when the input has no checkpoint (the
  // footer of a file with the same schema: its schema, column orders and
  // codecs are used). Ignored when a checkpoint is found.
  std::optional<format::FileMetaData> schema_from;
  // Scan pages past the newest checkpoint.
  bool scan_pages = true;
  // A page claiming more uncompressed bytes than this is taken for no page
  // (the scan decompresses each page to check it).
  uint64_t max_page_bytes = uint64_t{1} << 30;
  // Likewise a page claiming more level entries (their decoding holds two
  // bytes an entry).
  int64_t max_page_values = INT32_MAX;
};

struct RecoveryReport {
  bool whole = false;  // the input's own footer was intact: nothing to recover
  bool found_checkpoint = false;
  int64_t checkpoint_row_groups = 0;  // row groups listed by the newest checkpoint
  int64_t scanned_row_groups = 0;     // row groups rebuilt from page headers
  int64_t rows = 0;                   // rows in the recovered file
  uint64_t bytes_kept = 0;            // bytes of the input the recovered file keeps
  uint64_t bytes_lost = 0;            // bytes of the input past them
  // Why the scan stopped where it did (empty when nothing was left to scan).
  std::string scan_stopped;
};

// Recovers `input` into `out_path`. Throws parq::Error when nothing can be
// recovered: no leading magic, no checkpoint and no schema_from, or a
// schema_from whose schema the pages do not fit.
RecoveryReport recover_file(io::RandomAccessInput& input, const std::string& out_path,
                            const RecoverOptions& options = {});

}  // namespace parq::file
