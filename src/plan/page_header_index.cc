// Page indexes from data page headers; see page_header_index.h.
#include "page_header_index.h"

#include <cstdint>

#include "parq/error.h"
#include "parq/io/input.h"

namespace parq::plan {

namespace {

using format::PageType;

// PageReader takes its bytes by value, and a copy of owned bytes copies
// them (a whole chunk when the input was read with pread): hand it views of
// the caller's bytes instead, which a memory input gives.
ChunkBytes view_of(const ChunkBytes& chunk) {
  ChunkBytes out;
  out.segments.reserve(chunk.segments.size());
  for (const ChunkBytes::Segment& s : chunk.segments) {
    const auto input = io::memory_input(s.bytes.span());
    out.segments.push_back({s.offset, io::ByteRange::read(*input, 0, s.bytes.size())});
  }
  return out;
}

// Which of a header's bounds are in the column's order: statistics.cc's
// rule for chunk statistics (min_value/max_value; the legacy min/max, kept
// in signed order by old writers, only where that order is the column's).
// Bounds that do not decode as the column's values bound nothing.
bool page_bounds(const format::Statistics& st, const ColumnDescriptor& column, const std::string*& lo,
                 const std::string*& hi) {
  lo = hi = nullptr;
  if (st.min_value && st.max_value) {
    lo = &*st.min_value;
    hi = &*st.max_value;
  } else if (st.min && st.max && column.sort_order == SortOrder::kSigned &&
             column.type.physical != format::Type::BYTE_ARRAY &&
             column.type.physical != format::Type::FIXED_LEN_BYTE_ARRAY) {
    lo = &*st.min;
    hi = &*st.max;
  } else {
    return false;
  }
  filter::PhysicalValue scratch;
  return filter::from_plain_bytes(column, *lo, scratch) && filter::from_plain_bytes(column, *hi, scratch);
}

}  // namespace

std::optional<SynthesizedPageIndex> index_from_page_headers(const ChunkBytes& chunk, const std::string& input_name,
                                                            const format::FileMetaData& file, size_t row_group,
                                                            const ColumnDescriptor& column) {
  // Without every data page, the pages left out would go unaccounted.
  if (chunk.partial) return std::nullopt;
  // An encrypted column's headers would be decrypted for this; its own
  // page index (decrypted) serves instead.
  if (file.row_groups.at(row_group).columns.at(static_cast<size_t>(column.column_index)).crypto_metadata)
    return std::nullopt;
  const int64_t num_rows = file.row_groups.at(row_group).num_rows;
  if (num_rows <= 0) return std::nullopt;

  PageReaderOptions options;
  options.verify_crc = false;  // only headers are read; the decoder checks the payloads it uses
  PageReader reader(view_of(chunk), input_name, file, row_group, static_cast<size_t>(column.column_index),
                    column.dotted_path(), options);
  const bool rows_are_values = column.max_repetition_level == 0;
  const bool floating = filter::is_floating(filter::value_order(column));

  SynthesizedPageIndex out;
  format::ColumnIndex& ci = out.column_index;
  std::vector<format::PageLocation>& locations = out.offset_index.page_locations;
  std::vector<int64_t> null_counts, nan_counts;
  bool nulls_known = true, nans_known = floating, says_something = false;
  int64_t rows = 0;
  PageInfo page;
  while (reader.next(page)) {
    const format::PageHeader& h = page.header;
    int64_t page_rows = 0, values = 0, nulls = -1;
    const format::Statistics* st = nullptr;
    if (h.type == PageType::DATA_PAGE) {
      if (!h.data_page_header || !rows_are_values) return std::nullopt;
      values = page_rows = h.data_page_header->num_values;
      if (h.data_page_header->statistics) st = &*h.data_page_header->statistics;
    } else if (h.type == PageType::DATA_PAGE_V2) {
      if (!h.data_page_header_v2) return std::nullopt;
      const format::DataPageHeaderV2& v2 = *h.data_page_header_v2;
      values = v2.num_values;
      page_rows = v2.num_rows;
      if (v2.num_nulls >= 0 && v2.num_nulls <= v2.num_values) nulls = v2.num_nulls;
      if (v2.statistics) st = &*v2.statistics;
    } else {
      continue;  // dictionary and index pages hold no rows
    }
    // Zero-row pages would break the offset index's promise of strictly
    // increasing first rows.
    if (values < 0 || page_rows <= 0 || page_rows > num_rows - rows) return std::nullopt;
    const uint64_t stored = uint64_t{page.header_size} + page.payload.size();
    if (stored > uint64_t{INT32_MAX}) return std::nullopt;
    locations.push_back({static_cast<int64_t>(page.header_offset), static_cast<int32_t>(stored), rows});
    rows += page_rows;

    // The statistics' null count is what the chunk statistics stage trusts
    // too; a v2 header's num_nulls stands in where there is none.
    if (st != nullptr && st->null_count && *st->null_count >= 0 && *st->null_count <= values) nulls = *st->null_count;
    const bool null_page = nulls >= 0 && nulls == values;
    const std::string *lo = nullptr, *hi = nullptr;
    const bool bounded = !null_page && st != nullptr && page_bounds(*st, column, lo, hi);
    ci.null_pages.push_back(null_page);
    ci.min_values.push_back(bounded ? *lo : std::string());
    ci.max_values.push_back(bounded ? *hi : std::string());
    out.unbounded.push_back(!null_page && !bounded);
    says_something = says_something || bounded || nulls >= 0;
    nulls_known = nulls_known && nulls >= 0;
    if (nulls_known) null_counts.push_back(nulls);
    nans_known = nans_known && st != nullptr && st->nan_count && *st->nan_count >= 0;
    if (nans_known) nan_counts.push_back(*st->nan_count);
  }
  if (rows != num_rows || !says_something) return std::nullopt;
  if (nulls_known) ci.null_counts = std::move(null_counts);
  if (nans_known) ci.nan_counts = std::move(nan_counts);
  ci.boundary_order = format::BoundaryOrder::UNORDERED;
  return out;
}

std::vector<RowRange> page_header_ranges(const filter::BoundFilter& filter, const format::FileMetaData& file,
                                         const Schema& schema, size_t row_group,
                                         const std::function<const ChunkBytes*(size_t column)>& chunk_of,
                                         const std::string& input_name, int64_t& pages, int64_t& pages_pruned,
                                         ChunkLookups* lookups) {
  const int64_t num_rows = file.row_groups.at(row_group).num_rows;
  if (num_rows <= 0) return {};
  const std::vector<int>& columns = filter.columns();
  std::vector<std::optional<SynthesizedPageIndex>> made(columns.size());
  std::vector<std::optional<ChunkLookups::PageIndex>> indexes(columns.size());
  for (size_t i = 0; i < columns.size(); ++i) {
    const size_t column = static_cast<size_t>(columns[i]);
    if (lookups != nullptr) indexes[i] = lookups->page_index(row_group, column);
    if (indexes[i] && indexes[i]->column_index != nullptr) continue;
    const ChunkBytes* bytes = chunk_of(column);
    if (bytes == nullptr) continue;
    try {
      made[i] = index_from_page_headers(*bytes, input_name, file, row_group, schema.column(column));
    } catch (const Error&) {
    }
    if (made[i]) indexes[i] = made[i]->view();
  }
  std::vector<RowRange> out = page_index_ranges(filter, file, schema, num_rows, indexes);
  for (const auto& index : made)
    if (index) count_pruned_pages(out, index->offset_index, num_rows, pages, pages_pruned);
  return out;
}

}  // namespace parq::plan
