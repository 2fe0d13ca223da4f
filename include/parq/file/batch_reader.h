// Reading a file's rows as RecordBatches: row group selection, a projection
// of columns (nested paths too), a filter, a row selection, offset and
// limit, batches of a chosen row count. Only the byte ranges of the selected
// column chunks are read, and only of the row groups the plan keeps
// (parq/plan/read_plan.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parq/array/batch_source.h"
#include "parq/column/page_reader.h"
#include "parq/file/file_reader.h"
#include "parq/filter/expression.h"
#include "parq/plan/read_plan.h"

namespace parq {

struct ReadOptions {
  int64_t batch_rows = 64 * 1024;
  // Row groups to read, in this order; empty reads them all.
  std::vector<size_t> row_groups;
  // Dotted paths of the columns to read ("a", "a.b.c"); a group's path
  // selects everything below it. Empty reads every column, unless
  // `no_columns`: then batches carry no column (but the row index column),
  // only their row counts, which is what counting rows needs.
  std::vector<std::string> columns;
  bool no_columns = false;
  PageReaderOptions pages;
  // Column chunks decode in parallel on this many threads (1: the caller's),
  // ahead of the caller by a few batches.
  int threads = 1;
  // Bytes the read may hold at once (decoded batches in flight, fetched
  // column chunks it owns); 0: no limit beyond the few batches decoded
  // ahead. Decoding ahead narrows to fit; a read whose one batch and row
  // group cannot fit fails with an error saying so.
  int64_t memory_limit = 0;
  // A batch's byte-array data per column stays within this many bytes (0:
  // what int32 offsets address, 2 GiB - 1); a batch that would pass it is
  // read again as smaller batches, so long values never fail a read with
  // the default batch size. Only a single row over it is an error.
  int64_t max_batch_bytes = 0;

  // Only rows for which the filter is true (SQL semantics: a comparison
  // with null is not true). Its columns need not be among `columns`.
  filter::ExpressionPtr filter;
  // Only rows in these ranges of file row indices (before the filter);
  // empty with has_row_selection false: every row.
  std::vector<RowRange> row_selection;
  bool has_row_selection = false;
  // Of the rows that pass the selection and the filter, skip the first
  // `offset` and return at most `limit` (negative: no limit).
  int64_t offset = 0;
  int64_t limit = -1;
  // When not empty, adds a required INT64 column of this name, last, with
  // each row's index in the file.
  std::string row_index_column;
  // VARIANT columns come back unshredded: a struct of `metadata` and
  // `value` whose values are whole, whatever shredding the file used
  // (parq/variant/shredding.h). Off, they come back as the file stores them.
  bool unshred_variants = false;
  // Which metadata may prune row groups and pages before the filter is
  // evaluated on rows (turning them off changes the cost, never the rows).
  PruningOptions pruning;
  // When set, filled in as the read goes (final once next() returns false).
  ReadStats* stats = nullptr;
};

// Batches of `file`'s rows; `file` must outlive the source. Throws
// parq::Error for an unknown column path or row group, and for a filter
// that does not bind to the schema (naming the column).
std::unique_ptr<BatchSource> read_batches(const FileReader& file, const ReadOptions& options = {});
// The same, sharing ownership of `file`: the source keeps it open, so that a
// stream handed to another library outlives the caller's handle.
// (`options.stats`, when set, must still outlive the source.)
std::unique_ptr<BatchSource> read_batches(std::shared_ptr<const FileReader> file, const ReadOptions& options = {});

// The plan a read with `options` would follow, and the statistics of
// planning alone (for --explain).
ReadPlan plan_read(const FileReader& file, const ReadOptions& options, ReadStats* stats = nullptr);

}  // namespace parq
