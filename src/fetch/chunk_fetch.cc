// The fetch stage; see chunk_fetch.h.
#include "chunk_fetch.h"

#include <algorithm>

#include "parq/error.h"

namespace parq::fetch {

ChunkRequest chunk_request(const format::FileMetaData& file, size_t row_group, size_t column, uint64_t file_size,
                           const format::OffsetIndex* index, const std::vector<RowRange>& rows, int64_t num_rows) {
  const ChunkRange whole = chunk_range(file, row_group, column, file_size);
  ChunkRequest out;
  const bool all_rows = rows.size() == 1 && rows[0].begin == 0 && rows[0].end >= num_rows;
  if (index == nullptr || index->page_locations.empty() || all_rows) {
    out.ranges.push_back({whole.offset, whole.length});
    return out;
  }
  const auto& pages = index->page_locations;
  auto add = [&](uint64_t offset, uint64_t length) {
    if (length == 0) return;
    if (!out.ranges.empty() && out.ranges.back().end() == offset) {
      out.ranges.back().length += length;
    } else {
      out.ranges.push_back({offset, length});
    }
  };
  // What lies before the first data page: the dictionary page.
  const uint64_t first_page = static_cast<uint64_t>(pages[0].offset);
  if (first_page < whole.offset || first_page > whole.offset + whole.length)
    throw Error("row group " + std::to_string(row_group) + ", column " + std::to_string(column) +
                ": the offset index's first page lies outside the column chunk");
  add(whole.offset, first_page - whole.offset);
  for (size_t p = 0; p < pages.size(); ++p) {
    const RowRange page_rows{pages[p].first_row_index, p + 1 < pages.size() ? pages[p + 1].first_row_index : num_rows};
    if (intersect_ranges(rows, {page_rows}).empty()) {
      out.partial = true;
      continue;
    }
    add(static_cast<uint64_t>(pages[p].offset), static_cast<uint64_t>(pages[p].compressed_page_size));
    out.page_first_rows.push_back({static_cast<uint64_t>(pages[p].offset), pages[p].first_row_index});
    out.page_ordinals.push_back(static_cast<int32_t>(std::min<size_t>(p, INT32_MAX)));
  }
  if (!out.partial) {  // every page: read it as one range, padding and all
    out = ChunkRequest{};
    out.ranges.push_back({whole.offset, whole.length});
  }
  return out;
}

std::vector<ChunkBytes> fetch_chunks(io::RandomAccessInput& input, const std::vector<ChunkRequest>& requests) {
  std::vector<io::FileRange> all;
  for (const ChunkRequest& r : requests) all.insert(all.end(), r.ranges.begin(), r.ranges.end());
  std::vector<io::ByteRange> bytes = input.read_ranges(all);
  std::vector<ChunkBytes> out(requests.size());
  size_t next = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    for (const io::FileRange& range : requests[i].ranges)
      out[i].segments.push_back({range.offset, std::move(bytes[next++])});
    out[i].page_first_rows = requests[i].page_first_rows;
    out[i].page_ordinals = requests[i].page_ordinals;
    out[i].partial = requests[i].partial;
  }
  return out;
}

}  // namespace parq::fetch
