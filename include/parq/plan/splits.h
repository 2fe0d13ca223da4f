// Splits: a file's row groups cut into units of parallel work of about a
// target size, for engines that spread a read over tasks or machines (Spark
// partitions, Dask and Ray tasks). A split is a run of whole row groups, the
// smallest unit a reader can start at without reading what comes before;
// its size is what a task would fetch (compressed bytes of the chunks read).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "parq/format/metadata.h"

namespace parq {

struct Split {
  size_t row_group_begin = 0;  // the row groups [begin, end)
  size_t row_group_end = 0;
  int64_t rows = 0;
  int64_t bytes = 0;  // compressed bytes of the column chunks read
};

// Consecutive row groups gathered until a split reaches `target_bytes`; a
// row group larger than the target is a split of its own, and an empty
// file has no splits. `columns` (leaf indices; empty: every column) counts
// only the chunks a projected read fetches. Throws parq::Error (invalid
// argument) for a target below 1 or a leaf index out of range.
std::vector<Split> plan_splits(const format::FileMetaData& file, int64_t target_bytes,
                               const std::vector<size_t>& columns = {});

}  // namespace parq
