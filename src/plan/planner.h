// Planning a read from metadata alone: row groups by the row selection and
// by column chunk statistics; see parq/plan/read_plan.h.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "../filter/bound_filter.h"
#include "parq/array/array.h"
#include "parq/column/bloom_filter.h"
#include "parq/format/metadata.h"
#include "parq/plan/read_plan.h"
#include "parq/schema/schema.h"

namespace parq::plan {

// What the chunk statistics say of the values of one column chunk, in the
// form the filter's leaf tests take. `min`/`max` are set only when the
// statistics can be trusted for the column's order (see statistics.cc).
struct ChunkSummary {
  filter::PhysicalValue min, max;
  bool has_bounds = false;
  bool may_have_null = true;
  bool may_have_non_null = true;
  bool may_have_nan = true;
  std::optional<format::BoundingBox> bbox;  // GEOMETRY and GEOGRAPHY: GeospatialStatistics' box
  // Points into this object: use while it lives.
  filter::ValueSummary summary() const {
    return {has_bounds ? &min : nullptr, has_bounds ? &max : nullptr, may_have_null, may_have_non_null, may_have_nan,
            bbox ? &*bbox : nullptr};
  }
};
// Whether min/max bounds (of chunks and of the column index alike) follow
// the column's order: a known sort order, and TYPE_ORDER or
// IEEE_754_TOTAL_ORDER in the file's column_orders when it has them.
bool bounds_trusted(const format::FileMetaData& file, const ColumnDescriptor& column);

// The statistics' min and max (PLAIN bytes) that follow the column's order:
// min_value/max_value, or the legacy min/max where their signed order is
// the column's; both null when neither can be trusted.
struct BoundBytes {
  const std::string* min = nullptr;
  const std::string* max = nullptr;
};
BoundBytes trusted_bound_bytes(const format::FileMetaData& file, const ColumnDescriptor& column,
                               const format::Statistics& statistics);

ChunkSummary summarize_chunk(const format::FileMetaData& file, const ColumnDescriptor& column,
                             const format::ColumnMetaData& chunk);

// What the planner may look at beyond the footer, fetched by the caller
// (the fetch stage): each returns null when the chunk has none, or when it
// cannot be read (pruning then does without it). Pointers stay valid for
// the planning.
class ChunkLookups {
 public:
  virtual ~ChunkLookups() = default;
  // The chunk's dictionary values, when every data page is
  // dictionary-encoded.
  virtual const Array* dictionary(size_t row_group, size_t column) = 0;
  virtual const BloomFilter* bloom_filter(size_t row_group, size_t column) = 0;
  // Said once before the dictionaries and bloom filters are asked for: the
  // row groups the statistics leave and the filter's columns, so that a
  // remote input can fetch what they may need in one round trip.
  virtual void will_need(const std::vector<size_t>& /*row_groups*/, const std::vector<int>& /*columns*/) {}
  struct PageIndex {
    const format::ColumnIndex* column_index = nullptr;  // may be null
    const format::OffsetIndex* offset_index = nullptr;
    // One flag a page, set where min_values/max_values are no bounds: an
    // index synthesized from page headers (page_header_index.h) has pages
    // without statistics, which a ColumnIndex cannot describe (a byte
    // array has no greatest value to put in max). Null: every non-null
    // page has bounds.
    const std::vector<bool>* unbounded = nullptr;
  };
  // The chunk's page index, validated (page_index.h); offset_index set.
  virtual std::optional<PageIndex> page_index(size_t row_group, size_t column) = 0;
};

// The rows of a row group in which `filter` may be true, by the page index
// of its columns; `num_rows` the row group's. Columns without an index
// allow every row. Counts the filter columns' pages and those pruned.
std::vector<RowRange> page_index_ranges(const filter::BoundFilter& filter, const format::FileMetaData& file,
                                        const Schema& schema, size_t row_group, int64_t num_rows, ChunkLookups& lookups,
                                        int64_t& pages, int64_t& pages_pruned);
// The same with the filter columns' indexes at hand, whatever their source:
// indexes[i] is that of filter.columns()[i] (nullopt: none).
std::vector<RowRange> page_index_ranges(const filter::BoundFilter& filter, const format::FileMetaData& file,
                                        const Schema& schema, int64_t num_rows,
                                        std::span<const std::optional<ChunkLookups::PageIndex>> indexes);
// Adds the index's pages to `pages`, and those without a row in `kept` to
// `pages_pruned`.
void count_pruned_pages(const std::vector<RowRange>& kept, const format::OffsetIndex& index, int64_t num_rows,
                        int64_t& pages, int64_t& pages_pruned);

struct PlanRequest {
  const format::FileMetaData* metadata = nullptr;
  const Schema* schema = nullptr;
  std::vector<size_t> row_groups;               // in read order
  const filter::BoundFilter* filter = nullptr;  // may be null
  std::vector<RowRange> selection;              // file rows, normalized; empty with has_selection = false: all
  bool has_selection = false;
  PruningOptions pruning;
  ChunkLookups* lookups = nullptr;  // dictionaries, bloom filters, page indexes; may be null
  // Without a filter, the rows an offset and a limit leave are known from
  // the plan: it keeps only those (a negative limit: no limit).
  int64_t offset = 0;
  int64_t limit = -1;
};

// Fills `stats`' row group and row counts.
ReadPlan make_plan(const PlanRequest& request, ReadStats& stats);

}  // namespace parq::plan
