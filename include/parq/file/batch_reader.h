// Reading a file's rows as RecordBatches: row group selection, a projection
// of columns (nested paths too), batches of a chosen row count. Only the
// byte ranges of the selected column chunks are read.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parq/array/batch_source.h"
#include "parq/column/page_reader.h"
#include "parq/file/file_reader.h"

namespace parq {

struct ReadOptions {
  int64_t batch_rows = 64 * 1024;
  // Row groups to read, in this order; empty reads them all.
  std::vector<size_t> row_groups;
  // Dotted paths of the columns to read ("a", "a.b.c"); a group's path
  // selects everything below it. Empty reads every column.
  std::vector<std::string> columns;
  PageReaderOptions pages;
  // Column chunks decode in parallel on this many threads (1: the caller's).
  int threads = 1;
};

// Batches of `file`'s rows; `file` must outlive the source. Throws
// parq::Error for an unknown column path or row group.
std::unique_ptr<BatchSource> read_batches(const FileReader& file, const ReadOptions& options = {});

}  // namespace parq
