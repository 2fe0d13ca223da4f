// libFuzzer target for page indexes synthesized from data page headers:
// arbitrary bytes as the column chunk of one of a small schema's columns
// (required, optional, floating, unsigned, repeated), in one or two
// segments, with counts from the first bytes. Whatever index comes out must
// keep the promises of a validated page index (pages inside the chunk's
// bytes, first rows from 0 strictly increasing below num_rows, one entry
// per page in every list), and the ranges of a few filters must be
// normalized and inside the row group; anything else must be a
// parq::Error.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "../src/plan/page_header_index.h"
#include "parq/error.h"
#include "parq/filter/expression.h"
#include "parq/schema/field.h"

namespace {

using namespace parq;

uint16_t u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }

struct Fixture {
  Schema schema;
  std::vector<filter::BoundFilter> filters;
};

const Fixture& fixture() {
  static const Fixture f = [] {
    Fixture f;
    f.schema = make_schema({Field::int64("a").required(), Field::string("s"), Field::float64("d"),
                            Field::integer("u", 32, false), Field::list("l", Field::int32("element"))});
    for (const char* text :
         {"a > 5 OR s = 'x'", "d IS NULL AND u < 7", "NOT (s LIKE 'ab%') OR d = NaN", "a BETWEEN -3 AND 3 AND d > 0.5"})
      f.filters.push_back(filter::BoundFilter::bind(*filter::parse_filter(text), f.schema));
    return f;
  }();
  return f;
}

void check(const plan::SynthesizedPageIndex& index, const ChunkBytes& chunk, int64_t num_rows) {
  const auto& pages = index.offset_index.page_locations;
  const auto& ci = index.column_index;
  const size_t n = pages.size();
  if (n == 0 || ci.null_pages.size() != n || ci.min_values.size() != n || ci.max_values.size() != n ||
      index.unbounded.size() != n || (ci.null_counts && ci.null_counts->size() != n) ||
      (ci.nan_counts && ci.nan_counts->size() != n))
    std::abort();
  if (pages[0].first_row_index != 0) std::abort();
  int64_t end_of_last = 0;
  for (size_t p = 0; p < n; ++p) {
    if (p > 0 && pages[p].first_row_index <= pages[p - 1].first_row_index) std::abort();
    if (pages[p].first_row_index >= num_rows || pages[p].compressed_page_size <= 0) std::abort();
    if (pages[p].offset < end_of_last) std::abort();
    end_of_last = pages[p].offset + pages[p].compressed_page_size;
    bool inside = false;
    for (const auto& s : chunk.segments)
      inside = inside || (static_cast<uint64_t>(pages[p].offset) >= s.offset &&
                          static_cast<uint64_t>(end_of_last) <= s.offset + s.bytes.size());
    if (!inside) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // flags, num_rows, the chunk's num_values, where the second segment starts.
  constexpr size_t kPrefix = 7;
  if (size < kPrefix) return 0;
  const Fixture& f = fixture();
  const uint8_t flags = data[0];
  const size_t column = flags % f.schema.num_columns();
  const int64_t num_rows = u16(data + 1);
  const std::span<const uint8_t> rest(data + kPrefix, size - kPrefix);
  const size_t split = rest.empty() ? 0 : u16(data + 5) % (rest.size() + 1);

  format::FileMetaData meta;
  meta.num_rows = num_rows;
  meta.row_groups.resize(1);
  meta.row_groups[0].num_rows = num_rows;
  for (size_t c = 0; c < f.schema.num_columns(); ++c) {
    format::ColumnChunk chunk;
    auto& md = chunk.meta_data.emplace();
    md.type = f.schema.column(c).type.physical;
    md.path_in_schema = f.schema.column(c).path;
    md.num_values = u16(data + 3);
    md.data_page_offset = 4;
    md.total_compressed_size = static_cast<int64_t>(rest.size());
    meta.row_groups[0].columns.push_back(chunk);
  }
  if (flags & 0x80) {
    meta.column_orders.emplace(f.schema.num_columns());
    for (auto& order : *meta.column_orders) order.TYPE_ORDER.emplace();
  }

  // One segment, or two (a gap between them when flagged), as the fetch
  // stage hands them over.
  ChunkBytes chunk;
  const auto input = io::memory_input(rest);
  if (flags & 0x40) {
    chunk.segments.push_back({4, io::ByteRange::read(*input, 0, split)});
    chunk.segments.push_back(
        {4 + split + (flags & 0x20 ? 100 : 0), io::ByteRange::read(*input, split, rest.size() - split)});
  } else {
    chunk.segments.push_back({4, io::ByteRange::read(*input, 0, rest.size())});
  }
  chunk.partial = (flags & 0x18) == 0x18;

  try {
    const auto index = plan::index_from_page_headers(chunk, "fuzz", meta, 0, f.schema.column(column));
    if (index) check(*index, chunk, num_rows);
  } catch (const Error&) {
  }
  for (const filter::BoundFilter& filter : f.filters) {
    int64_t pages = 0, pruned = 0;
    const std::vector<RowRange> ranges = plan::page_header_ranges(
        filter, meta, f.schema, 0, [&](size_t) { return &chunk; }, "fuzz", pages, pruned);
    if (ranges != normalize_ranges(ranges) || pruned > pages) std::abort();
    for (const RowRange& r : ranges)
      if (r.begin < 0 || r.end > num_rows) std::abort();
  }
  return 0;
}
