// Record assembly: the levels and dense values of the selected leaves ->
// the arrays of a RecordBatch; see assembler.cc.
#pragma once

#include <vector>

#include "../column/leaf_reader.h"
#include "array_plan.h"

namespace parq {

struct LeafInput {
  int column = 0;
  int16_t max_definition_level = 0;
  LeafBatch* batch = nullptr;  // its value buffers are moved into the arrays
};

// `leaves` in schema order; every leaf must hold exactly `num_rows` records.
RecordBatch assemble(const std::vector<ArrayPlan>& plans, const std::vector<LeafInput>& leaves, int64_t num_rows);

// Zero-length arrays of the planned shape.
RecordBatch empty_batch(const std::vector<ArrayPlan>& plans);

}  // namespace parq
