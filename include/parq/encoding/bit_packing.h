// Bit packing kernels: the inner loop of the RLE/bit-packing hybrid (levels,
// dictionary indices, booleans), of DELTA_BINARY_PACKED miniblocks and of
// BIT_PACKED. Values are packed LSB first: value i occupies bits
// [i * width, (i + 1) * width) of the little-endian byte stream.
//
// `in` must hold at least packed_size(count, width) bytes; nothing past that
// is read. Kernels are chosen at run time (util/cpu.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "parq/util/cpu.h"

namespace parq::encoding {

constexpr size_t packed_size(size_t count, int bit_width) { return (count * static_cast<size_t>(bit_width) + 7) / 8; }

// bit_width 0..32 for 32-bit outputs, 0..64 for 64-bit outputs.
void unpack_bits(const uint8_t* in, size_t count, int bit_width, uint32_t* out);
void unpack_bits(const uint8_t* in, size_t count, int bit_width, uint64_t* out);

// As above, for callers whose input continues past the packed values (a run
// inside a page): kernels may read up to `readable` bytes from `in`, which
// lets them use full-width loads to the last value instead of a bounded tail
// copy. readable >= packed_size(count, bit_width).
void unpack_bits(const uint8_t* in, size_t readable, size_t count, int bit_width, uint32_t* out);
void unpack_bits(const uint8_t* in, size_t readable, size_t count, int bit_width, uint64_t* out);

// Writes packed_size(count, bit_width) bytes. Bits of a value above
// bit_width must be zero.
void pack_bits(const uint32_t* in, size_t count, int bit_width, uint8_t* out);
void pack_bits(const uint64_t* in, size_t count, int bit_width, uint8_t* out);

namespace detail {

// One SIMD level's kernels, exposed for tests and benchmarks that compare
// levels and for decoders that pick once per page. A kernel handles a prefix
// of the values: whole blocks whose loads stay within `readable` bytes of
// `in`. It returns how many values it wrote (a multiple of 8, so the rest
// starts on a byte boundary); the public functions finish the tail.
using Unpack32Kernel = size_t (*)(const uint8_t* in, size_t readable, size_t count, int bit_width, uint32_t* out);
using Unpack64Kernel = size_t (*)(const uint8_t* in, size_t readable, size_t count, int bit_width, uint64_t* out);
// Pack kernels write whole groups of 8 values while at least `writable`
// bytes of slack allow their wide stores; they return the values packed.
using Pack32Kernel = size_t (*)(const uint32_t* in, size_t count, int bit_width, uint8_t* out, size_t writable);

Unpack32Kernel unpack32_kernel(SimdLevel level);
Unpack64Kernel unpack64_kernel(SimdLevel level);
Pack32Kernel pack32_kernel(SimdLevel level);

size_t unpack32_scalar(const uint8_t* in, size_t readable, size_t count, int bit_width, uint32_t* out);
size_t unpack32_avx2(const uint8_t* in, size_t readable, size_t count, int bit_width, uint32_t* out);
size_t unpack32_avx512(const uint8_t* in, size_t readable, size_t count, int bit_width, uint32_t* out);
size_t unpack64_scalar(const uint8_t* in, size_t readable, size_t count, int bit_width, uint64_t* out);
size_t unpack64_avx512(const uint8_t* in, size_t readable, size_t count, int bit_width, uint64_t* out);
size_t pack32_scalar(const uint32_t* in, size_t count, int bit_width, uint8_t* out, size_t writable);
size_t pack32_bmi2(const uint32_t* in, size_t count, int bit_width, uint8_t* out, size_t writable);
size_t pack32_avx512(const uint32_t* in, size_t count, int bit_width, uint8_t* out, size_t writable);

}  // namespace detail
}  // namespace parq::encoding
