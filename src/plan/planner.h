// Planning a read from metadata alone: row groups by the row selection and
// by column chunk statistics; see parq/plan/read_plan.h.
#pragma once

#include <vector>

#include "../filter/bound_filter.h"
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
  // Points into this object: use while it lives.
  filter::ValueSummary summary() const {
    return {has_bounds ? &min : nullptr, has_bounds ? &max : nullptr, may_have_null, may_have_non_null, may_have_nan};
  }
};
ChunkSummary summarize_chunk(const format::FileMetaData& file, const ColumnDescriptor& column,
                             const format::ColumnMetaData& chunk);

struct PlanRequest {
  const format::FileMetaData* metadata = nullptr;
  const Schema* schema = nullptr;
  std::vector<size_t> row_groups;               // in read order
  const filter::BoundFilter* filter = nullptr;  // may be null
  std::vector<RowRange> selection;              // file rows, normalized; empty with has_selection = false: all
  bool has_selection = false;
  PruningOptions pruning;
};

// Fills `stats`' row group and row counts.
ReadPlan make_plan(const PlanRequest& request, ReadStats& stats);

}  // namespace parq::plan
