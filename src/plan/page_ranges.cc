// The page index stage of planning: per filter test, the rows of the pages
// whose column index entries allow it; AND intersects, OR unites. Bounds are
// trusted by the rules of statistics.cc (the same sort orders; NaN counts
// when the writer kept them).
#include <algorithm>
#include <cmath>

#include "planner.h"

namespace parq::plan {

using filter::FilterNode;
using filter::ValueOrder;

namespace {

RowRange page_rows(const format::OffsetIndex& index, size_t page, int64_t num_rows) {
  const auto& pages = index.page_locations;
  return {pages[page].first_row_index, page + 1 < pages.size() ? pages[page + 1].first_row_index : num_rows};
}

struct Planner {
  const filter::BoundFilter& filter;
  const format::FileMetaData& file;
  const Schema& schema;
  int64_t num_rows;
  std::span<const std::optional<ChunkLookups::PageIndex>> indexes;  // by position in filter.columns()

  const std::optional<ChunkLookups::PageIndex>& index_of(int column) const {
    static const std::optional<ChunkLookups::PageIndex> none;
    const std::vector<int>& columns = filter.columns();
    const auto at = std::lower_bound(columns.begin(), columns.end(), column);
    if (at == columns.end() || *at != column) return none;
    const size_t i = static_cast<size_t>(at - columns.begin());
    return i < indexes.size() ? indexes[i] : none;
  }

  std::vector<RowRange> test_ranges(const filter::LeafTest& test) const {
    const std::vector<RowRange> all{{0, num_rows}};
    const ColumnDescriptor& column = schema.column(static_cast<size_t>(test.column));
    const auto& index = index_of(test.column);
    if (!index || index->column_index == nullptr || index->offset_index == nullptr) return all;
    const format::ColumnIndex& ci = *index->column_index;
    const format::OffsetIndex& oi = *index->offset_index;
    const std::vector<bool>* unbounded = index->unbounded;
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
      } else if (trusted && !(unbounded != nullptr && (*unbounded)[page]) &&
                 filter::from_plain_bytes(column, ci.min_values[page], lo) &&
                 filter::from_plain_bytes(column, ci.max_values[page], hi) &&
                 !(real && (std::isnan(lo.real) || std::isnan(hi.real)))) {
        s.min = &lo;
        s.max = &hi;
      }
      if (real) s.may_have_nan = !(ci.nan_counts && (*ci.nan_counts)[page] == 0);
      if (!filter::may_be_true(test, s)) continue;
      const RowRange r = page_rows(oi, page, num_rows);
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
                                        const Schema& schema, int64_t num_rows,
                                        std::span<const std::optional<ChunkLookups::PageIndex>> indexes) {
  const Planner planner{filter, file, schema, num_rows, indexes};
  return planner.ranges(filter.root());
}

void count_pruned_pages(const std::vector<RowRange>& kept, const format::OffsetIndex& index, int64_t num_rows,
                        int64_t& pages, int64_t& pages_pruned) {
  const auto& locations = index.page_locations;
  pages += static_cast<int64_t>(locations.size());
  for (size_t page = 0; page < locations.size(); ++page)
    if (intersect_ranges(kept, {page_rows(index, page, num_rows)}).empty()) ++pages_pruned;
}

std::vector<RowRange> page_index_ranges(const filter::BoundFilter& filter, const format::FileMetaData& file,
                                        const Schema& schema, size_t row_group, int64_t num_rows, ChunkLookups& lookups,
                                        int64_t& pages, int64_t& pages_pruned) {
  std::vector<std::optional<ChunkLookups::PageIndex>> indexes;
  indexes.reserve(filter.columns().size());
  for (int column : filter.columns()) indexes.push_back(lookups.page_index(row_group, static_cast<size_t>(column)));
  std::vector<RowRange> out = page_index_ranges(filter, file, schema, num_rows, indexes);
  for (const auto& index : indexes)
    if (index && index->offset_index != nullptr)
      count_pruned_pages(out, *index->offset_index, num_rows, pages, pages_pruned);
  return out;
}

}  // namespace parq::plan
