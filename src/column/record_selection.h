// Keeping some records of a leaf's batch: what a filter's verdict or a row
// selection leaves of the levels and dense values a leaf reader produced,
// before record assembly.
#pragma once

#include <cstdint>

#include "leaf_reader.h"
#include "parq/schema/schema.h"

namespace parq {

// Keeps, in place, the records r of `batch` (in order) whose keep[r] is
// nonzero; `records` is how many records the batch holds. A record is one
// entry of a leaf outside lists, and the entries from one repetition level
// 0 to the next otherwise.
void keep_records(LeafBatch& batch, const ColumnDescriptor& column, const uint8_t* keep, int64_t records);

}  // namespace parq
