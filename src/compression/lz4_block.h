// LZ4 block primitives shared by LZ4_RAW and the Hadoop-framed LZ4 codec.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "parq/util/buffer.h"

namespace parq::compression {

// Decompresses one block into exactly out_size bytes or throws, naming `codec`.
void lz4_decompress_block(const char* codec, std::span<const uint8_t> in, uint8_t* out, size_t out_size);
size_t lz4_block_bound(size_t n);

// Writers of one block of `in` into at most `capacity` (lz4_block_bound)
// bytes at `out`; they return its size.
using Lz4BlockWriter = size_t (*)(std::span<const uint8_t> in, uint8_t* out, size_t capacity);
size_t lz4_compress_block(std::span<const uint8_t> in, uint8_t* out, size_t capacity);
// One sequence of literals, at the speed of a copy.
size_t lz4_store_block(std::span<const uint8_t> in, uint8_t* out, size_t capacity);

// Appends `header` bytes for the caller to fill, then the block; returns
// the block's size.
size_t lz4_append_block(std::span<const uint8_t> in, Buffer& out, size_t header, Lz4BlockWriter write_block);

inline uint32_t load_u32_be(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | uint32_t{p[3]};
}

inline void store_u32_be(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

}  // namespace parq::compression
