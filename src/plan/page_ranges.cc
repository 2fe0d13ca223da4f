// The page index stage of planning: per filter test, the rows of the pages
// whose column index entries allow it; AND intersects, OR unites. Bounds are
// trusted by the rules of statistics.cc (the same sort orders; NaN counts
// when the writer kept them).
#include <cmath>

#include "planner.h"

namespace parq::plan {

using filter::FilterNode;
using filter::ValueOrder;

namespace {

struct Planner {
  const filter::BoundFilter& filter;
  const format::FileMetaData& file;
  const Schema& schema;
  size_t row_group;
  int64_t num_rows;
  ChunkLookups& lookups;

  RowRange page_rows(const format::OffsetIndex& index, size_t page) const {
    const auto& pages = index.page_locations;
    return {pages[page].first_row_index, page + 1 < pages.size() ? pages[page + 1].first_row_index : num_rows};
  }

  std::vector<RowRange> test_ranges(const filter::LeafTest& test) const {
    const std::vector<RowRange> all{{0, num_rows}};
    const ColumnDescriptor& column = schema.column(static_cast<size_t>(test.column));
    const auto index = lookups.page_index(row_group, static_cast<size_t>(test.column));
    if (!index || index->column_index == nullptr || index->offset_index == nullptr) return all;
    const format::ColumnIndex& ci = *index->column_index;
    const format::OffsetIndex& oi = *index->offset_index;
    const bool trusted = bounds_trusted(file, column);
    const bool real = filter::is_floating(filter::value_order(column));
    std::vector<RowRange> out;
    for (size_t page = 0; page < oi.page_locations.size(); ++page) {
      filter::PhysicalValue lo, hi;
      filter::ValueSummary s;
      if (ci.null_counts) s.may_have_null = (*ci.null_counts)[page] > 0;
      if (ci.null_pages[page]) {
        s.may_have_non_null = false;
        s.may_have_null = true;
      } else if (trusted && filter::from_plain_bytes(column, ci.min_values[page], lo) &&
                 filter::from_plain_bytes(column, ci.max_values[page], hi) &&
                 !(real && (std::isnan(lo.real) || std::isnan(hi.real)))) {
        s.min = &lo;
        s.max = &hi;
      }
      if (real) s.may_have_nan = !(ci.nan_counts && (*ci.nan_counts)[page] == 0);
      if (!filter::may_be_true(test, s)) continue;
      const RowRange r = page_rows(oi, page);
      if (!out.empty() && out.back().end == r.begin) {
        out.back().end = r.end;
      } else {
        out.push_back(r);
      }
    }
    return normalize_ranges(std::move(out));
  }

  std::vector<RowRange> ranges(const FilterNode& node) const {
    switch (node.kind) {
      case FilterNode::Kind::kTrue:
        return {{0, num_rows}};
      case FilterNode::Kind::kFalse:
      case FilterNode::Kind::kUnknown:
        return {};
      case FilterNode::Kind::kTest:
        return test_ranges(filter.tests()[node.test]);
      case FilterNode::Kind::kAnd: {
        std::vector<RowRange> out{{0, num_rows}};
        for (const auto& c : node.children) {
          out = intersect_ranges(out, ranges(c));
          if (out.empty()) break;
        }
        return out;
      }
      case FilterNode::Kind::kOr: {
        std::vector<RowRange> out;
        for (const auto& c : node.children) out = unite_ranges(out, ranges(c));
        return out;
      }
    }
    return {{0, num_rows}};
  }
};

}  // namespace

std::vector<RowRange> page_index_ranges(const filter::BoundFilter& filter, const format::FileMetaData& file,
                                        const Schema& schema, size_t row_group, int64_t num_rows, ChunkLookups& lookups,
                                        int64_t& pages, int64_t& pages_pruned) {
  const Planner planner{filter, file, schema, row_group, num_rows, lookups};
  std::vector<RowRange> out = planner.ranges(filter.root());
  for (int column : filter.columns()) {
    const auto index = lookups.page_index(row_group, static_cast<size_t>(column));
    if (!index || index->offset_index == nullptr) continue;
    const auto& locations = index->offset_index->page_locations;
    pages += static_cast<int64_t>(locations.size());
    for (size_t page = 0; page < locations.size(); ++page)
      if (intersect_ranges(out, {planner.page_rows(*index->offset_index, page)}).empty()) ++pages_pruned;
  }
  return out;
}

}  // namespace parq::plan
