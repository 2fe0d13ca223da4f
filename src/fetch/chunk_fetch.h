// The fetch stage of a read: which bytes of a row group's column chunks the
// plan's row ranges need, and reading them all in one read_ranges call (an
// input may coalesce near ranges and run them concurrently). With an offset
// index, a chunk's request is its dictionary page and the data pages whose
// rows meet the ranges; without one, or when every page is needed, the
// whole chunk.
#pragma once

#include <cstdint>
#include <vector>

#include "parq/column/page_reader.h"
#include "parq/format/metadata.h"
#include "parq/io/input.h"
#include "parq/plan/read_plan.h"

namespace parq::fetch {

struct ChunkRequest {
  std::vector<io::FileRange> ranges;                          // ascending, not touching
  std::vector<std::pair<uint64_t, int64_t>> page_first_rows;  // (offset, first row) of the data pages requested
  std::vector<int32_t> page_ordinals;                         // their positions among the chunk's data pages
  bool partial = false;
};

// `index`: the chunk's validated offset index, or null. `rows`: the rows of
// the row group to read (normalized). Throws parq::Error naming the chunk
// when its extent is not inside the file.
ChunkRequest chunk_request(const format::FileMetaData& file, size_t row_group, size_t column, uint64_t file_size,
                           const format::OffsetIndex* index, const std::vector<RowRange>& rows, int64_t num_rows);

// Reads every request's ranges in one call and hands each its bytes.
std::vector<ChunkBytes> fetch_chunks(io::RandomAccessInput& input, const std::vector<ChunkRequest>& requests);

}  // namespace parq::fetch
