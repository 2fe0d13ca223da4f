// Bit packing kernels; see encoding/bit_packing.h. This file holds the
// portable kernels (unrolled per bit width, so every shift and offset is a
// constant), the dispatch on SIMD level, and the bounded tail handling that
// keeps every kernel's wide loads inside the caller's bytes.
#include "parq/encoding/bit_packing.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

namespace parq::encoding {
namespace {

inline uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// ---- portable unpack ---------------------------------------------------------

// Value I of a block at width W sits in the 8 bytes from bit I*W / 8 once
// shifted by I*W % 8 (at most 7 + 32 bits), so one load per value suffices.
template <int W, int N>
inline void unpack32_block(const uint8_t* in, uint32_t* out) {
  constexpr uint64_t kMask = (uint64_t{1} << W) - 1;
  [&]<size_t... I>(std::index_sequence<I...>) {
    ((out[I] = static_cast<uint32_t>((load64(in + I * W / 8) >> (I * W % 8)) & kMask)), ...);
  }
  (std::make_index_sequence<N>{});
}

// 64-bit values may straddle 9 bytes (shift + width > 64): the ninth byte
// supplies the top bits.
template <int W, size_t I>
inline uint64_t extract64(const uint8_t* in) {
  constexpr size_t kByte = I * W / 8;
  constexpr unsigned kShift = I * W % 8;
  constexpr uint64_t kMask = W == 64 ? ~uint64_t{0} : (uint64_t{1} << W) - 1;
  uint64_t v = load64(in + kByte) >> kShift;
  if constexpr (kShift + W > 64) v |= uint64_t{in[kByte + 8]} << (64 - kShift);
  return v & kMask;
}

template <int W, int N>
inline void unpack64_block(const uint8_t* in, uint64_t* out) {
  [&]<size_t... I>(std::index_sequence<I...>) { ((out[I] = extract64<W, I>(in)), ...); }
  (std::make_index_sequence<N>{});
}

template <int W, int N, class T>
inline void unpack_block(const uint8_t* in, T* out) {
  if constexpr (sizeof(T) == 4) {
    unpack32_block<W, N>(in, out);
  } else {
    unpack64_block<W, N>(in, out);
  }
}

// Blocks of 32 then 8 values while their loads stay within `readable`: a
// block starting on a byte boundary loads 8 bytes (9 for 64-bit values) from
// its last value's first byte.
template <class T, int W>
size_t unpack_width(const uint8_t* in, size_t readable, size_t count, T* out) {
  constexpr size_t kLoad = sizeof(T) == 4 ? 8 : 9;
  constexpr size_t kReach32 = 31 * W / 8 + kLoad;
  constexpr size_t kReach8 = 7 * W / 8 + kLoad;
  size_t i = 0;
  for (; i + 32 <= count && i / 8 * W + kReach32 <= readable; i += 32) unpack_block<W, 32>(in + i / 8 * W, out + i);
  for (; i + 8 <= count && i / 8 * W + kReach8 <= readable; i += 8) unpack_block<W, 8>(in + i / 8 * W, out + i);
  return i;
}

// ---- portable pack -----------------------------------------------------------

// Fully unrolled, so `bits` is a constant at every step and the branch folds
// away; writes exactly N * W / 8 bytes.
template <class T, int W, int N>
inline void pack_block(const T* in, uint8_t* out) {
  uint64_t acc = 0;
  unsigned bits = 0;
#pragma GCC unroll 64
  for (int i = 0; i < N; ++i) {
    const uint64_t v = in[i];
    acc |= v << bits;
    bits += W;
    if (bits >= 64) {
      std::memcpy(out, &acc, 8);
      out += 8;
      bits -= 64;
      acc = bits != 0 ? v >> (W - bits) : 0;
    }
  }
  if (bits != 0) std::memcpy(out, &acc, bits / 8);
}

template <class T, int W>
size_t pack_width(const T* in, size_t count, uint8_t* out) {
  size_t i = 0;
  for (; i + 32 <= count; i += 32) pack_block<T, W, 32>(in + i, out + i / 8 * W);
  for (; i + 8 <= count; i += 8) pack_block<T, W, 8>(in + i, out + i / 8 * W);
  return i;
}

// ---- per-width tables ----------------------------------------------------------

using Unpack32Width = size_t (*)(const uint8_t*, size_t, size_t, uint32_t*);
using Unpack64Width = size_t (*)(const uint8_t*, size_t, size_t, uint64_t*);
using Pack32Width = size_t (*)(const uint32_t*, size_t, uint8_t*);
using Pack64Width = size_t (*)(const uint64_t*, size_t, uint8_t*);

template <size_t... W>
constexpr std::array<Unpack32Width, sizeof...(W)> unpack32_table(std::index_sequence<W...>) {
  return {&unpack_width<uint32_t, static_cast<int>(W) + 1>...};
}
template <size_t... W>
constexpr std::array<Unpack64Width, sizeof...(W)> unpack64_table(std::index_sequence<W...>) {
  return {&unpack_width<uint64_t, static_cast<int>(W) + 1>...};
}
template <size_t... W>
constexpr std::array<Pack32Width, sizeof...(W)> pack32_table(std::index_sequence<W...>) {
  return {&pack_width<uint32_t, static_cast<int>(W) + 1>...};
}
template <size_t... W>
constexpr std::array<Pack64Width, sizeof...(W)> pack64_table(std::index_sequence<W...>) {
  return {&pack_width<uint64_t, static_cast<int>(W) + 1>...};
}

// Indexed by bit_width - 1.
constexpr auto kUnpack32 = unpack32_table(std::make_index_sequence<32>{});
constexpr auto kUnpack64 = unpack64_table(std::make_index_sequence<64>{});
constexpr auto kPack32 = pack32_table(std::make_index_sequence<32>{});
constexpr auto kPack64 = pack64_table(std::make_index_sequence<64>{});

size_t pack64_scalar(const uint64_t* in, size_t count, int bit_width, uint8_t* out) {
  return kPack64[bit_width - 1](in, count, out);
}

// ---- drivers -------------------------------------------------------------------

// Largest distance any kernel loads past the nominal bytes of its last block.
constexpr size_t kSlack = 64;
constexpr size_t kTailChunk = 256;

// The kernel does the bulk in place; values it leaves (fewer than a block, or
// those whose wide loads would cross `readable`) are unpacked from a copy of
// their bytes followed by zeros.
template <class T, class Kernel>
void unpack_with(Kernel kernel, const uint8_t* in, size_t readable, size_t count, int bit_width, T* out) {
  if (bit_width == 0) {
    std::memset(out, 0, count * sizeof(T));
    return;
  }
  size_t done = kernel(in, readable, count, bit_width, out);
  const size_t total = packed_size(count, bit_width);
  while (done < count) {
    alignas(64) uint8_t bytes[kTailChunk * sizeof(T) + kSlack];
    alignas(64) T values[kTailChunk];
    const size_t n = std::min(count - done, kTailChunk);
    const size_t from = done / 8 * static_cast<size_t>(bit_width);
    const size_t live = std::min(total, from + packed_size(n, bit_width)) - from;
    const size_t padded = (n + 7) / 8 * static_cast<size_t>(bit_width) + kSlack;
    std::memcpy(bytes, in + from, live);
    std::memset(bytes + live, 0, padded - live);
    kernel(bytes, padded, (n + 7) / 8 * 8, bit_width, values);
    std::memcpy(out + done, values, n * sizeof(T));
    done += n;
  }
}

template <class T, class Kernel>
void pack_with(Kernel kernel, const T* in, size_t count, int bit_width, uint8_t* out) {
  if (bit_width == 0) return;
  const size_t total = packed_size(count, bit_width);
  size_t done = kernel(in, count, bit_width, out, total);
  while (done < count) {
    // The last partial group: pad the values with zeros, pack, copy the bytes
    // that belong to the output.
    alignas(64) T values[kTailChunk];
    alignas(64) uint8_t bytes[kTailChunk * sizeof(T) + kSlack];
    const size_t n = std::min(count - done, kTailChunk);
    const size_t rounded = (n + 7) / 8 * 8;
    std::memcpy(values, in + done, n * sizeof(T));
    std::memset(values + n, 0, (rounded - n) * sizeof(T));
    kernel(values, rounded, bit_width, bytes, sizeof(bytes));
    const size_t from = done / 8 * static_cast<size_t>(bit_width);
    std::memcpy(out + from, bytes, std::min(total - from, packed_size(rounded, bit_width)));
    done += n;
  }
}

size_t pack64_kernel(const uint64_t* in, size_t count, int bit_width, uint8_t* out, size_t) {
  return pack64_scalar(in, count, bit_width, out);
}

}  // namespace

namespace detail {

size_t unpack32_scalar(const uint8_t* in, size_t readable, size_t count, int bit_width, uint32_t* out) {
  if (bit_width == 0) {
    std::memset(out, 0, count * sizeof(uint32_t));
    return count;
  }
  return kUnpack32[bit_width - 1](in, readable, count, out);
}

size_t unpack64_scalar(const uint8_t* in, size_t readable, size_t count, int bit_width, uint64_t* out) {
  if (bit_width == 0) {
    std::memset(out, 0, count * sizeof(uint64_t));
    return count;
  }
  return kUnpack64[bit_width - 1](in, readable, count, out);
}

size_t pack32_scalar(const uint32_t* in, size_t count, int bit_width, uint8_t* out, size_t) {
  if (bit_width == 0) return count;
  return kPack32[bit_width - 1](in, count, out);
}

Unpack32Kernel unpack32_kernel(SimdLevel level) {
  switch (level) {
    case SimdLevel::kAvx512:
      return &unpack32_avx512;
    case SimdLevel::kAvx2:
      return &unpack32_avx2;
    case SimdLevel::kScalar:
      break;
  }
  return &unpack32_scalar;
}

Unpack64Kernel unpack64_kernel(SimdLevel level) {
  return level == SimdLevel::kAvx512 ? &unpack64_avx512 : &unpack64_scalar;
}

Pack32Kernel pack32_kernel(SimdLevel level) {
  switch (level) {
    case SimdLevel::kAvx512:
      return &pack32_avx512;
    case SimdLevel::kAvx2:
      return &pack32_bmi2;
    case SimdLevel::kScalar:
      break;
  }
  return &pack32_scalar;
}

}  // namespace detail

void unpack_bits(const uint8_t* in, size_t count, int bit_width, uint32_t* out) {
  unpack_with(detail::unpack32_kernel(simd_level()), in, packed_size(count, bit_width), count, bit_width, out);
}
void unpack_bits(const uint8_t* in, size_t count, int bit_width, uint64_t* out) {
  unpack_with(detail::unpack64_kernel(simd_level()), in, packed_size(count, bit_width), count, bit_width, out);
}
void unpack_bits(const uint8_t* in, size_t readable, size_t count, int bit_width, uint32_t* out) {
  unpack_with(detail::unpack32_kernel(simd_level()), in, readable, count, bit_width, out);
}
void unpack_bits(const uint8_t* in, size_t readable, size_t count, int bit_width, uint64_t* out) {
  unpack_with(detail::unpack64_kernel(simd_level()), in, readable, count, bit_width, out);
}
void pack_bits(const uint32_t* in, size_t count, int bit_width, uint8_t* out) {
  pack_with(detail::pack32_kernel(simd_level()), in, count, bit_width, out);
}
void pack_bits(const uint64_t* in, size_t count, int bit_width, uint8_t* out) {
  pack_with(&pack64_kernel, in, count, bit_width, out);
}

}  // namespace parq::encoding
