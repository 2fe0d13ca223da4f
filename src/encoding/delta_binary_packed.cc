// DELTA_BINARY_PACKED decoder and encoder; see encoding/delta_binary_packed.h.
// The SIMD kernels that unpack miniblocks and accumulate their deltas in one
// pass live in delta_binary_packed_simd.cc.
#include "parq/encoding/delta_binary_packed.h"

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <string>

#include "parq/encoding/bit_packing.h"
#include "parq/error.h"
#include "parq/util/cpu.h"
#include "util/varint.h"

namespace parq::encoding {

// Defined in delta_binary_packed_simd.cc. Each decodes `groups` groups of 32
// deltas packed at `width` bits (64-bit outputs: width <= 32 only), adds
// min_delta to each, accumulates from `last` into out and returns the final
// value. They may read up to 32 bytes past the packed bytes.
namespace dbp_kernels {
uint32_t unpack_prefix_avx2(const uint8_t* in, size_t groups, int width, uint32_t min_delta, uint32_t last,
                            uint32_t* out);
uint64_t unpack_prefix_avx2(const uint8_t* in, size_t groups, int width, uint64_t min_delta, uint64_t last,
                            uint64_t* out);
uint32_t unpack_prefix_avx512(const uint8_t* in, size_t groups, int width, uint32_t min_delta, uint32_t last,
                              uint32_t* out);
uint64_t unpack_prefix_avx512(const uint8_t* in, size_t groups, int width, uint64_t min_delta, uint64_t last,
                              uint64_t* out);
// 64-bit outputs, width 33..64.
uint64_t unpack_prefix_wide(const uint8_t* in, size_t groups, int width, uint64_t min_delta, uint64_t last,
                            uint64_t* out);
uint64_t unpack_prefix_wide_avx512(const uint8_t* in, size_t groups, int width, uint64_t min_delta, uint64_t last,
                                   uint64_t* out);
}  // namespace dbp_kernels

namespace {

constexpr size_t kGroup = 32;
constexpr size_t kKernelOverread = 32;
// Keeps block arithmetic far from overflow; real writers use 128 to 1024.
constexpr uint64_t kMaxBlockSize = uint64_t{1} << 30;
// Widths above 32 are legal for INT32 too: DuckDB computes INT32 deltas in
// 64 bits and writes e.g. a min delta of -(2^32 - 1) with 33-bit miniblocks.
// The arithmetic wraps modulo 2^32 (Encodings.md), so such miniblocks decode
// through the 64-bit unpacker and truncate.
constexpr int kMaxWidth = 64;

// One group of 32 deltas wider than 32 bits into 32-bit values.
uint32_t unpack_prefix_wide32(const uint8_t* in, int width, uint32_t min_delta, uint32_t last, uint32_t* out) {
  uint64_t deltas[kGroup];
  unpack_bits(in, kGroup, width, deltas);
  for (size_t i = 0; i < kGroup; ++i) {
    last += static_cast<uint32_t>(deltas[i]) + min_delta;
    out[i] = last;
  }
  return last;
}

template <class U>
U unpack_prefix_scalar(const uint8_t* in, size_t groups, int width, U min_delta, U last, U* out) {
  const size_t n = groups * kGroup;
  unpack_bits(in, n, width, out);
  for (size_t i = 0; i < n; ++i) {
    last += out[i] + min_delta;
    out[i] = last;
  }
  return last;
}

template <class U>
U unpack_prefix(SimdLevel level, const uint8_t* in, size_t groups, int width, U min_delta, U last, U* out) {
  if (sizeof(U) == 4 || width <= 32) {
    if (level == SimdLevel::kAvx512) return dbp_kernels::unpack_prefix_avx512(in, groups, width, min_delta, last, out);
    if (level == SimdLevel::kAvx2) return dbp_kernels::unpack_prefix_avx2(in, groups, width, min_delta, last, out);
  } else if constexpr (sizeof(U) == 8) {
    if (level == SimdLevel::kAvx512)
      return dbp_kernels::unpack_prefix_wide_avx512(in, groups, width, min_delta, last, out);
    if (level == SimdLevel::kAvx2) return dbp_kernels::unpack_prefix_wide(in, groups, width, min_delta, last, out);
  }
  return unpack_prefix_scalar(in, groups, width, min_delta, last, out);
}

// ULEB128 of at most 64 bits; false when truncated or longer.
bool read_uleb(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p == end) return false;
    uint8_t b = *p++;
    v |= uint64_t{b & 0x7fu} << shift;
    if (b < 0x80) return shift < 63 || b <= 1;
  }
  return false;
}

uint64_t unzigzag(uint64_t v) { return (v >> 1) ^ (~(v & 1) + 1); }

template <class T>
uint64_t zigzag(T v) {
  using U = std::make_unsigned_t<T>;
  return static_cast<uint64_t>(static_cast<U>((static_cast<U>(v) << 1) ^ static_cast<U>(v >> (8 * sizeof(T) - 1))));
}

struct Header {
  uint64_t block_size, miniblocks, total, first;
};

[[noreturn]] void fail_at(const char* what, size_t pos, size_t size) {
  throw Error(std::string("DELTA_BINARY_PACKED: ") + what + " at byte " + std::to_string(pos) + " of " +
              std::to_string(size));
}

// Parses and checks the header, advancing p past it.
Header read_header(const uint8_t*& p, const uint8_t* begin, const uint8_t* end) {
  Header h;
  const size_t size = static_cast<size_t>(end - begin);
  auto field = [&](uint64_t& v, const char* name) {
    if (!read_uleb(p, end, v)) fail_at(name, static_cast<size_t>(p - begin), size);
  };
  field(h.block_size, "truncated or overlong block size");
  field(h.miniblocks, "truncated or overlong miniblock count");
  field(h.total, "truncated or overlong total value count");
  field(h.first, "truncated or overlong first value");
  if (h.block_size == 0 || h.block_size % 128 != 0 || h.block_size > kMaxBlockSize)
    fail_at(("block size " + std::to_string(h.block_size) + " is not a multiple of 128 up to 2^30").c_str(), 0, size);
  if (h.miniblocks == 0 || h.block_size % h.miniblocks != 0 || (h.block_size / h.miniblocks) % kGroup != 0)
    fail_at(("miniblock count " + std::to_string(h.miniblocks) + " does not split block size " +
             std::to_string(h.block_size) + " into multiples of 32")
                .c_str(),
            0, size);
  // Every block costs at least its min delta byte and its width bytes, so
  // the bytes left bound how many values can follow.
  if (h.total > 1) {
    uint64_t blocks = (h.total - 1 + h.block_size - 1) / h.block_size;
    uint64_t affordable = static_cast<uint64_t>(end - p) / (1 + h.miniblocks);
    if (blocks > affordable)
      fail_at(("total value count " + std::to_string(h.total) + " exceeds what the remaining " +
               std::to_string(end - p) + " bytes can hold")
                  .c_str(),
              static_cast<size_t>(p - begin), size);
  }
  return h;
}

}  // namespace

// ---- decoder ---------------------------------------------------------------

template <class T>
void DeltaBinaryPackedDecoder<T>::fail(const char* what, const uint8_t* at) const {
  fail_at(what, static_cast<size_t>(at - begin_), static_cast<size_t>(end_ - begin_));
}

template <class T>
void DeltaBinaryPackedDecoder<T>::reset(const uint8_t* data, size_t size) {
  begin_ = pos_ = data;
  end_ = data + size;
  Header h = read_header(pos_, begin_, end_);
  block_size_ = h.block_size;
  miniblocks_ = h.miniblocks;
  miniblock_size_ = h.block_size / h.miniblocks;
  if (h.total > std::numeric_limits<size_t>::max()) fail("total value count too large", begin_);
  total_ = remaining_ = static_cast<size_t>(h.total);
  first_pending_ = total_ > 0;
  unpacked_left_ = total_ > 0 ? total_ - 1 : 0;
  // Values outside T's range wrap, like every other addition here.
  last_ = static_cast<U>(unzigzag(h.first));
  min_delta_ = 0;
  widths_ = nullptr;
  miniblock_index_ = miniblocks_;
  packed_ = nullptr;
  width_ = 0;
  miniblock_left_ = 0;
  group_pos_ = group_len_ = 0;
  level_ = simd_level();
}

template <class T>
void DeltaBinaryPackedDecoder<T>::read_block_header() {
  uint64_t v;
  if (!read_uleb(pos_, end_, v)) fail("truncated or overlong min delta", pos_);
  min_delta_ = static_cast<U>(unzigzag(v));
  if (static_cast<uint64_t>(end_ - pos_) < miniblocks_) fail("truncated miniblock bit widths", pos_);
  widths_ = pos_;
  pos_ += miniblocks_;
  miniblock_index_ = 0;
}

template <class T>
void DeltaBinaryPackedDecoder<T>::next_miniblock() {
  if (miniblock_index_ == miniblocks_) read_block_header();
  int width = widths_[miniblock_index_];
  if (width > kMaxWidth) fail("miniblock bit width wider than 64", widths_ + miniblock_index_);
  size_t bytes = static_cast<size_t>(miniblock_size_) * static_cast<size_t>(width) / 8;
  if (static_cast<size_t>(end_ - pos_) < bytes) fail("truncated miniblock", pos_);
  packed_ = pos_;
  pos_ += bytes;
  width_ = width;
  ++miniblock_index_;
  miniblock_left_ = std::min(static_cast<size_t>(miniblock_size_), unpacked_left_);
  unpacked_left_ -= miniblock_left_;
}

// Full groups of the current miniblock straight into out. Groups whose
// kernel reads would run past the input go through a zero-padded copy.
template <class T>
size_t DeltaBinaryPackedDecoder<T>::decode_groups(T* out, size_t groups) {
  U* dst = reinterpret_cast<U*>(out);
  const size_t w = static_cast<size_t>(width_);
  const size_t group_bytes = kGroup * w / 8;
  if constexpr (sizeof(U) == 4) {
    if (width_ > 32) {
      for (size_t g = 0; g < groups; ++g) {
        last_ = unpack_prefix_wide32(packed_, width_, min_delta_, last_, dst + g * kGroup);
        packed_ += group_bytes;
      }
      miniblock_left_ -= groups * kGroup;
      return groups * kGroup;
    }
  }
  const size_t avail = static_cast<size_t>(end_ - packed_);
  size_t safe = groups;
  if (w != 0 && level_ != SimdLevel::kScalar)
    safe = std::min(groups, avail >= kKernelOverread ? (avail - kKernelOverread) / group_bytes : 0);
  if (safe > 0) {
    last_ = unpack_prefix(level_, packed_, safe, width_, min_delta_, last_, dst);
    packed_ += safe * group_bytes;
  }
  for (size_t g = safe; g < groups; ++g) {
    alignas(64) uint8_t scratch[kGroup * 8 + kKernelOverread] = {};
    std::memcpy(scratch, packed_, group_bytes);
    last_ = unpack_prefix(level_, scratch, 1, width_, min_delta_, last_, dst + g * kGroup);
    packed_ += group_bytes;
  }
  miniblock_left_ -= groups * kGroup;
  return groups * kGroup;
}

// Decodes the next group (padding included) into group_, for calls that end
// inside it.
template <class T>
void DeltaBinaryPackedDecoder<T>::refill_group() {
  const size_t take = std::min(kGroup, miniblock_left_);
  const size_t left = miniblock_left_ - take;
  miniblock_left_ = kGroup;  // decode_groups accounts for a whole group
  decode_groups(reinterpret_cast<T*>(group_), 1);
  miniblock_left_ = left;
  group_pos_ = 0;
  group_len_ = take;
  last_ = group_[take - 1];
}

template <class T>
size_t DeltaBinaryPackedDecoder<T>::decode(T* out, size_t n) {
  n = std::min(n, remaining_);
  if (n == 0) return 0;
  size_t done = 0;
  if (first_pending_) {
    out[done++] = static_cast<T>(last_);
    first_pending_ = false;
  }
  while (done < n) {
    if (group_pos_ < group_len_) {
      size_t take = std::min(n - done, group_len_ - group_pos_);
      std::memcpy(out + done, group_ + group_pos_, take * sizeof(T));
      group_pos_ += take;
      done += take;
      continue;
    }
    if (miniblock_left_ == 0) next_miniblock();
    size_t want = n - done;
    if (want >= kGroup && miniblock_left_ >= kGroup) {
      done += decode_groups(out + done, std::min(want, miniblock_left_) / kGroup);
    } else {
      refill_group();
    }
  }
  remaining_ -= n;
  return n;
}

template <class T>
size_t DeltaBinaryPackedDecoder<T>::skip(size_t n) {
  T scratch[256];
  size_t done = 0;
  while (done < n) {
    size_t got = decode(scratch, std::min(n - done, sizeof(scratch) / sizeof(T)));
    if (got == 0) break;
    done += got;
  }
  return done;
}

template <class T>
size_t DeltaBinaryPackedDecoder<T>::encoded_size() const {
  const uint8_t* p = begin_;
  Header h = read_header(p, begin_, end_);
  const uint64_t mb_size = h.block_size / h.miniblocks;
  const size_t size = static_cast<size_t>(end_ - begin_);
  uint64_t values = h.total > 0 ? h.total - 1 : 0;
  while (values > 0) {
    uint64_t v;
    if (!read_uleb(p, end_, v)) fail_at("truncated or overlong min delta", static_cast<size_t>(p - begin_), size);
    if (static_cast<uint64_t>(end_ - p) < h.miniblocks)
      fail_at("truncated miniblock bit widths", static_cast<size_t>(p - begin_), size);
    const uint8_t* widths = p;
    p += h.miniblocks;
    for (uint64_t i = 0; i < h.miniblocks && values > 0; ++i) {
      if (widths[i] > kMaxWidth)
        fail_at("miniblock bit width wider than 64", static_cast<size_t>(widths + i - begin_), size);
      uint64_t bytes = mb_size * widths[i] / 8;
      if (static_cast<uint64_t>(end_ - p) < bytes)
        fail_at("truncated miniblock", static_cast<size_t>(p - begin_), size);
      p += bytes;
      values -= std::min(values, mb_size);
    }
  }
  return static_cast<size_t>(p - begin_);
}

// ---- encoder ---------------------------------------------------------------

template <class T>
DeltaBinaryPackedEncoder<T>::DeltaBinaryPackedEncoder(DeltaBinaryPackedLayout layout) : layout_(layout) {
  if (layout.block_size == 0 || layout.block_size % 128 != 0 || layout.block_size > kMaxBlockSize ||
      layout.miniblocks == 0 || layout.block_size % layout.miniblocks != 0 ||
      (layout.block_size / layout.miniblocks) % kGroup != 0)
    throw Error("DELTA_BINARY_PACKED: layout of " + std::to_string(layout.block_size) + " values in " +
                std::to_string(layout.miniblocks) + " miniblocks is not allowed");
  miniblock_size_ = layout.block_size / layout.miniblocks;
  deltas_.resize(layout.block_size * sizeof(U));
}

template <class T>
void DeltaBinaryPackedEncoder<T>::put(const T* values, size_t n) {
  if (n == 0) return;
  size_t i = 0;
  if (count_ == 0) {
    first_ = last_ = static_cast<U>(values[0]);
    i = count_ = 1;
  }
  U* deltas = deltas_.data_as<U>();
  while (i < n) {
    size_t take = std::min(n - i, static_cast<size_t>(layout_.block_size) - pending_);
    U* d = deltas + pending_;
    const U* v = reinterpret_cast<const U*>(values + i);
    d[0] = v[0] - last_;
    for (size_t k = 1; k < take; ++k) d[k] = v[k] - v[k - 1];
    last_ = v[take - 1];
    pending_ += take;
    count_ += take;
    i += take;
    if (pending_ == layout_.block_size) {
      write_block(pending_);
      pending_ = 0;
    }
  }
}

namespace {

// A block's smallest delta and each miniblock's deltas less it: the encoder's
// two passes over the block. x86-64 without SSE4.2 has no 64-bit compare,
// so the portable loops run a value at a time; AVX-512 takes eight.
template <class T>
T block_min_portable(const std::make_unsigned_t<T>* d, size_t n) {
  T min = std::numeric_limits<T>::max();
  for (size_t i = 0; i < n; ++i) min = std::min(min, static_cast<T>(d[i]));
  return min;
}

__attribute__((target("avx512f,avx512vl"))) int64_t block_min_avx512(const uint64_t* d, size_t n) {
  __m512i m = _mm512_set1_epi64(std::numeric_limits<int64_t>::max());
  size_t i = 0;
  // The merge-masked form: GCC 12's _mm512_min_epi64 passes an undefined
  // operand that -Wmaybe-uninitialized flags.
  for (; i + 8 <= n; i += 8) m = _mm512_mask_min_epi64(m, 0xff, m, _mm512_loadu_si512(d + i));
  // Reduced through memory: GCC 12's _mm512_reduce_* warn the same way.
  alignas(64) int64_t lanes[8];
  _mm512_store_si512(lanes, m);
  int64_t min = *std::min_element(lanes, lanes + 8);
  for (; i < n; ++i) min = std::min(min, static_cast<int64_t>(d[i]));
  return min;
}

// Subtracts umin from the n deltas at mb; returns their bitwise OR.
template <class U>
U subtract_min_portable(U* mb, size_t n, U umin) {
  U bits = 0;
  for (size_t i = 0; i < n; ++i) {
    mb[i] -= umin;
    bits |= mb[i];
  }
  return bits;
}

__attribute__((target("avx512f,avx512vl"))) uint64_t subtract_min_avx512(uint64_t* mb, size_t n, uint64_t umin) {
  const __m512i sub = _mm512_set1_epi64(static_cast<long long>(umin));
  __m512i bits = _mm512_setzero_si512();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m512i v = _mm512_sub_epi64(_mm512_loadu_si512(mb + i), sub);
    _mm512_storeu_si512(mb + i, v);
    bits = _mm512_or_si512(bits, v);
  }
  alignas(64) uint64_t lanes[8];
  _mm512_store_si512(lanes, bits);
  uint64_t any = 0;
  for (uint64_t lane : lanes) any |= lane;
  for (; i < n; ++i) any |= (mb[i] -= umin);
  return any;
}

// The kernel for T: AVX-512 for 64-bit deltas (32-bit ones vectorise
// without it).
template <class T>
T block_min(const std::make_unsigned_t<T>* d, size_t n, bool avx512) {
  if constexpr (sizeof(T) == 8) {
    if (avx512) return block_min_avx512(d, n);
  }
  return block_min_portable<T>(d, n);
}

template <class U>
U subtract_min(U* mb, size_t n, U umin, bool avx512) {
  if constexpr (sizeof(U) == 8) {
    if (avx512) return subtract_min_avx512(mb, n, umin);
  }
  return subtract_min_portable(mb, n, umin);
}

}  // namespace

template <class T>
void DeltaBinaryPackedEncoder<T>::write_block(size_t n) {
  U* d = deltas_.data_as<U>();
  const bool avx512 = simd_level() >= SimdLevel::kAvx512;
  const T min = block_min<T>(d, n, avx512);
  const U umin = static_cast<U>(min);
  const size_t used = (n + miniblock_size_ - 1) / miniblock_size_;
  // Padding equal to the min packs as zero bits.
  std::fill(d + n, d + used * miniblock_size_, umin);
  put_varint(blocks_, zigzag(min));
  uint8_t* widths = blocks_.extend(layout_.miniblocks);
  std::memset(widths, 0, layout_.miniblocks);
  size_t packed_bytes = 0;
  for (size_t m = 0; m < used; ++m) {
    U* mb = d + m * miniblock_size_;
    const U bits = subtract_min(mb, miniblock_size_, umin, avx512);
    widths[m] = static_cast<uint8_t>(std::bit_width(bits));
    packed_bytes += packed_size(miniblock_size_, widths[m]);
  }
  // extend() may move the buffer, so the widths are found again by offset.
  const size_t widths_at = static_cast<size_t>(widths - blocks_.data());
  uint8_t* dst = blocks_.extend(packed_bytes);
  for (size_t m = 0; m < used; ++m) {
    int width = blocks_.data()[widths_at + m];
    pack_bits(d + m * miniblock_size_, miniblock_size_, width, dst);
    dst += packed_size(miniblock_size_, width);
  }
}

template <class T>
void DeltaBinaryPackedEncoder<T>::flush(Buffer& out) {
  if (pending_ > 0) write_block(pending_);
  put_varint(out, layout_.block_size);
  put_varint(out, layout_.miniblocks);
  put_varint(out, count_);
  put_varint(out, zigzag(static_cast<T>(first_)));
  out.append(blocks_.data(), blocks_.size());
  blocks_.clear();
  pending_ = 0;
  count_ = 0;
  first_ = last_ = 0;
}

template <class T>
size_t DeltaBinaryPackedEncoder<T>::estimated_size() const {
  return 40 + blocks_.size() + (pending_ > 0 ? 10 + layout_.miniblocks + layout_.block_size * sizeof(U) : 0);
}

template class DeltaBinaryPackedDecoder<int32_t>;
template class DeltaBinaryPackedDecoder<int64_t>;
template class DeltaBinaryPackedEncoder<int32_t>;
template class DeltaBinaryPackedEncoder<int64_t>;

}  // namespace parq::encoding
