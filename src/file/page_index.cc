// Reading and validating the page index; see file/page_index.h.
#include "parq/file/page_index.h"

#include <algorithm>
#include <string>

#include "parq/column/page_reader.h"
#include "parq/error.h"
#include "parq/format/metadata_codec.h"
#include "parq/io/input.h"

namespace parq {
namespace {

using format::ColumnChunk;
using format::ColumnIndex;
using format::FileMetaData;
using format::OffsetIndex;

const ColumnChunk& chunk_at(const FileMetaData& file, size_t row_group, size_t column, std::string_view where) {
  if (row_group >= file.row_groups.size())
    throw Error(ErrorKind::kInvalidArgument, {.file = std::string(where)},
                "row group " + std::to_string(row_group) + " out of range (the file has " +
                    std::to_string(file.row_groups.size()) + ")");
  const auto& columns = file.row_groups[row_group].columns;
  if (column >= columns.size())
    throw Error(ErrorKind::kInvalidArgument, {.file = std::string(where), .row_group = static_cast<int64_t>(row_group)},
                "column " + std::to_string(column) + " out of range (the row group has " +
                    std::to_string(columns.size()) + ")");
  return columns[column];
}

std::optional<FileRange> index_range(const std::optional<int64_t>& offset, const std::optional<int32_t>& length,
                                     uint64_t file_size, const std::string& what, const ErrorLocation& where) {
  if (!offset && !length) return std::nullopt;
  if (!offset || !length) throw Error(ErrorKind::kCorrupt, where, what + " has an offset or a length but not both");
  if (*offset < 0 || *length <= 0)
    throw Error(ErrorKind::kCorrupt, where,
                what + " at offset " + std::to_string(*offset) + " with length " + std::to_string(*length));
  FileRange r{static_cast<uint64_t>(*offset), static_cast<uint64_t>(*length)};
  if (r.offset > file_size || r.length > file_size - r.offset)
    throw Error(ErrorKind::kCorrupt, where,
                what + " [" + std::to_string(r.offset) + ", +" + std::to_string(r.length) +
                    ") reaches past the end of the file (" + std::to_string(file_size) + " bytes)");
  return r;
}

void check_column_index(const ColumnIndex& index, const format::ColumnMetaData& md, const ErrorLocation& where) {
  auto fail = [&](const std::string& what) { throw Error(ErrorKind::kCorrupt, where, "column index: " + what); };
  const size_t pages = index.null_pages.size();
  auto same_count = [&](size_t n, const char* field) {
    if (n != pages)
      fail(std::string(field) + " has " + std::to_string(n) + " entries for " + std::to_string(pages) +
           " pages (null_pages)");
  };
  same_count(index.min_values.size(), "min_values");
  same_count(index.max_values.size(), "max_values");
  if (index.null_counts) same_count(index.null_counts->size(), "null_counts");
  if (index.nan_counts) same_count(index.nan_counts->size(), "nan_counts");
  for (const auto* histograms : {&index.repetition_level_histograms, &index.definition_level_histograms}) {
    if (!*histograms) continue;
    const size_t n = (*histograms)->size();
    if (pages == 0 ? n != 0 : n % pages != 0)
      fail((histograms == &index.repetition_level_histograms ? std::string("repetition") : std::string("definition")) +
           " level histograms have " + std::to_string(n) + " entries, not a multiple of the " + std::to_string(pages) +
           " pages");
  }
  for (const auto* counts : {&index.null_counts, &index.nan_counts}) {
    if (!*counts) continue;
    for (size_t i = 0; i < pages; ++i)
      if ((**counts)[i] < 0)
        fail("page " + std::to_string(i) + " has a negative " + (counts == &index.null_counts ? "null" : "NaN") +
             " count");
  }
  // FIXED_LEN_BYTE_ARRAY's width is in the schema: checked there.
  if (const auto width = static_cast<size_t>(plain_width(md.type, 0))) {
    for (size_t i = 0; i < pages; ++i) {
      if (index.null_pages[i]) continue;
      for (const std::string* bound : {&index.min_values[i], &index.max_values[i]})
        if (bound->size() != width)
          fail("page " + std::to_string(i) + " has a " + (bound == &index.min_values[i] ? "min" : "max") + " of " +
               std::to_string(bound->size()) + " bytes for a " + format::to_string(md.type) + " column (" +
               std::to_string(width) + " bytes)");
    }
  }
}

void check_offset_index(const OffsetIndex& index, ChunkRange chunk, int64_t num_rows, const ErrorLocation& where) {
  auto fail = [&](const std::string& what) { throw Error(ErrorKind::kCorrupt, where, "offset index: " + what); };
  const auto& pages = index.page_locations;
  if (pages.empty() && num_rows > 0) fail("no pages for the row group's " + std::to_string(num_rows) + " rows");
  if (index.unencoded_byte_array_data_bytes && index.unencoded_byte_array_data_bytes->size() != pages.size())
    fail("unencoded_byte_array_data_bytes has " + std::to_string(index.unencoded_byte_array_data_bytes->size()) +
         " entries for " + std::to_string(pages.size()) + " pages");
  const uint64_t chunk_end = chunk.offset + chunk.length;
  uint64_t next_offset = chunk.offset;
  for (size_t i = 0; i < pages.size(); ++i) {
    const format::PageLocation& p = pages[i];
    const std::string page = "page " + std::to_string(i);
    if (p.compressed_page_size <= 0) fail(page + " has size " + std::to_string(p.compressed_page_size));
    const auto offset = static_cast<uint64_t>(p.offset);
    const auto size = static_cast<uint64_t>(p.compressed_page_size);
    if (p.offset < 0 || offset < chunk.offset || offset > chunk_end || size > chunk_end - offset)
      fail(page + " [" + std::to_string(p.offset) + ", +" + std::to_string(size) + ") is outside the column chunk [" +
           std::to_string(chunk.offset) + ", " + std::to_string(chunk_end) + ")");
    if (offset < next_offset)
      fail(page + " at offset " + std::to_string(offset) + " starts before page " + std::to_string(i - 1) + " ends (" +
           std::to_string(next_offset) + ")");
    next_offset = offset + size;
    if (i == 0 && p.first_row_index != 0) fail("page 0 starts at row " + std::to_string(p.first_row_index) + ", not 0");
    if (i > 0 && p.first_row_index <= pages[i - 1].first_row_index)
      fail(page + " starts at row " + std::to_string(p.first_row_index) + ", not after page " + std::to_string(i - 1) +
           "'s row " + std::to_string(pages[i - 1].first_row_index));
    if (p.first_row_index >= num_rows)
      fail(page + " starts at row " + std::to_string(p.first_row_index) + ", past the row group's " +
           std::to_string(num_rows) + " rows");
  }
}

// Checks that `range` lies inside `bytes` (the file's bytes from
// `bytes_offset` on) and returns its part of them.
std::span<const uint8_t> part_of(std::span<const uint8_t> bytes, uint64_t bytes_offset, FileRange range,
                                 const char* what, const ErrorLocation& where) {
  if (range.offset < bytes_offset || range.offset - bytes_offset > bytes.size() ||
      range.length > bytes.size() - (range.offset - bytes_offset))
    throw Error(ErrorKind::kCorrupt, where,
                std::string(what) + " [" + std::to_string(range.offset) + ", +" + std::to_string(range.length) +
                    ") is not inside the bytes given [" + std::to_string(bytes_offset) + ", +" +
                    std::to_string(bytes.size()) + ")");
  return bytes.subspan(static_cast<size_t>(range.offset - bytes_offset), static_cast<size_t>(range.length));
}

// An encrypted column's index is a module of its own (`type`), decrypted
// with the chunk's cipher before it decodes.
template <class T>
T decode_index(std::span<const uint8_t> bytes, uint64_t file_offset, const char* what, const ErrorLocation& where,
               const crypto::ModuleCipher& cipher, crypto::ModuleType type) {
  T index;
  Buffer plain;
  if (cipher.valid()) {
    try {
      bytes = cipher.decrypt(type, bytes, plain);
    } catch (const Error& e) {
      throw e.within(where);
    }
    file_offset = 0;
  }
  try {
    format::decode_thrift(bytes.data(), bytes.size(), index, file_offset);
  } catch (const Error& e) {
    throw e.with_context(std::string(what) + " does not decode").within(where);
  }
  return index;
}

// Decodes and validates a chunk's indexes from the bytes `fetch(range, what)`
// returns for each range.
template <class Fetch>
std::optional<PageIndex> decode_chunk_indexes(const FileMetaData& file, size_t row_group, size_t column,
                                              uint64_t file_size, std::string_view where,
                                              const crypto::FileDecryptor* decryptor, Fetch&& fetch) {
  const PageIndexRanges ranges = page_index_ranges(file, row_group, column, file_size, where);
  if (!ranges.column_index && !ranges.offset_index) return std::nullopt;
  const ErrorLocation at = chunk_location(std::string(where), file, row_group, column);
  crypto::ModuleCipher cipher;
  try {
    cipher = crypto::chunk_cipher(decryptor, file, row_group, column);
  } catch (const Error& e) {
    throw e.within(at);
  }
  const format::RowGroup& rg = file.row_groups[row_group];
  if (rg.num_rows < 0) throw Error(ErrorKind::kCorrupt, at, "negative row count " + std::to_string(rg.num_rows));
  ChunkRange chunk;
  try {
    chunk = chunk_range(file, row_group, column, file_size);
  } catch (const Error& e) {
    throw e.within(at);
  }
  PageIndex index;
  index.row_group_rows = rg.num_rows;
  if (ranges.column_index) {
    const FileRange r = *ranges.column_index;
    index.column_index = decode_index<ColumnIndex>(fetch(r, "column index", at), r.offset, "column index", at, cipher,
                                                   crypto::ModuleType::kColumnIndex);
    check_column_index(*index.column_index, *rg.columns[column].meta_data, at);
  }
  if (ranges.offset_index) {
    const FileRange r = *ranges.offset_index;
    index.offset_index = decode_index<OffsetIndex>(fetch(r, "offset index", at), r.offset, "offset index", at, cipher,
                                                   crypto::ModuleType::kOffsetIndex);
    check_offset_index(*index.offset_index, chunk, rg.num_rows, at);
  }
  if (index.column_index && index.offset_index &&
      index.column_index->null_pages.size() != index.offset_index->page_locations.size())
    throw Error(ErrorKind::kCorrupt, at,
                "the column index has " + std::to_string(index.column_index->null_pages.size()) +
                    " pages, the offset index " + std::to_string(index.offset_index->page_locations.size()));
  return index;
}

}  // namespace

PageIndexRanges page_index_ranges(const FileMetaData& file, size_t row_group, size_t column, uint64_t file_size,
                                  std::string_view where) {
  const ColumnChunk& chunk = chunk_at(file, row_group, column, where);
  const ErrorLocation at = chunk_location(std::string(where), file, row_group, column);
  PageIndexRanges ranges;
  ranges.column_index =
      index_range(chunk.column_index_offset, chunk.column_index_length, file_size, "column index", at);
  ranges.offset_index =
      index_range(chunk.offset_index_offset, chunk.offset_index_length, file_size, "offset index", at);
  return ranges;
}

std::optional<FileRange> row_group_page_index_range(const FileMetaData& file, size_t row_group, uint64_t file_size,
                                                    std::span<const size_t> columns, std::string_view where) {
  std::optional<FileRange> all;
  auto cover = [&](const std::optional<FileRange>& r) {
    if (!r) return;
    if (!all) {
      all = r;
      return;
    }
    const uint64_t begin = std::min(all->offset, r->offset);
    const uint64_t end = std::max(all->end(), r->end());
    all = FileRange{begin, end - begin};
  };
  auto add = [&](size_t column) {
    PageIndexRanges r = page_index_ranges(file, row_group, column, file_size, where);
    cover(r.column_index);
    cover(r.offset_index);
  };
  if (row_group >= file.row_groups.size())
    throw Error(ErrorKind::kInvalidArgument, {.file = std::string(where)},
                "row group " + std::to_string(row_group) + " out of range (the file has " +
                    std::to_string(file.row_groups.size()) + ")");
  if (columns.empty()) {
    for (size_t c = 0; c < file.row_groups[row_group].columns.size(); ++c) add(c);
  } else {
    for (size_t c : columns) add(c);
  }
  return all;
}

size_t PageIndex::num_pages() const {
  return offset_index ? offset_index->page_locations.size() : column_index ? column_index->null_pages.size() : 0;
}

RowRange PageIndex::page_rows(size_t page) const {
  if (!offset_index)
    throw Error("page index: the rows of a page need the offset index, which the chunk lacks",
                ErrorKind::kInvalidArgument);
  const auto& pages = offset_index->page_locations;
  if (page >= pages.size())
    throw Error(
        "page index: page " + std::to_string(page) + " out of range (" + std::to_string(pages.size()) + " pages)",
        ErrorKind::kInvalidArgument);
  return {pages[page].first_row_index, page + 1 < pages.size() ? pages[page + 1].first_row_index : row_group_rows};
}

std::optional<PageIndex> decode_page_index(std::span<const uint8_t> bytes, uint64_t bytes_offset,
                                           const FileMetaData& file, size_t row_group, size_t column,
                                           uint64_t file_size, std::string_view where,
                                           const crypto::FileDecryptor* decryptor) {
  return decode_chunk_indexes(file, row_group, column, file_size, where, decryptor,
                              [&](FileRange r, const char* what, const ErrorLocation& at) {
                                return part_of(bytes, bytes_offset, r, what, at);
                              });
}

std::optional<PageIndex> read_page_index(const FileReader& file, size_t row_group, size_t column) {
  // A chunk's two indexes are usually far apart (writers put every column
  // index first, then every offset index), so each is read on its own.
  io::RandomAccessInput& input = file.chunk_input(row_group, column);
  io::ByteRange held;
  return decode_chunk_indexes(file.metadata(), row_group, column, input.size(), file.name(),
                              file.footer().decryptor.get(), [&](FileRange r, const char*, const ErrorLocation&) {
                                held = io::ByteRange::read(input, r.offset, static_cast<size_t>(r.length));
                                return held.span();
                              });
}

}  // namespace parq
