// Split block bloom filters (bloom_filter.h, BloomFilter.md). Insert and
// check touch one 32-byte block: under AVX2 the eight salted words are one
// vector multiply, shift and variable shift, and the check is one vptest.
#include "parq/column/bloom_filter.h"

// xxHash's own inline build: with the length a constant, the 4-, 8- and
// 12-byte hashes compile to a few multiplies instead of a library call.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cmath>
#include <cstring>
#include <string>

#include "parq/error.h"
#include "parq/format/metadata_codec.h"
#include "parq/util/cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PARQ_BLOOM_X86 1
#define PARQ_BLOOM_AVX2 __attribute__((target("avx2,bmi2")))
#endif

namespace parq {
namespace {

// BloomFilter.md's salt: eight odd constants, one per word of a block.
constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

bool power_of_two(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

bool valid_size(size_t n) { return power_of_two(n) && n >= BloomFilter::kMinBytes && n <= BloomFilter::kMaxBytes; }

// The block of a hash: its upper 32 bits scaled to the block count, which
// spreads hashes evenly without a division.
size_t block_offset(size_t num_bytes, uint64_t hash) {
  const uint64_t blocks = num_bytes / BloomFilter::kBlockBytes;
  return static_cast<size_t>(((hash >> 32) * blocks) >> 32) * BloomFilter::kBlockBytes;
}

// Word i of a hash's mask has the bit that the top 5 bits of
// (lower 32 bits * salt[i]) select.
inline uint32_t mask_word(uint32_t key, int i) { return uint32_t{1} << ((key * kSalt[i]) >> 27); }

void insert_scalar(uint32_t* block, uint32_t key) {
  for (int i = 0; i < 8; ++i) block[i] |= mask_word(key, i);
}

// Branch-free: probes of absent values would mispredict an early exit.
bool check_scalar(const uint32_t* block, uint32_t key) {
  uint32_t missing = 0;
  for (int i = 0; i < 8; ++i) missing |= mask_word(key, i) & ~block[i];
  return missing == 0;
}

#ifdef PARQ_BLOOM_X86
PARQ_BLOOM_AVX2 inline __m256i mask_avx2(uint32_t key) {
  const __m256i salt = _mm256_setr_epi32(
      static_cast<int>(kSalt[0]), static_cast<int>(kSalt[1]), static_cast<int>(kSalt[2]), static_cast<int>(kSalt[3]),
      static_cast<int>(kSalt[4]), static_cast<int>(kSalt[5]), static_cast<int>(kSalt[6]), static_cast<int>(kSalt[7]));
  const __m256i shifts = _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(key)), salt), 27);
  return _mm256_sllv_epi32(_mm256_set1_epi32(1), shifts);
}

PARQ_BLOOM_AVX2 void insert_avx2(uint32_t* block, uint32_t key) {
  auto* b = reinterpret_cast<__m256i*>(block);
  _mm256_storeu_si256(b, _mm256_or_si256(_mm256_loadu_si256(b), mask_avx2(key)));
}

// vptest's carry flag: every mask bit is set in the block.
PARQ_BLOOM_AVX2 bool check_avx2(const uint32_t* block, uint32_t key) {
  return _mm256_testc_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(block)), mask_avx2(key)) != 0;
}
#endif

bool use_avx2() {
#ifdef PARQ_BLOOM_X86
  return simd_level() >= SimdLevel::kAvx2;
#else
  return false;
#endif
}

// The hash of a fixed-width PLAIN value; a constant size lets the call
// take its short-input path directly.
template <size_t kSize>
void hash_fixed(const uint8_t* p, size_t n, uint64_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = XXH64(p + i * kSize, kSize, 0);
}

[[noreturn]] void malformed(uint64_t file_offset, const std::string& problem) {
  throw Error("bloom filter at offset " + std::to_string(file_offset) + ": " + problem);
}

}  // namespace

size_t BloomFilter::optimal_num_bytes(uint64_t ndv, double fpp) {
  if (!(fpp > 0 && fpp < 1)) throw Error("bloom filter false-positive rate must be between 0 and 1");
  // BloomFilter.md: m = -8 n / ln(1 - p^(1/8)) bits, as parquet-java and
  // arrow-rs size their filters.
  const double bits = -8.0 * static_cast<double>(ndv) / std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  const double bytes = std::ceil(bits / 8.0);
  if (!(bytes < static_cast<double>(kMaxBytes))) return kMaxBytes;
  size_t n = kMinBytes;
  while (static_cast<double>(n) < bytes) n *= 2;
  return n;
}

BloomFilter::BloomFilter(size_t num_bytes) {
  if (!valid_size(num_bytes))
    throw Error("bloom filter size " + std::to_string(num_bytes) + " is not a power of two between " +
                std::to_string(kMinBytes) + " and " + std::to_string(kMaxBytes));
  bits_.resize(num_bytes);
  std::memset(bits_.data(), 0, num_bytes);
}

BloomFilter BloomFilter::read(std::span<const uint8_t> bytes, uint64_t file_offset) {
  format::BloomFilterHeader header;
  const size_t header_size = format::decode_thrift(bytes.data(), bytes.size(), header, file_offset);
  if (!header.algorithm.BLOCK) malformed(file_offset, "the algorithm is not the split block filter");
  if (!header.hash.XXHASH) malformed(file_offset, "the hash is not xxHash64");
  if (!header.compression.UNCOMPRESSED) malformed(file_offset, "the bitset is compressed");
  if (header.num_bytes < 0 || !valid_size(static_cast<size_t>(header.num_bytes)))
    malformed(file_offset, "bitset size " + std::to_string(header.num_bytes) + " is not a power of two between " +
                               std::to_string(kMinBytes) + " and " + std::to_string(kMaxBytes));
  const auto n = static_cast<size_t>(header.num_bytes);
  const size_t available = bytes.size() - header_size;
  if (n > available)
    malformed(file_offset, "the bitset of " + std::to_string(n) + " bytes runs past the " + std::to_string(available) +
                               " bytes after the header");
  BloomFilter filter(n);
  std::memcpy(filter.bits_.data(), bytes.data() + header_size, n);
  return filter;
}

void BloomFilter::insert(uint64_t hash) {
  auto* block = reinterpret_cast<uint32_t*>(bits_.data() + block_offset(bits_.size(), hash));
  const auto key = static_cast<uint32_t>(hash);
#ifdef PARQ_BLOOM_X86
  if (use_avx2()) return insert_avx2(block, key);
#endif
  insert_scalar(block, key);
}

bool BloomFilter::might_contain(uint64_t hash) const {
  const auto* block = reinterpret_cast<const uint32_t*>(bits_.data() + block_offset(bits_.size(), hash));
  const auto key = static_cast<uint32_t>(hash);
#ifdef PARQ_BLOOM_X86
  if (use_avx2()) return check_avx2(block, key);
#endif
  return check_scalar(block, key);
}

uint64_t BloomFilter::hash(int32_t v) { return XXH64(&v, sizeof v, 0); }
uint64_t BloomFilter::hash(int64_t v) { return XXH64(&v, sizeof v, 0); }
uint64_t BloomFilter::hash(float v) { return XXH64(&v, sizeof v, 0); }
uint64_t BloomFilter::hash(double v) { return XXH64(&v, sizeof v, 0); }
uint64_t BloomFilter::hash(const encoding::Int96& v) { return XXH64(v.words, sizeof v.words, 0); }
uint64_t BloomFilter::hash(std::string_view bytes) { return XXH64(bytes.data(), bytes.size(), 0); }

void BloomFilter::hash_values(format::Type physical, int32_t width, const void* values, size_t n, uint64_t* out) {
  const auto* p = static_cast<const uint8_t*>(values);
  switch (physical) {
    case format::Type::INT32:
    case format::Type::FLOAT:
      return hash_fixed<4>(p, n, out);
    case format::Type::INT64:
    case format::Type::DOUBLE:
      return hash_fixed<8>(p, n, out);
    case format::Type::INT96:
      return hash_fixed<12>(p, n, out);
    case format::Type::FIXED_LEN_BYTE_ARRAY: {
      if (width <= 0) throw Error("bloom filter: FIXED_LEN_BYTE_ARRAY values need a positive width");
      const auto w = static_cast<size_t>(width);
      for (size_t i = 0; i < n; ++i) out[i] = XXH64(p + i * w, w, 0);
      return;
    }
    case format::Type::BYTE_ARRAY:
      throw Error("bloom filter: BYTE_ARRAY values are hashed with hash_byte_arrays");
    case format::Type::BOOLEAN:
      break;
  }
  throw Error(std::string("bloom filter: the spec defines none for ") + format::to_string(physical) + " columns");
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
