// Split block bloom filters; see bloom_filter.h and BloomFilter.md.
#include "parq/column/bloom_filter.h"

#include <xxhash.h>

#include <cmath>
#include <cstring>

#include "parq/error.h"
#include "parq/format/metadata_codec.h"

namespace parq {
namespace {

constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

bool power_of_two(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// The block a hash selects: its upper half scaled to the block count, so
// every block size works without a modulo.
size_t block_of(uint64_t hash, size_t num_blocks) {
  return static_cast<size_t>(((hash >> 32) * static_cast<uint64_t>(num_blocks)) >> 32);
}

void block_mask(uint32_t key, uint32_t mask[8]) {
  for (int i = 0; i < 8; ++i) mask[i] = 1u << ((key * kSalt[i]) >> 27);
}

template <class T>
uint64_t hash_plain(T v) {
  return XXH64(&v, sizeof(T), 0);
}

}  // namespace

size_t BloomFilter::optimal_num_bytes(uint64_t ndv, double fpp) {
  if (!(fpp > 0 && fpp < 1)) throw Error("bloom filter false-positive rate must be between 0 and 1");
  // BloomFilter.md: bits = -8 * ndv / ln(1 - fpp^(1/8)).
  const double bits = -8.0 * static_cast<double>(ndv) / std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  size_t bytes = kMinBytes;
  while (bytes < kMaxBytes && static_cast<double>(bytes) * 8 < bits) bytes *= 2;
  return bytes;
}

BloomFilter::BloomFilter(size_t num_bytes) {
  if (!power_of_two(num_bytes) || num_bytes < kMinBytes || num_bytes > kMaxBytes)
    throw Error("bloom filter size " + std::to_string(num_bytes) + " is not a power of two between " +
                std::to_string(kMinBytes) + " and " + std::to_string(kMaxBytes));
  bits_.resize(num_bytes);
  std::memset(bits_.data(), 0, num_bytes);
}

BloomFilter BloomFilter::read(std::span<const uint8_t> bytes, uint64_t file_offset) {
  format::BloomFilterHeader header;
  const size_t header_size = format::decode_thrift(bytes.data(), bytes.size(), header, file_offset);
  const std::string where = "bloom filter at offset " + std::to_string(file_offset);
  if (!header.algorithm.BLOCK) throw Error(where + ": algorithm is not the split block filter");
  if (!header.hash.XXHASH) throw Error(where + ": hash is not xxHash64");
  if (!header.compression.UNCOMPRESSED) throw Error(where + ": compressed filters are not defined");
  const auto n = static_cast<size_t>(header.num_bytes);
  if (header.num_bytes < 0 || !power_of_two(n) || n < kMinBytes || n > kMaxBytes)
    throw Error(where + ": bitset size " + std::to_string(header.num_bytes) + " is not a power of two in range");
  if (n > bytes.size() - header_size)
    throw Error(where + ": bitset of " + std::to_string(n) + " bytes runs past the " +
                std::to_string(bytes.size() - header_size) + " bytes available");
  BloomFilter filter(n);
  std::memcpy(filter.bits_.data(), bytes.data() + header_size, n);
  return filter;
}

void BloomFilter::insert(uint64_t hash) {
  uint32_t* block = bits_.data_as<uint32_t>() + block_of(hash, bits_.size() / kBlockBytes) * 8;
  uint32_t mask[8];
  block_mask(static_cast<uint32_t>(hash), mask);
  for (int i = 0; i < 8; ++i) block[i] |= mask[i];
}

bool BloomFilter::might_contain(uint64_t hash) const {
  const uint32_t* block = bits_.data_as<uint32_t>() + block_of(hash, bits_.size() / kBlockBytes) * 8;
  uint32_t mask[8];
  block_mask(static_cast<uint32_t>(hash), mask);
  for (int i = 0; i < 8; ++i)
    if ((block[i] & mask[i]) == 0) return false;
  return true;
}

uint64_t BloomFilter::hash(int32_t v) { return hash_plain(v); }
uint64_t BloomFilter::hash(int64_t v) { return hash_plain(v); }
uint64_t BloomFilter::hash(float v) { return hash_plain(v); }
uint64_t BloomFilter::hash(double v) { return hash_plain(v); }
uint64_t BloomFilter::hash(const encoding::Int96& v) { return XXH64(&v, sizeof v, 0); }
uint64_t BloomFilter::hash(std::string_view bytes) { return XXH64(bytes.data(), bytes.size(), 0); }

void BloomFilter::hash_values(format::Type physical, int32_t width, const void* values, size_t n, uint64_t* out) {
  size_t size = 0;
  switch (physical) {
    case format::Type::INT32:
    case format::Type::FLOAT:
      size = 4;
      break;
    case format::Type::INT64:
    case format::Type::DOUBLE:
      size = 8;
      break;
    case format::Type::INT96:
      size = 12;
      break;
    case format::Type::FIXED_LEN_BYTE_ARRAY:
      size = static_cast<size_t>(width);
      break;
    case format::Type::BOOLEAN:
    case format::Type::BYTE_ARRAY:
      throw Error(std::string("bloom filters take no ") + format::to_string(physical) + " values here");
  }
  const auto* p = static_cast<const uint8_t*>(values);
  for (size_t i = 0; i < n; ++i) out[i] = XXH64(p + i * size, size, 0);
}

void BloomFilter::hash_byte_arrays(const int32_t* offsets, const uint8_t* data, size_t n, uint64_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = XXH64(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]), 0);
}

void BloomFilter::write(Buffer& out) const {
  format::BloomFilterHeader header;
  header.num_bytes = static_cast<int32_t>(bits_.size());
  header.algorithm.BLOCK.emplace();
  header.hash.XXHASH.emplace();
  header.compression.UNCOMPRESSED.emplace();
  std::string encoded;
  format::encode_thrift(header, encoded);
  out.append(encoded);
  out.append(bits_.data(), bits_.size());
}

}  // namespace parq
