#include "parq/plan/splits.h"

#include <string>

#include "parq/error.h"

namespace parq {
namespace {

// A chunk's compressed size; encrypted metadata (no size in the clear) and
// negative sizes from a hostile footer count as nothing rather than
// steering the split sizes.
int64_t chunk_bytes(const format::ColumnChunk& chunk) {
  if (!chunk.meta_data || chunk.meta_data->total_compressed_size < 0) return 0;
  return chunk.meta_data->total_compressed_size;
}

}  // namespace

std::vector<Split> plan_splits(const format::FileMetaData& file, int64_t target_bytes,
                               const std::vector<size_t>& columns) {
  if (target_bytes < 1)
    throw Error("the split target of " + std::to_string(target_bytes) + " bytes is not positive",
                ErrorKind::kInvalidArgument);
  std::vector<Split> splits;
  Split current;
  for (size_t g = 0; g < file.row_groups.size(); ++g) {
    const format::RowGroup& rg = file.row_groups[g];
    int64_t bytes = 0;
    if (columns.empty()) {
      for (const format::ColumnChunk& c : rg.columns) bytes += chunk_bytes(c);
    } else {
      for (size_t c : columns) {
        if (c >= rg.columns.size())
          throw Error(ErrorKind::kInvalidArgument, {.row_group = static_cast<int64_t>(g)},
                      "leaf column " + std::to_string(c) + " is out of range (the row group has " +
                          std::to_string(rg.columns.size()) + ")");
        bytes += chunk_bytes(rg.columns[c]);
      }
    }
    if (current.row_group_end > current.row_group_begin && current.bytes + bytes > target_bytes) {
      splits.push_back(current);
      current = Split{g, g, 0, 0};
    }
    if (current.row_group_end == current.row_group_begin) current.row_group_begin = g;
    current.row_group_end = g + 1;
    current.rows += rg.num_rows > 0 ? rg.num_rows : 0;
    current.bytes += bytes;
  }
  if (current.row_group_end > current.row_group_begin) splits.push_back(current);
  return splits;
}

}  // namespace parq
