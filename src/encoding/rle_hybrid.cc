// The RLE/bit-packing hybrid; see encoding/rle_hybrid.h.
#include "parq/encoding/rle_hybrid.h"

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <string>

#include "encoding/simd_fill.h"
#include "parq/encoding/bit_packing.h"
#include "parq/error.h"
#include "parq/util/cpu.h"
#include "util/varint.h"

namespace parq::encoding {
namespace {

constexpr size_t kGroup = 8;
// A bit-packed run's header is reserved as one byte before its values are
// known, so it can count at most 63 groups.
constexpr size_t kMaxLiteralGroups = 63;

uint32_t load_value_bytes(const uint8_t* p, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint32_t{p[i]} << (8 * i);
  return v;
}

template <class T>
constexpr uint32_t max_of() {
  if constexpr (std::is_same_v<T, uint8_t>) {
    return 1;  // booleans
  } else {
    return static_cast<uint32_t>(std::numeric_limits<T>::max());
  }
}

}  // namespace

// ---- decoder ---------------------------------------------------------------

void RleBitPackedDecoder::reset(const uint8_t* data, size_t size, int bit_width) {
  if (bit_width < 0 || bit_width > 32)
    throw Error("RLE/bit-packed hybrid: bit width " + std::to_string(bit_width) + " is outside 0..32");
  begin_ = pos_ = data;
  end_ = data + size;
  bit_width_ = bit_width;
  rle_ = true;
  value_ = 0;
  remaining_ = 0;
  packed_ = nullptr;
  packed_index_ = 0;
}

void RleBitPackedDecoder::fail(const char* what) const {
  throw Error(std::string("RLE/bit-packed hybrid: ") + what + " at byte " + std::to_string(position()) + " of " +
              std::to_string(end_ - begin_));
}

bool RleBitPackedDecoder::next_run() {
  if (pos_ >= end_) return false;
  uint64_t header = 0;
  for (int shift = 0;; shift += 7) {
    if (pos_ >= end_) fail("truncated run header");
    if (shift > 56) fail("run header varint too long");
    uint8_t b = *pos_++;
    header |= uint64_t{b & 0x7fu} << shift;
    if (b < 0x80) break;
  }
  if (header & 1) {
    uint64_t groups = header >> 1;
    size_t available = static_cast<size_t>(end_ - pos_);
    uint64_t bytes = groups * static_cast<uint64_t>(bit_width_);
    uint64_t count = groups * kGroup;
    // A final run may be cut short by writers that drop trailing padding:
    // take the values whose bits are all present, as the main readers do.
    if (groups > available || bytes > available) {
      count = bit_width_ == 0 ? count : available * 8 / static_cast<size_t>(bit_width_);
      bytes = available;
    }
    rle_ = false;
    packed_ = pos_;
    packed_index_ = 0;
    remaining_ = static_cast<size_t>(count);
    pos_ += bytes;
  } else {
    uint64_t count = header >> 1;
    if (count == 0) fail("RLE run of length 0");
    int value_bytes = (bit_width_ + 7) / 8;
    if (end_ - pos_ < value_bytes) fail("truncated RLE run value");
    value_ = load_value_bytes(pos_, value_bytes);
    if (bit_width_ < 32 && (value_ >> bit_width_) != 0) fail("RLE run value wider than the bit width");
    pos_ += value_bytes;
    rle_ = true;
    remaining_ = static_cast<size_t>(std::min<uint64_t>(count, SIZE_MAX / 2));
  }
  return remaining_ > 0 || next_run();
}

// Writes the next n values of the current bit-packed run. The kernels read
// up to the end of the stream, so whole groups go straight to `out`; only a
// start inside a group of 8 passes through a small buffer.
void RleBitPackedDecoder::unpack_packed(uint32_t* out, size_t n) {
  const size_t w = static_cast<size_t>(bit_width_);
  size_t done = 0;
  if (size_t offset = packed_index_ % kGroup; offset != 0) {
    const uint8_t* group = packed_ + packed_index_ / kGroup * w;
    const size_t in_group = std::min(n, kGroup - offset);
    uint32_t tmp[kGroup];
    // The run's last group may be cut short (see next_run): unpack only the
    // values it holds.
    unpack_bits(group, static_cast<size_t>(end_ - group), offset + in_group, bit_width_, tmp);
    std::memcpy(out, tmp + offset, in_group * sizeof(uint32_t));
    done = in_group;
  }
  if (done < n) {
    const uint8_t* group = packed_ + (packed_index_ + done) / kGroup * w;
    unpack_bits(group, static_cast<size_t>(end_ - group), n - done, bit_width_, out + done);
  }
  packed_index_ += n;
}

template <class T>
size_t RleBitPackedDecoder::decode_into(T* out, size_t n) {
  constexpr uint32_t kMax = max_of<T>();
  // Widths whose every value fits T need no range check.
  const bool checked = bit_width_ > bit_width_for(kMax);
  size_t done = 0;
  while (done < n) {
    if (remaining_ == 0 && !next_run()) break;
    size_t take = std::min(n - done, remaining_);
    if (rle_) {
      if (value_ > kMax) fail("value too large for its output type");
      detail::fill_run(out + done, take, static_cast<T>(value_));
    } else if constexpr (std::is_same_v<T, uint32_t>) {
      unpack_packed(out + done, take);
    } else {
      alignas(64) uint32_t tmp[512];
      take = std::min(take, std::size(tmp));
      unpack_packed(tmp, take);
      uint32_t max_seen = 0;
      for (size_t i = 0; i < take; ++i) {
        max_seen |= tmp[i];
        out[done + i] = static_cast<T>(tmp[i]);
      }
      if (checked && max_seen > kMax) fail("value too large for its output type");
    }
    remaining_ -= take;
    done += take;
  }
  return done;
}

size_t RleBitPackedDecoder::decode(uint32_t* out, size_t n) { return decode_into(out, n); }
size_t RleBitPackedDecoder::decode(int16_t* out, size_t n) { return decode_into(out, n); }
size_t RleBitPackedDecoder::decode(uint8_t* out, size_t n) { return decode_into(out, n); }

size_t RleBitPackedDecoder::next_piece(uint32_t* out, size_t n, bool& repeated, uint32_t& value) {
  if (n == 0 || (remaining_ == 0 && !next_run())) return 0;
  const size_t take = std::min(n, remaining_);
  repeated = rle_;
  value = value_;
  if (!rle_) unpack_packed(out, take);
  remaining_ -= take;
  return take;
}

size_t RleBitPackedDecoder::next_repeat(size_t n, uint32_t& value) {
  if (n == 0 || (remaining_ == 0 && !next_run()) || !rle_) return 0;
  const size_t take = std::min(n, remaining_);
  value = value_;
  remaining_ -= take;
  return take;
}

namespace {

// Set bits among bits [first, first + count) of `bytes`, LSB first.
size_t count_set_bits(const uint8_t* bytes, size_t first, size_t count) {
  size_t ones = 0;
  size_t bit = first;
  const size_t end = first + count;
  for (; bit < end && bit % 8 != 0; ++bit) ones += (bytes[bit / 8] >> (bit % 8)) & 1u;
  for (; bit + 64 <= end; bit += 64) {
    uint64_t word;
    std::memcpy(&word, bytes + bit / 8, 8);
    ones += static_cast<size_t>(std::popcount(word));
  }
  for (; bit + 8 <= end; bit += 8) ones += static_cast<size_t>(std::popcount(static_cast<unsigned>(bytes[bit / 8])));
  for (; bit < end; ++bit) ones += (bytes[bit / 8] >> (bit % 8)) & 1u;
  return ones;
}

}  // namespace

size_t RleBitPackedDecoder::next_packed_bits(size_t n, size_t& ones) {
  if (bit_width_ != 1 || n == 0 || (remaining_ == 0 && !next_run()) || rle_) return 0;
  const size_t take = std::min(n, remaining_);
  ones = count_set_bits(packed_, packed_index_, take);
  packed_index_ += take;
  remaining_ -= take;
  return take;
}

bool RleBitPackedDecoder::repeats(uint32_t value, size_t n) {
  if (remaining_ == 0 && !next_run()) return false;
  return rle_ && remaining_ >= n && value_ == value;
}

size_t RleBitPackedDecoder::skip(size_t n) {
  size_t done = 0;
  while (done < n) {
    if (remaining_ == 0 && !next_run()) break;
    size_t take = std::min(n - done, remaining_);
    if (!rle_) packed_index_ += take;
    remaining_ -= take;
    done += take;
  }
  return done;
}

std::span<const uint8_t> read_length_prefix(std::span<const uint8_t> data) {
  if (data.size() < 4) throw Error("RLE levels: the 4-byte length prefix is truncated");
  uint32_t len = load_value_bytes(data.data(), 4);
  if (len > data.size() - 4)
    throw Error("RLE levels: length prefix " + std::to_string(len) + " exceeds the " + std::to_string(data.size() - 4) +
                " bytes that follow");
  return data.subspan(4, len);
}

// ---- encoder ---------------------------------------------------------------

void RleBitPackedEncoder::reset(int bit_width) {
  if (bit_width < 0 || bit_width > 32)
    throw Error("RLE/bit-packed hybrid: bit width " + std::to_string(bit_width) + " is outside 0..32");
  bit_width_ = bit_width;
  out_.clear();
  num_pending_ = 0;
  repeat_value_ = 0;
  repeat_count_ = 0;
  literal_header_at_ = SIZE_MAX;
  literal_groups_ = 0;
}

void RleBitPackedEncoder::end_rle_run() {
  put_varint(out_, uint64_t{repeat_count_} << 1);
  const int bytes = (bit_width_ + 7) / 8;
  for (int i = 0; i < bytes; ++i) out_.append_value(static_cast<uint8_t>(repeat_value_ >> (8 * i)));
  repeat_count_ = 0;
}

void RleBitPackedEncoder::close_literal_run() {
  if (literal_header_at_ == SIZE_MAX) return;
  out_.data()[literal_header_at_] = static_cast<uint8_t>((literal_groups_ << 1) | 1);
  literal_header_at_ = SIZE_MAX;
  literal_groups_ = 0;
}

// Packs whole groups into bit-packed runs of at most 63 groups each.
void RleBitPackedEncoder::append_literal_groups(const uint32_t* values, size_t groups) {
  const size_t w = static_cast<size_t>(bit_width_);
  while (groups > 0) {
    if (literal_header_at_ == SIZE_MAX) {
      literal_header_at_ = out_.size();
      out_.append_value(uint8_t{0});
    }
    const size_t take = std::min(groups, kMaxLiteralGroups - literal_groups_);
    pack_bits(values, take * kGroup, bit_width_, out_.extend(take * w));
    literal_groups_ += take;
    if (literal_groups_ == kMaxLiteralGroups) close_literal_run();
    values += take * kGroup;
    groups -= take;
  }
}

namespace {

inline bool uniform(const uint32_t* g) {
  uint32_t diff = 0;
  for (size_t i = 1; i < kGroup; ++i) diff |= g[i] ^ g[0];
  return diff == 0;
}

// Length of the prefix of v[0, n) equal to x, eight at a time.
inline size_t repeat_length_scalar(const uint32_t* v, size_t n, uint32_t x) {
  size_t i = 0;
  for (; i + kGroup <= n; i += kGroup) {
    uint32_t diff = 0;
    for (size_t k = 0; k < kGroup; ++k) diff |= v[i + k] ^ x;
    if (diff != 0) break;
  }
  while (i < n && v[i] == x) ++i;
  return i;
}

// How many of the (at most max) groups of 8 from v are not uniform.
inline size_t literal_groups_scalar(const uint32_t* v, size_t max) {
  size_t g = 0;
  while (g < max && !uniform(v + g * kGroup)) ++g;
  return g;
}

// The same with one compare and movemask per group of 8 (an AVX2 register
// holds exactly a group), 16 values a step for repeats.
__attribute__((target("avx2,bmi2"))) inline uint32_t equal_mask(const uint32_t* v, __m256i x) {
  const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v));
  return static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, x))));
}

__attribute__((target("avx2,bmi2"))) size_t repeat_length_avx2(const uint32_t* v, size_t n, uint32_t x) {
  const __m256i vx = _mm256_set1_epi32(static_cast<int>(x));
  size_t i = 0;
  for (; i + 2 * kGroup <= n; i += 2 * kGroup) {
    const uint32_t m = equal_mask(v + i, vx) | equal_mask(v + i + kGroup, vx) << 8;
    if (m != 0xffff) return i + static_cast<size_t>(__builtin_ctz(~m));
  }
  for (; i + kGroup <= n; i += kGroup) {
    const uint32_t m = equal_mask(v + i, vx);
    if (m != 0xff) return i + static_cast<size_t>(__builtin_ctz(~m));
  }
  while (i < n && v[i] == x) ++i;
  return i;
}

__attribute__((target("avx2,bmi2"))) size_t literal_groups_avx2(const uint32_t* v, size_t max) {
  size_t g = 0;
  for (; g < max; ++g) {
    const uint32_t* p = v + g * kGroup;
    if (equal_mask(p, _mm256_set1_epi32(static_cast<int>(p[0]))) == 0xff) break;
  }
  return g;
}

__attribute__((target("avx2,bmi2"))) uint32_t or_all_avx2(const uint32_t* v, size_t n) {
  __m256i acc = _mm256_setzero_si256();
  size_t i = 0;
  for (; i + kGroup <= n; i += kGroup)
    acc = _mm256_or_si256(acc, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + i)));
  __m128i h = _mm_or_si128(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
  h = _mm_or_si128(h, _mm_shuffle_epi32(h, 0x4e));
  h = _mm_or_si128(h, _mm_shuffle_epi32(h, 0xb1));
  uint32_t any = static_cast<uint32_t>(_mm_cvtsi128_si32(h));
  for (; i < n; ++i) any |= v[i];
  return any;
}

// Two groups a compare: each lane against its group's first value.
__attribute__((target("avx512f,avx512bw,avx512vl,avx2,bmi2"))) size_t literal_groups_avx512(const uint32_t* v,
                                                                                            size_t max) {
  const __m512i firsts = _mm512_set_epi32(8, 8, 8, 8, 8, 8, 8, 8, 0, 0, 0, 0, 0, 0, 0, 0);
  size_t g = 0;
  for (; g + 2 <= max; g += 2) {
    const __m512i a = _mm512_loadu_si512(v + g * kGroup);
    const uint32_t eq = _mm512_cmpeq_epi32_mask(a, _mm512_maskz_permutexvar_epi32(0xFFFF, firsts, a));
    if (((eq & 0xff) == 0xff) | ((eq >> 8) == 0xff)) return g + ((eq & 0xff) == 0xff ? 0 : 1);
  }
  return g + literal_groups_avx2(v + g * kGroup, max - g);
}

inline bool use_avx2() { return simd_level() >= SimdLevel::kAvx2; }

inline size_t literal_groups(const uint32_t* v, size_t max, SimdLevel level) {
  if (level >= SimdLevel::kAvx512) return literal_groups_avx512(v, max);
  if (level >= SimdLevel::kAvx2) return literal_groups_avx2(v, max);
  return literal_groups_scalar(v, max);
}

}  // namespace

// A complete group of 8 starting where the last run ended: one value makes an
// RLE run (which may grow), anything else is a literal group.
void RleBitPackedEncoder::commit_group(const uint32_t* group) {
  if (uniform(group)) {
    close_literal_run();
    repeat_value_ = group[0];
    repeat_count_ = kGroup;
  } else {
    append_literal_groups(group, 1);
  }
}

void RleBitPackedEncoder::put_span(const uint32_t* v, size_t n) {
  const SimdLevel level = simd_level();
  const bool avx2 = level >= SimdLevel::kAvx2;
  size_t i = 0;
  while (i < n) {
    if (repeat_count_ >= kGroup) {
      const size_t len =
          avx2 ? repeat_length_avx2(v + i, n - i, repeat_value_) : repeat_length_scalar(v + i, n - i, repeat_value_);
      repeat_count_ += len;
      i += len;
      if (i == n) return;  // the run may go on in the next put()
      end_rle_run();
      continue;
    }
    if (num_pending_ > 0) {
      while (num_pending_ < kGroup && i < n) pending_[num_pending_++] = v[i++];
      if (num_pending_ < kGroup) return;
      num_pending_ = 0;
      commit_group(pending_);
      continue;
    }
    // On a group boundary: take consecutive literal groups straight from the
    // input and pack them in one call.
    const size_t whole = (n - i) / kGroup;
    const size_t groups = literal_groups(v + i, whole, level);
    if (groups > 0) {
      append_literal_groups(v + i, groups);
      i += groups * kGroup;
    } else if (i + kGroup <= n) {
      commit_group(v + i);
      i += kGroup;
    } else {
      while (i < n) pending_[num_pending_++] = v[i++];
    }
  }
}

void RleBitPackedEncoder::fail_width(const uint32_t* values, size_t n) const {
  for (size_t i = 0; i < n; ++i)
    if (bit_width_ < 32 && (values[i] >> bit_width_) != 0)
      throw Error("RLE/bit-packed hybrid encoder: value " + std::to_string(values[i]) + " at index " +
                  std::to_string(i) + " of the batch does not fit bit width " + std::to_string(bit_width_));
  throw Error("RLE/bit-packed hybrid encoder: value does not fit the bit width");
}

template <class T>
void RleBitPackedEncoder::put_values(const T* values, size_t n) {
  // Values are widened (when narrower) and range-checked a chunk at a time,
  // so a value that would spill into its neighbours' bits is an error, not
  // a corrupt stream.
  constexpr size_t kChunk = 1024;
  alignas(64) uint32_t tmp[kChunk];
  for (size_t start = 0; start < n; start += kChunk) {
    const size_t len = std::min(kChunk, n - start);
    const uint32_t* chunk;
    if constexpr (std::is_same_v<T, uint32_t>) {
      chunk = values + start;
    } else {
      for (size_t i = 0; i < len; ++i) tmp[i] = static_cast<uint32_t>(values[start + i]);
      chunk = tmp;
    }
    uint32_t any = 0;
    if (use_avx2()) {
      any = or_all_avx2(chunk, len);
    } else {
      for (size_t i = 0; i < len; ++i) any |= chunk[i];
    }
    if (bit_width_ < 32 && (any >> bit_width_) != 0) fail_width(chunk, len);
    put_span(chunk, len);
  }
}

void RleBitPackedEncoder::put(const uint32_t* values, size_t n) { put_values(values, n); }
void RleBitPackedEncoder::put_within_width(const uint32_t* values, size_t n) { put_span(values, n); }
void RleBitPackedEncoder::put(const int16_t* values, size_t n) { put_values(values, n); }
void RleBitPackedEncoder::put(const uint8_t* values, size_t n) { put_values(values, n); }

void RleBitPackedEncoder::flush(Buffer& out) {
  if (repeat_count_ >= kGroup) {
    end_rle_run();
  } else if (num_pending_ > 0) {
    bool same = true;
    for (size_t i = 1; i < num_pending_; ++i) same &= pending_[i] == pending_[0];
    if (same && literal_header_at_ == SIZE_MAX) {
      // A short repeat alone: an RLE run is smaller than a padded group.
      repeat_value_ = pending_[0];
      repeat_count_ = num_pending_;
      end_rle_run();
    } else {
      std::fill(pending_ + num_pending_, pending_ + kGroup, 0u);
      append_literal_groups(pending_, 1);
    }
    num_pending_ = 0;
  }
  close_literal_run();
  out.append(out_.data(), out_.size());
  reset(bit_width_);
}

void RleBitPackedEncoder::flush_with_length_prefix(Buffer& out) {
  const size_t at = out.size();
  out.extend(4);
  flush(out);
  const size_t len = out.size() - at - 4;
  if (len > UINT32_MAX) throw Error("RLE levels: " + std::to_string(len) + " bytes do not fit the length prefix");
  const uint32_t len32 = static_cast<uint32_t>(len);
  std::memcpy(out.data() + at, &len32, 4);
}

size_t RleBitPackedEncoder::max_encoded_size() const {
  // What is written plus the pending group (a literal group and its header)
  // or the RLE run in progress (header varint and value).
  return out_.size() + static_cast<size_t>(bit_width_) + 1 + 10 + 4;
}

}  // namespace parq::encoding
