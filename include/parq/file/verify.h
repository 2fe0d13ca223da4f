// Verifying a file: every page read and checked against its header, its
// chunk's metadata, the page index and the file, for `parq verify` (and any
// caller that wants to know whether a file is sound before trusting it).
//
// What is checked:
//   - the file: every column chunk, page index and bloom filter range inside
//     the data (between the leading magic and the footer), chunks not
//     overlapping, FileMetaData.num_rows the sum of the row groups';
//   - each chunk's pages: headers that decode, sizes inside the chunk,
//     page CRCs (when present), decompression to the size the header says,
//     levels and values that decode (dictionary indexes inside the
//     dictionary), a v2 page's num_nulls and num_rows against its levels,
//     one dictionary page at most and before the data pages,
//     data_page_offset and dictionary_page_offset at page headers;
//   - counts: the pages' values against ColumnMetaData.num_values, the
//     chunk's rows against RowGroup.num_rows;
//   - statistics (the chunk's and each page header's): null_count against
//     the levels, min and max against the values in the column's order
//     where the read plan trusts them (plan::trusted_bound_bytes); a bound
//     may be looser than the values (truncated byte arrays), never tighter;
//     distinct_count at most the values;
//   - the page index: the offset index's locations and first rows against
//     the data pages' headers, the column index's null pages, null counts
//     and bounds against each page's values;
//   - the bloom filter: its header decodes and it lies inside the file.
//
// Memory: one chunk's bytes and one page's decoded levels and values at a
// time. A problem that stops a chunk's reading (a page header that does not
// decode) ends that chunk's checks; the other chunks are still verified.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/file/file_reader.h"

namespace parq {

struct VerifyProblem {
  ErrorLocation where;  // file, row group, column (dotted path), page and offset where known
  std::string what;     // what is wrong: expected against found
  // where.to_string() + ": " + what.
  std::string to_string() const;
};

struct VerifyOptions {
  // Leaf column indexes to verify; empty: every column. File-level checks
  // (ranges, overlaps, row counts) cover every chunk whatever this says.
  std::vector<size_t> columns;
  // Called for each problem as it is found (for streaming output); may be
  // empty.
  std::function<void(const VerifyProblem&)> on_problem;
  // Pages claiming more (uncompressed bytes, level entries) are a problem
  // rather than an allocation; lower them to bound memory (a fuzzer).
  uint64_t max_page_bytes = uint64_t{INT32_MAX};
  int64_t max_page_values = INT32_MAX;
  // Problems kept in VerifyReport::problems; those past it are counted only.
  size_t max_kept_problems = 10000;
};

struct VerifyReport {
  std::vector<VerifyProblem> problems;
  int64_t problem_count = 0;  // all of them, kept or not
  int64_t chunks = 0;         // column chunks whose pages were read
  int64_t pages = 0;          // pages read
  bool clean() const { return problem_count == 0; }
};

// Verifies `file` (opened with keys to verify encrypted columns; without,
// each encrypted chunk is one problem saying a key is needed). Problems in
// the data are reported, never thrown; parq::Error escapes only for I/O
// failures of the input.
VerifyReport verify_file(const FileReader& file, const VerifyOptions& options = {});

}  // namespace parq
