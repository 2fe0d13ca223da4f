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

namespace parq::encoding {

constexpr size_t packed_size(size_t count, int bit_width) { return (count * static_cast<size_t>(bit_width) + 7) / 8; }

// bit_width 0..32 for 32-bit outputs, 0..64 for 64-bit outputs.
void unpack_bits(const uint8_t* in, size_t count, int bit_width, uint32_t* out);
void unpack_bits(const uint8_t* in, size_t count, int bit_width, uint64_t* out);

// Writes packed_size(count, bit_width) bytes. Bits of a value above
// bit_width must be zero.
void pack_bits(const uint32_t* in, size_t count, int bit_width, uint8_t* out);
void pack_bits(const uint64_t* in, size_t count, int bit_width, uint8_t* out);

}  // namespace parq::encoding
