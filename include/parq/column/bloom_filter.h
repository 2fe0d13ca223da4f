// Split block bloom filters (BloomFilter.md): a filter is an array of 32-byte
// blocks of eight 32-bit words; a value's xxHash64 (seed 0, over its PLAIN
// encoding without the BYTE_ARRAY length prefix) picks a block from its upper
// 32 bits and sets one bit in each word from its lower 32 bits times the
// eight salt constants.
//
// On disk: a BloomFilterHeader (thrift compact: num_bytes, BLOCK, XXHASH,
// UNCOMPRESSED) followed by the bitset, at ColumnMetaData.bloom_filter_offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "parq/encoding/types.h"
#include "parq/format/metadata.h"
#include "parq/util/buffer.h"

namespace parq {

class BloomFilter {
 public:
  static constexpr size_t kBlockBytes = 32;
  static constexpr size_t kMinBytes = 32;
  static constexpr size_t kMaxBytes = size_t{128} << 20;

  // The bitset size for `ndv` distinct values at false-positive rate `fpp`
  // (0 < fpp < 1): the formula of BloomFilter.md, rounded up to a power of
  // two and clamped to [kMinBytes, kMaxBytes].
  static size_t optimal_num_bytes(uint64_t ndv, double fpp);

  // An empty filter of `num_bytes` (a power of two in the clamp range,
  // else parq::Error).
  explicit BloomFilter(size_t num_bytes);
  // Parses header + bitset as written by write(); throws parq::Error naming
  // the problem for a truncated or unsupported filter. `file_offset` is for
  // messages.
  static BloomFilter read(std::span<const uint8_t> bytes, uint64_t file_offset = 0);

  void insert(uint64_t hash);
  bool might_contain(uint64_t hash) const;

  static uint64_t hash(int32_t v);
  static uint64_t hash(int64_t v);
  static uint64_t hash(float v);
  static uint64_t hash(double v);
  static uint64_t hash(const encoding::Int96& v);
  static uint64_t hash(std::string_view bytes);  // BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY
  // Hashes n values of `physical` storage (as StatisticsBuilder::add_values
  // takes them; FIXED_LEN_BYTE_ARRAY needs `width`) into `out`. BOOLEAN has
  // no bloom filter in the spec and throws.
  static void hash_values(format::Type physical, int32_t width, const void* values, size_t n, uint64_t* out);
  static void hash_byte_arrays(const int32_t* offsets, const uint8_t* data, size_t n, uint64_t* out);

  size_t num_bytes() const { return bits_.size(); }
  std::span<const uint8_t> bitset() const { return bits_.span(); }
  // Appends header + bitset.
  void write(Buffer& out) const;

 private:
  Buffer bits_;
};

}  // namespace parq
