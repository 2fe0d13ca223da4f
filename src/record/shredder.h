// Record shredding: the arrays of a RecordBatch -> each leaf column's
// definition and repetition levels and the leaf slots that hold its values
// (Dremel; the inverse of assembler.h, over the same ArrayPlans).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../column/shredded_leaf.h"
#include "array_plan.h"
#include "parq/array/array.h"
#include "parq/schema/schema.h"

namespace parq {

class Shredder {
 public:
  explicit Shredder(const Schema& schema);

  // One per top-level field that has leaves; a batch has one array each.
  size_t num_fields() const { return plans_.size(); }
  // The leaf columns of field `field`, in schema order.
  const std::vector<int>& field_leaves(size_t field) const { return field_leaves_[field]; }

  // Checks that `batch` matches the schema: one array per field, kinds,
  // children, physical types and widths, lengths, buffer sizes, offsets
  // (monotonic, inside their child), and no null where the schema says
  // REQUIRED. Throws parq::Error naming the field path.
  void check(const RecordBatch& batch) const;

  // Shreds rows [row_begin, row_end) of the checked `batch`'s field `field`
  // into out[k] for its k-th leaf (out is resized; its buffers are reused).
  void shred(const RecordBatch& batch, size_t field, int64_t row_begin, int64_t row_end,
             std::vector<ShreddedLeaf>& out) const;

 private:
  const Schema* schema_;
  std::vector<ArrayPlan> plans_;
  std::vector<std::vector<int>> field_leaves_;
};

}  // namespace parq
