// The read plan: which row groups and rows a read needs, decided from the
// file's metadata before any page is fetched.
//
// Planning is the first of the read's three stages (plan -> fetch ->
// decode). A row group is dropped when the row selection leaves nothing of
// it, or when its column chunks' statistics show that no row can satisfy
// the filter (min/max in the column's sort order, null counts, NaN counts);
// what is left is a list of row ranges per row group for the decoders.
// Pruning is only ever an optimisation: the reader still evaluates the
// filter on every row it decodes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace parq {

// Rows [begin, end) by their index in the file (or, inside a row group
// plan, in the row group).
struct RowRange {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t size() const { return end - begin; }
  bool operator==(const RowRange&) const = default;
};

// Sorts, merges and drops empty ranges.
std::vector<RowRange> normalize_ranges(std::vector<RowRange> ranges);
// The rows in both lists (each normalized).
std::vector<RowRange> intersect_ranges(const std::vector<RowRange>& a, const std::vector<RowRange>& b);
// The rows in either list (each normalized).
std::vector<RowRange> unite_ranges(const std::vector<RowRange>& a, const std::vector<RowRange>& b);

struct PruningOptions {
  bool statistics = true;  // column chunk min/max, null and NaN counts
  bool dictionaries = true;
  bool bloom_filters = true;
  bool page_index = true;
};

// What a read considered and pruned at each stage, and what it cost.
struct ReadStats {
  // Datasets only: files considered, ruled out by their partition values,
  // ruled out by their footers' statistics (never opened), and opened.
  int64_t files = 0;
  int64_t files_pruned_by_partitions = 0;
  int64_t files_pruned_by_statistics = 0;
  int64_t files_opened = 0;
  int64_t row_groups = 0;  // considered (after the caller's row group list)
  int64_t row_groups_pruned_by_selection = 0;
  int64_t row_groups_pruned_by_statistics = 0;
  int64_t row_groups_pruned_by_dictionary = 0;
  int64_t row_groups_pruned_by_bloom_filter = 0;
  int64_t pages = 0;  // data pages of the chunks read, as the offset index counts them (0 without one)
  int64_t pages_pruned_by_index = 0;
  // Without a page index: the filter columns' data pages whose header
  // statistics were consulted once their chunk was fetched, and of those
  // the pages no row of which can match (their rows count in
  // rows_pruned_by_pages; the other columns skip them undecoded).
  int64_t header_pages = 0;
  int64_t pages_pruned_by_headers = 0;
  int64_t rows = 0;                       // in the row groups considered
  int64_t rows_pruned_by_row_groups = 0;  // in row groups pruned
  int64_t rows_pruned_by_pages = 0;       // outside the page index's (or page headers') row ranges
  int64_t rows_pruned_by_selection = 0;   // outside row_selection in row groups read
  // Claimed by a row group beyond what one of its column chunks holds (its
  // num_values): not read, since no chunk past that point makes a whole row.
  int64_t rows_missing_from_chunks = 0;
  int64_t rows_decoded = 0;            // rows whose filter columns were decoded
  int64_t rows_filtered = 0;           // decoded, then dropped by the filter
  int64_t rows_skipped_by_offset = 0;  // matched, then dropped by the offset
  int64_t rows_returned = 0;
  int64_t bytes_read = 0;  // from the input, metadata after the footer included
  int64_t pages_decompressed = 0;
  int64_t values_decoded = 0;
  // Batches whose byte-array data would pass the batch limit, read again
  // in smaller batches from their row group's first incomplete batch.
  int64_t batch_restarts = 0;
  // Column reads run as tasks of the pipeline (a run of one column over
  // consecutive batches of a row group each; 0 with one thread).
  int64_t read_tasks = 0;
  // The most batches made and not yet handed out at once (read ahead, or
  // being read): what the read held in decoded batches, in batches. In a
  // dataset's sum, the most of any one file's read.
  int64_t peak_batches = 0;

  // One line per stage, for `parq cat --explain`.
  std::string to_string() const;
  // Adds another read's counts (a dataset's files' reads), every field
  // (peak_batches: the larger).
  ReadStats& operator+=(const ReadStats& other);
};

// The rows to read of one row group.
struct RowGroupPlan {
  size_t row_group = 0;
  int64_t first_row = 0;  // in the file
  int64_t num_rows = 0;
  std::vector<RowRange> ranges;  // in the row group; normalized, non-empty
};

struct ReadPlan {
  std::vector<RowGroupPlan> row_groups;  // in read order
  // Why each considered row group was dropped, for --explain ("row group 3:
  // statistics: l_orderkey = <value> outside [10, 20]").
  std::vector<std::string> notes;
};

}  // namespace parq
