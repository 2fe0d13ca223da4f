// libFuzzer target for the page index: a ColumnIndex and an OffsetIndex
// decoded from arbitrary bytes and validated against a column chunk and row
// group that the first bytes describe. Whatever passes validation must keep
// the promises page_index.h makes (pages inside the chunk, in order, rows
// partitioning the row group); anything else must be a parq::Error.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "parq/error.h"
#include "parq/file/page_index.h"

namespace {

uint16_t u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }

void check_promises(const parq::PageIndex& index, const parq::format::ColumnMetaData& md, int64_t num_rows) {
  if (index.column_index && index.offset_index &&
      index.column_index->null_pages.size() != index.offset_index->page_locations.size())
    std::abort();
  if (const auto& ci = index.column_index) {
    const size_t n = ci->null_pages.size();
    if (ci->min_values.size() != n || ci->max_values.size() != n) std::abort();
    if (ci->null_counts && ci->null_counts->size() != n) std::abort();
  }
  if (!index.offset_index) return;
  int64_t rows = 0;
  int64_t end_of_last = md.data_page_offset;
  for (size_t p = 0; p < index.num_pages(); ++p) {
    const parq::RowRange r = index.page_rows(p);
    if (r.begin != rows || r.end <= r.begin) std::abort();
    rows = r.end;
    const auto& loc = index.offset_index->page_locations[p];
    if (loc.offset < end_of_last ||
        loc.offset + loc.compressed_page_size > md.data_page_offset + md.total_compressed_size)
      std::abort();
    end_of_last = loc.offset + loc.compressed_page_size;
  }
  if (index.num_pages() > 0 && rows != num_rows) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // flags, num_rows, chunk offset, chunk length, split of the rest.
  constexpr size_t kPrefix = 9;
  if (size < kPrefix) return 0;
  const uint8_t flags = data[0];
  const size_t rest = size - kPrefix;
  const size_t split = rest == 0 ? 0 : u16(data + 7) % (rest + 1);

  parq::format::FileMetaData file;
  file.row_groups.resize(1);
  parq::format::RowGroup& rg = file.row_groups[0];
  rg.num_rows = u16(data + 1);
  rg.columns.resize(1);
  parq::format::ColumnChunk& chunk = rg.columns[0];
  auto& md = chunk.meta_data.emplace();
  md.type = static_cast<parq::format::Type>(flags % 8);
  md.path_in_schema = {"c"};
  md.data_page_offset = u16(data + 3) % (size + 1);
  md.total_compressed_size = u16(data + 5) % (size - md.data_page_offset + 1);
  if (flags & 0x10) {
    chunk.column_index_offset = static_cast<int64_t>(kPrefix);
    chunk.column_index_length = static_cast<int32_t>(split);
  }
  if (flags & 0x20) {
    chunk.offset_index_offset = static_cast<int64_t>(kPrefix + split);
    chunk.offset_index_length = static_cast<int32_t>(rest - split);
  }
  try {
    (void)parq::row_group_page_index_range(file, 0, size);
    auto index = parq::decode_page_index({data, size}, 0, file, 0, 0, size, "fuzz");
    if (index) check_promises(*index, md, rg.num_rows);
  } catch (const parq::Error&) {
  }
  return 0;
}
