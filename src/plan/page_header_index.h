// A page index synthesized from data page headers, for chunks written
// without one: Arrow C++ (pyarrow) and older parquet-java put statistics in
// every data page header but write no ColumnIndex or OffsetIndex. Walking
// the headers of a fetched chunk (no decompression) gives the same facts
// page by page, so the page stage of planning can prune by them once the
// filter columns' bytes are at hand.
//
// A page's rows must be known from its header alone: columns without
// repetition (a v1 page holds num_values rows) or DATA_PAGE_V2 pages
// (num_rows). A repeated column with v1 pages has no synthesized index.
// Bounds follow statistics.cc: min_value/max_value in the column's sort
// order, the legacy min/max only for signed numeric and boolean columns;
// page_ranges.cc then trusts them under the same rule as a real index
// (bounds_trusted).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "parq/column/page_reader.h"
#include "planner.h"

namespace parq::plan {

struct SynthesizedPageIndex {
  // Page locations as a writer's OffsetIndex has them: the header's file
  // offset, header and stored payload together, the page's first row.
  format::OffsetIndex offset_index;
  // null_pages, min_values and max_values for every data page; null_counts
  // when every page's count is known (statistics, or a v2 header's
  // num_nulls), nan_counts likewise for floating-point columns; boundary
  // order UNORDERED.
  format::ColumnIndex column_index;
  // One flag a page: true where the header gave no usable min/max (its
  // min_values/max_values entries are empty and bound nothing).
  std::vector<bool> unbounded;

  // For page_index_ranges; points into this object.
  ChunkLookups::PageIndex view() const { return {&column_index, &offset_index, &unbounded}; }
};

// The page index of column `column` of row group `row_group` from the
// headers of its data pages in `chunk` (the whole chunk, as
// fetch_whole_chunk or the fetch stage without an offset index gives it).
// nullopt when it cannot be had or would say nothing: a partial chunk, a
// repeated column with v1 pages, counts that are negative or whose rows do
// not add up to the row group's num_rows, a page of no rows, or no page
// with statistics or null counts. Throws parq::Error, naming `input_name`,
// the column and the page, where PageReader does: an undecodable header, a
// page running past the chunk's bytes, an encrypted column.
std::optional<SynthesizedPageIndex> index_from_page_headers(const ChunkBytes& chunk, const std::string& input_name,
                                                            const format::FileMetaData& file, size_t row_group,
                                                            const ColumnDescriptor& column);

// The rows of row group `row_group` in which `filter` may be true, by a
// page index of each filter column: the file's own through `lookups` (may
// be null) where it has a ColumnIndex, else one synthesized from the
// column's chunk bytes, `chunk_of(column)` (null when not at hand). A
// column with neither allows every row. A chunk whose headers cannot be
// walked counts as one without an index: pruning is an optimisation, and
// the decoder reports the fault in the pages it reads. Adds the pages of
// the synthesized indexes to `pages`, and those none of whose rows are
// kept to `pages_pruned` (pages of the file's own indexes are the
// planner's to count).
std::vector<RowRange> page_header_ranges(const filter::BoundFilter& filter, const format::FileMetaData& file,
                                         const Schema& schema, size_t row_group,
                                         const std::function<const ChunkBytes*(size_t column)>& chunk_of,
                                         const std::string& input_name, int64_t& pages, int64_t& pages_pruned,
                                         ChunkLookups* lookups = nullptr);

}  // namespace parq::plan
