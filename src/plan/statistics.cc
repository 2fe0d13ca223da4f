// Column chunk statistics as summaries the filter's leaf tests can judge.
//
// Which bounds can be trusted:
//   - min_value/max_value are ordered by the column's sort order; they are
//     used when the schema gives the column a known sort order and the
//     file's column_orders (when present) names TYPE_ORDER or
//     IEEE_754_TOTAL_ORDER for it. INT96 bounds only under
//     INT96_TIMESTAMP_ORDER.
//   - The legacy min/max were ordered as signed values by old writers, also
//     for byte arrays, where that is wrong; they are used only for numeric
//     and boolean columns whose order is signed.
//   - Floating-point bounds exclude NaN under TYPE_ORDER: a NaN may hide
//     above max unless nan_count says there is none. A NaN bound (possible
//     under IEEE_754_TOTAL_ORDER, or from a writer that let one in) drops
//     both bounds.
//   - GEOMETRY and GEOGRAPHY chunks have no min/max (their order is
//     undefined; any found are ignored as the spec asks): their
//     GeospatialStatistics box serves bbox_intersects instead.
//   - Truncated byte-array bounds (is_min/max_value_exact false) are still
//     bounds: a truncated min sorts below the true one, and writers round a
//     truncated max up.
#include <cmath>

#include "planner.h"

namespace parq::plan {

using filter::ValueOrder;

namespace {}  // namespace

bool bounds_trusted(const format::FileMetaData& file, const ColumnDescriptor& column) {
  const ValueOrder order = filter::value_order(column);
  const format::ColumnOrder* co = nullptr;
  if (file.column_orders && static_cast<size_t>(column.column_index) < file.column_orders->size())
    co = &(*file.column_orders)[static_cast<size_t>(column.column_index)];
  // INT96 bounds mean something only when the file says they are ordered
  // chronologically; under TYPE_ORDER (or no order) they must be ignored.
  if (order == ValueOrder::kInt96) return co != nullptr && co->INT96_TIMESTAMP_ORDER.has_value();
  bool ordered = column.sort_order != SortOrder::kUnknown && order != ValueOrder::kUnordered;
  if (co != nullptr) ordered = ordered && (co->TYPE_ORDER || co->IEEE_754_TOTAL_ORDER);
  return ordered;
}

BoundBytes trusted_bound_bytes(const format::FileMetaData& file, const ColumnDescriptor& column,
                               const format::Statistics& st) {
  if (!bounds_trusted(file, column)) return {};
  if (st.min_value && st.max_value) return {&*st.min_value, &*st.max_value};
  if (st.min && st.max && column.sort_order == SortOrder::kSigned && column.type.physical != format::Type::BYTE_ARRAY &&
      column.type.physical != format::Type::FIXED_LEN_BYTE_ARRAY)
    return {&*st.min, &*st.max};
  return {};
}

ChunkSummary summarize_chunk(const format::FileMetaData& file, const ColumnDescriptor& column,
                             const format::ColumnMetaData& chunk) {
  ChunkSummary out;
  ChunkSummary& s = out;
  // Boxes are read only where the spec puts them: another column's would be
  // a writer's invention.
  const bool geo = column.type.logical.GEOMETRY || column.type.logical.GEOGRAPHY;
  if (geo && chunk.geospatial_statistics && chunk.geospatial_statistics->bbox)
    out.bbox = chunk.geospatial_statistics->bbox;
  if (!chunk.statistics) return out;
  const format::Statistics& st = *chunk.statistics;
  const ValueOrder order = filter::value_order(column);
  if (st.null_count && *st.null_count >= 0) {
    s.may_have_null = *st.null_count > 0;
    s.may_have_non_null = *st.null_count < chunk.num_values;
  }
  if (filter::is_floating(order)) s.may_have_nan = !(st.nan_count && *st.nan_count == 0);

  const auto [lo, hi] = trusted_bound_bytes(file, column, st);
  if (lo == nullptr || !filter::from_plain_bytes(column, *lo, out.min) ||
      !filter::from_plain_bytes(column, *hi, out.max))
    return out;
  if (filter::is_floating(order) && (std::isnan(out.min.real) || std::isnan(out.max.real))) {
    s.may_have_nan = true;
    return out;
  }
  s.has_bounds = true;
  return out;
}

}  // namespace parq::plan
