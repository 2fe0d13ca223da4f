// Reading a chunk's dictionary; see file/dictionary_reader.h.
#include "parq/file/dictionary_reader.h"

#include <algorithm>
#include <string>

#include "parq/encoding/byte_array_batch.h"
#include "parq/encoding/plain.h"
#include "parq/error.h"

namespace parq {
namespace {

using format::Encoding;
using format::PageType;
using format::Type;

bool is_dictionary(Encoding e) { return e == Encoding::PLAIN_DICTIONARY || e == Encoding::RLE_DICTIONARY; }

bool from_encoding_stats(const std::vector<format::PageEncodingStats>& stats) {
  bool dictionary_pages = false;
  for (const auto& s : stats) {
    if (s.page_type != PageType::DATA_PAGE && s.page_type != PageType::DATA_PAGE_V2) continue;
    if (s.count < 0) return false;
    // An entry for no pages says nothing about the pages there are.
    if (s.count == 0) continue;
    if (!is_dictionary(s.encoding)) return false;
    dictionary_pages = true;
  }
  return dictionary_pages;
}

bool from_encodings(const format::ColumnMetaData& chunk) {
  // RLE is also a value encoding for booleans, so it would hide a fallback.
  if (chunk.type == Type::BOOLEAN) return false;
  bool dictionary = false;
  for (Encoding e : chunk.encodings) {
    if (is_dictionary(e)) {
      dictionary = true;
    } else if (e != Encoding::RLE && e != Encoding::BIT_PACKED) {
      return false;
    }
  }
  return dictionary;
}

template <class T>
void decode_fixed(Array& out, std::span<const uint8_t> bytes, size_t n) {
  encoding::PlainDecoder<T> plain(bytes.data(), bytes.size(), n);
  out.values.resize(n * sizeof(T));
  if (plain.decode(out.values.data_as<T>(), n) != n) throw Error("the page ended early");
}

void decode_values(Array& out, std::span<const uint8_t> bytes, size_t n) {
  // Every value takes at least this many bytes (a length prefix for byte
  // arrays), so the count is checked against the page before anything is
  // allocated for it.
  const uint64_t needed = out.type.physical == Type::BOOLEAN      ? (uint64_t{n} + 7) / 8
                          : out.type.physical == Type::BYTE_ARRAY ? uint64_t{n} * 4
                                                                  : uint64_t{n} * uint64_t(out.value_width());
  if (needed > bytes.size())
    throw Error(std::to_string(n) + " values cannot fit in " + std::to_string(bytes.size()) + " bytes");
  switch (out.type.physical) {
    case Type::BOOLEAN: {
      encoding::PlainBooleanDecoder plain(bytes.data(), bytes.size(), n);
      Buffer unpacked(n);
      if (plain.decode(unpacked.data(), n) != n) throw Error("the page ended early");
      out.values.resize((n + 7) / 8);
      std::fill(out.values.data(), out.values.data() + out.values.size(), uint8_t{0});
      for (size_t i = 0; i < n; ++i)
        if (unpacked.data()[i]) out.values.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
      return;
    }
    case Type::INT32:
      return decode_fixed<int32_t>(out, bytes, n);
    case Type::INT64:
      return decode_fixed<int64_t>(out, bytes, n);
    case Type::INT96:
      return decode_fixed<encoding::Int96>(out, bytes, n);
    case Type::FLOAT:
      return decode_fixed<float>(out, bytes, n);
    case Type::DOUBLE:
      return decode_fixed<double>(out, bytes, n);
    case Type::FIXED_LEN_BYTE_ARRAY: {
      const auto width = static_cast<size_t>(out.type.type_length);
      encoding::PlainFixedLenByteArrayDecoder plain(width);
      plain.reset(bytes.data(), bytes.size(), n);
      out.values.resize(n * width);
      if (plain.decode(out.values.data(), n) != n) throw Error("the page ended early");
      return;
    }
    case Type::BYTE_ARRAY: {
      encoding::PlainByteArrayDecoder plain(bytes.data(), bytes.size(), n);
      encoding::ByteArrayBatch batch;
      if (plain.decode(batch, n) != n) throw Error("the page ended early");
      out.offsets = std::move(batch.offsets_buffer());
      out.values = std::move(batch.data_buffer());
      return;
    }
  }
  throw Error(std::string("unsupported physical type ") + format::to_string(out.type.physical));
}

}  // namespace

bool all_pages_dictionary_encoded(const format::ColumnMetaData& chunk) {
  return chunk.encoding_stats ? from_encoding_stats(*chunk.encoding_stats) : from_encodings(chunk);
}

std::optional<Array> read_dictionary(io::RandomAccessInput& input, const format::FileMetaData& file,
                                     const ColumnDescriptor& column, size_t row_group,
                                     const PageReaderOptions& options) {
  if (row_group >= file.row_groups.size())
    throw Error(ErrorKind::kInvalidArgument, {.file = input.name()},
                "row group " + std::to_string(row_group) + " out of range (the file has " +
                    std::to_string(file.row_groups.size()) + ")");
  if (static_cast<size_t>(column.column_index) >= file.row_groups[row_group].columns.size())
    throw Error(ErrorKind::kCorrupt, {.file = input.name(), .column = column.dotted_path()},
                "out of range (row group " + std::to_string(row_group) + " has " +
                    std::to_string(file.row_groups[row_group].columns.size()) + " columns)");
  // When the metadata places the dictionary page before the first data
  // page, only the bytes between them are read, not the whole chunk.
  const size_t index = static_cast<size_t>(column.column_index);
  ChunkBytes bytes;
  const auto& md = file.row_groups[row_group].columns[index].meta_data;
  const ChunkRange whole = [&] {
    try {
      return chunk_range(file, row_group, index, input.size());
    } catch (const Error& e) {
      throw e.within({.file = input.name(), .column = column.dotted_path()});
    }
  }();
  if (md && md->dictionary_page_offset && *md->dictionary_page_offset == static_cast<int64_t>(whole.offset) &&
      md->data_page_offset > *md->dictionary_page_offset &&
      static_cast<uint64_t>(md->data_page_offset) <= whole.offset + whole.length) {
    const io::FileRange head{whole.offset, static_cast<uint64_t>(md->data_page_offset) - whole.offset};
    bytes.segments.push_back({head.offset, std::move(input.read_ranges({&head, 1})[0])});
    bytes.partial = true;  // ends with the dictionary page
  } else {
    bytes = fetch_whole_chunk(input, file, row_group, index);
  }
  PageReader pages(std::move(bytes), input.name(), file, row_group, index, column.dotted_path(), options);
  if (pages.metadata().type != column.type.physical)
    throw Error(ErrorKind::kCorrupt, pages.location(),
                std::string("the chunk's type ") + format::to_string(pages.metadata().type) + " is not the schema's " +
                    format::to_string(column.type.physical));
  PageInfo page;
  bool found = false;
  while (!found && pages.next(page)) {
    switch (page.header.type) {
      case PageType::DICTIONARY_PAGE:
        found = true;
        break;
      case PageType::DATA_PAGE:
      case PageType::DATA_PAGE_V2:
        return std::nullopt;
      default:  // index pages and kinds from newer writers carry no values
        break;
    }
  }
  if (!found) return std::nullopt;
  const ErrorLocation where = pages.location(page);
  if (!page.header.dictionary_page_header)
    throw Error(ErrorKind::kCorrupt, where, "dictionary page without its header");
  const format::DictionaryPageHeader& header = *page.header.dictionary_page_header;
  if (header.num_values < 0)
    throw Error(ErrorKind::kCorrupt, where, "dictionary page: negative size " + std::to_string(header.num_values));
  if (header.encoding != Encoding::PLAIN && header.encoding != Encoding::PLAIN_DICTIONARY)
    throw Error(
        ErrorKind::kCorrupt, where,
        std::string("dictionary page: encoding ") + format::to_string(header.encoding) + " (dictionaries are PLAIN)");

  Array out;
  out.kind = ArrayKind::kLeaf;
  out.name = column.path.empty() ? std::string() : column.path.back();
  out.type = column.type;
  out.length = header.num_values;
  try {
    decode_values(out, pages.decompress(page), static_cast<size_t>(header.num_values));
  } catch (const Error& e) {
    throw e.with_context("dictionary page").within(where);
  }
  return out;
}

std::optional<Array> read_dictionary(const FileReader& file, size_t row_group, size_t column,
                                     const PageReaderOptions& options) {
  PageReaderOptions with_keys = options;
  if (!with_keys.decryptor) with_keys.decryptor = file.footer().decryptor;
  return read_dictionary(file.chunk_input(row_group, column), file.metadata(), file.schema().column(column), row_group,
                         with_keys);
}

}  // namespace parq
