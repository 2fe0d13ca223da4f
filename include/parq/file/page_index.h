// The page index (PageIndex.md): per column chunk, a ColumnIndex (each data
// page's min, max, null flag and null count) and an OffsetIndex (each data
// page's location and first row), stored between the row groups and the
// footer. Filter pushdown reads them to skip row groups and pages.
//
// Reading is in two steps so that a planner controls the I/O: the ranges
// (page_index_ranges, row_group_page_index_range) say which bytes to fetch,
// decode_page_index decodes one chunk's indexes from any fetched bytes that
// cover them. read_page_index does both through a FileReader.
//
// Decoded indexes are validated against the chunk and row group metadata, so
// that a caller may index min_values by page, trust that page i covers rows
// [first_row_index(i), first_row_index(i + 1) or num_rows) and fetch the
// page's bytes from its location without further checks:
//   - each index lies inside the file;
//   - ColumnIndex: null_pages, min_values, max_values, null_counts and
//     nan_counts have one entry per page; null counts are not negative; the
//     level histograms hold a whole number of entries per page; bounds of a
//     non-null page have the width of the physical type (BOOLEAN, INT32,
//     INT64, INT96, FLOAT, DOUBLE);
//   - OffsetIndex: at least one page when the row group has rows; pages of
//     positive size inside the column chunk, each after the end of the one
//     before; first_row_index 0 for page 0, strictly increasing and below the
//     row group's num_rows; unencoded_byte_array_data_bytes one per page;
//   - both: the same number of pages.
// A failed check throws parq::Error naming the file, column, row group, the
// index and what is wrong; callers that can do without the index may catch it
// and read the chunk whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "parq/file/file_reader.h"
#include "parq/format/metadata.h"
#include "parq/plan/read_plan.h"  // RowRange

namespace parq {

// Bytes [offset, offset + length) of the file.
using FileRange = io::FileRange;

// Where a chunk's indexes are; each is nullopt when the chunk has none.
struct PageIndexRanges {
  std::optional<FileRange> column_index;
  std::optional<FileRange> offset_index;
};

// The ranges from the chunk's metadata, checked to be non-empty and inside a
// file of `file_size` bytes (parq::Error naming `where`, row group and
// column otherwise). `where` starts every message: the file's name.
PageIndexRanges page_index_ranges(const format::FileMetaData& file, size_t row_group, size_t column, uint64_t file_size,
                                  std::string_view where = "<file>");

// One range that covers the indexes of the given columns of a row group
// (every column when `columns` is empty), so that a planner fetches them in
// one read; nullopt when none of them has an index. Writers put all indexes
// together, so the range holds little else.
std::optional<FileRange> row_group_page_index_range(const format::FileMetaData& file, size_t row_group,
                                                    uint64_t file_size, std::span<const size_t> columns = {},
                                                    std::string_view where = "<file>");

// A chunk's decoded and validated indexes; at least one is present.
struct PageIndex {
  std::optional<format::ColumnIndex> column_index;
  std::optional<format::OffsetIndex> offset_index;
  // The row group's num_rows: the end of the last page's rows.
  int64_t row_group_rows = 0;

  size_t num_pages() const;
  // The rows of data page `page`; throws parq::Error without an offset
  // index or for a page out of range.
  RowRange page_rows(size_t page) const;
};

// Decodes and validates the indexes of chunk (row_group, column) from
// `bytes`, which hold the file's bytes starting at `bytes_offset`: any
// fetched range that covers the chunk's index ranges (those of
// page_index_ranges; a row group's range from row_group_page_index_range
// will do). nullopt when the chunk has no index. Throws parq::Error naming
// `where`, column and row group when an index is not inside `bytes`, does
// not decode, or fails validation. An encrypted chunk's indexes are
// decrypted with `decryptor` (Footer::decryptor); without it they throw
// (kUnsupported).
std::optional<PageIndex> decode_page_index(std::span<const uint8_t> bytes, uint64_t bytes_offset,
                                           const format::FileMetaData& file, size_t row_group, size_t column,
                                           uint64_t file_size, std::string_view where = "<file>",
                                           const crypto::FileDecryptor* decryptor = nullptr);

// Reads the chunk's index ranges through file.input() and decodes them.
std::optional<PageIndex> read_page_index(const FileReader& file, size_t row_group, size_t column);

}  // namespace parq
