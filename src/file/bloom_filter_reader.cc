// Reading a chunk's bloom filter; see file/bloom_filter_reader.h.
#include "parq/file/bloom_filter_reader.h"

#include <algorithm>
#include <string>

#include "parq/column/page_reader.h"
#include "parq/error.h"
#include "parq/format/metadata_codec.h"

namespace parq {
namespace {

// Headers are a few bytes; this leaves room for fields a newer writer adds.
constexpr uint64_t kMaxHeaderBytes = 4096;

[[noreturn]] void fail(const ErrorLocation& where, const std::string& what, ErrorKind kind = ErrorKind::kCorrupt) {
  throw Error(kind, where, "bloom filter: " + what);
}

// An encrypted filter: its header and its bitset are modules of their own,
// decrypted back into the plain layout BloomFilter::read takes.
std::optional<BloomFilter> read_encrypted(io::RandomAccessInput& input, uint64_t offset,
                                          const crypto::ModuleCipher& cipher, const ErrorLocation& where) {
  using crypto::ModuleType;
  const uint64_t room = input.size() - offset;
  const auto probe = static_cast<size_t>(std::min(room, kMaxHeaderBytes + crypto::kGcmOverhead));
  io::ByteRange head = io::ByteRange::read(input, offset, probe);
  // The plain layout BloomFilter::read takes: the header's own bytes (a
  // writer may pad its module, as parquet-java pads page headers), then
  // the bitset, decrypted in place after them.
  Buffer plain;
  format::BloomFilterHeader header;
  size_t header_module = 0, header_used = 0;
  try {
    header_module = cipher.module_size(ModuleType::kBloomFilterHeader, head.span());
    std::span<const uint8_t> h =
        cipher.decrypt(ModuleType::kBloomFilterHeader, head.span().first(header_module), plain);
    header_used = format::decode_thrift(h.data(), h.size(), header, 0);
  } catch (const Error& e) {
    throw e.with_context("bloom filter header").within(where);
  }
  if (header.num_bytes < 0 || static_cast<uint64_t>(header.num_bytes) > BloomFilter::kMaxBytes)
    fail(where, "bitset size " + std::to_string(header.num_bytes) + " is outside [0, " +
                    std::to_string(BloomFilter::kMaxBytes) + "]");
  const uint64_t bitset_module = static_cast<uint64_t>(header.num_bytes) + crypto::kGcmOverhead;
  if (header_module + bitset_module > room)
    fail(where, "the encrypted bitset of " + std::to_string(header.num_bytes) + " bytes at offset " +
                    std::to_string(offset + header_module) + " runs past the end of the file");
  io::ByteRange bitset = io::ByteRange::read(input, offset + header_module, static_cast<size_t>(bitset_module));
  plain.resize(header_used + static_cast<size_t>(header.num_bytes));
  try {
    cipher.decrypt(ModuleType::kBloomFilterBitset, bitset.span(), plain.data() + header_used);
  } catch (const Error& e) {
    throw e.within(where);
  }
  try {
    return BloomFilter::read(plain.span(), 0);
  } catch (const Error& e) {
    if (e.detail().rfind("bloom filter", 0) == 0) throw e.within(where);
    throw e.with_context("bloom filter").within(where);
  }
}

}  // namespace

std::optional<BloomFilter> read_bloom_filter(io::RandomAccessInput& input, const format::FileMetaData& file,
                                             size_t row_group, size_t column, const crypto::FileDecryptor* decryptor) {
  if (row_group >= file.row_groups.size())
    throw Error(ErrorKind::kInvalidArgument, {.file = input.name()},
                "row group " + std::to_string(row_group) + " out of range (the file has " +
                    std::to_string(file.row_groups.size()) + ")");
  const auto& columns = file.row_groups[row_group].columns;
  if (column >= columns.size())
    throw Error(ErrorKind::kInvalidArgument, {.file = input.name(), .row_group = static_cast<int64_t>(row_group)},
                "column " + std::to_string(column) + " out of range (the row group has " +
                    std::to_string(columns.size()) + ")");
  const format::ColumnChunk& chunk = columns[column];
  const ErrorLocation where = chunk_location(input.name(), file, row_group, column);
  if (!chunk.meta_data) {
    if (chunk.crypto_metadata) fail(where, "the column is encrypted: a key is needed", ErrorKind::kUnsupported);
    fail(where, "the column chunk has no metadata");
  }
  const format::ColumnMetaData& md = *chunk.meta_data;
  if (!md.bloom_filter_offset) return std::nullopt;

  const uint64_t file_size = input.size();
  const int64_t signed_offset = *md.bloom_filter_offset;
  if (signed_offset < 0 || static_cast<uint64_t>(signed_offset) >= file_size)
    fail(where,
         "offset " + std::to_string(signed_offset) + " is outside the file (" + std::to_string(file_size) + " bytes)");
  const auto offset = static_cast<uint64_t>(signed_offset);
  crypto::ModuleCipher cipher;
  try {
    cipher = crypto::chunk_cipher(decryptor, file, row_group, column);
  } catch (const Error& e) {
    throw e.with_context("bloom filter").within(where);
  }
  if (cipher.valid()) return read_encrypted(input, offset, cipher, where);
  const uint64_t room = file_size - offset;

  uint64_t length = 0;
  if (md.bloom_filter_length) {
    const int32_t n = *md.bloom_filter_length;
    if (n <= 0 || static_cast<uint64_t>(n) > room)
      fail(where, "length " + std::to_string(n) + " at offset " + std::to_string(offset) + " does not fit the file (" +
                      std::to_string(room) + " bytes left)");
    if (static_cast<uint64_t>(n) > BloomFilter::kMaxBytes + kMaxHeaderBytes)
      fail(where, "length " + std::to_string(n) + " is more than a filter of at most " +
                      std::to_string(BloomFilter::kMaxBytes) + " bytes needs");
    length = static_cast<uint64_t>(n);
  } else {
    // Without a length, the header says how much bitset follows it.
    const auto probe = static_cast<size_t>(std::min(room, kMaxHeaderBytes));
    io::ByteRange head = io::ByteRange::read(input, offset, probe);
    format::BloomFilterHeader header;
    size_t header_size = 0;
    try {
      header_size = format::decode_thrift(head.data(), head.size(), header, offset);
    } catch (const Error& e) {
      fail(where, "the header does not decode: " + e.detail());
    }
    if (header.num_bytes < 0 || static_cast<uint64_t>(header.num_bytes) > BloomFilter::kMaxBytes)
      fail(where, "bitset size " + std::to_string(header.num_bytes) + " is outside [0, " +
                      std::to_string(BloomFilter::kMaxBytes) + "]");
    const uint64_t total = header_size + static_cast<uint64_t>(header.num_bytes);
    if (total > room)
      fail(where, "the header and its " + std::to_string(header.num_bytes) + " bytes of bitset at offset " +
                      std::to_string(offset) + " run past the end of the file");
    length = total;
  }
  io::ByteRange bytes = io::ByteRange::read(input, offset, static_cast<size_t>(length));
  try {
    return BloomFilter::read(bytes.span(), offset);
  } catch (const Error& e) {
    // The filter's own checks name it already; the header decoder does not.
    if (e.detail().rfind("bloom filter", 0) == 0) throw e.within(where);
    throw e.with_context("bloom filter").within(where);
  }
  return std::nullopt;  // not reached: fail(where, ) throws
}

std::optional<BloomFilter> read_bloom_filter(const FileReader& file, size_t row_group, size_t column) {
  return read_bloom_filter(file.chunk_input(row_group, column), file.metadata(), row_group, column,
                           file.footer().decryptor.get());
}

}  // namespace parq
