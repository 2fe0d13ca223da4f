// A decoder of the raw snappy format (length preamble, then literal and copy
// elements), written here rather than taken from libsnappy.
//
// Why by hand: Debian ships snappy 1.1.9, whose decompressor calls memmove
// through the PLT for every copy element. On Parquet pages, where elements are
// short (a 1-byte literal and a 7-byte copy for every sequential int64), that
// call was more than half of a file scan. This loop copies in fixed 16-byte
// vectors inside bounds checked once per element, and expands copies that
// overlap their own output with one byte shuffle (bench/snappy_bench.cc
// measures both decoders on the same streams). Compression stays with the
// library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "parq/compression/codec.h"

namespace parq::compression {

// The uncompressed length from the stream's preamble (a varint of at most 5
// bytes that fits 32 bits, as libsnappy reads it); nullopt when malformed.
std::optional<size_t> snappy_uncompressed_length(std::span<const uint8_t> in);

// Decodes `in` (preamble included) into exactly `out_size` bytes at `out`,
// which the caller checked against the preamble. Writes nothing past
// out + out_size and reads nothing past the input. Throws parq::Error
// naming the fault and its input byte for a corrupt stream.
void snappy_decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size);

// Two streams decoded as snappy_decompress decodes each, in one loop that
// interleaves their elements (one stream's elements are a chain of
// dependent loads; two chains overlap). A corrupt stream throws as
// snappy_decompress does, without saying which of the two it was.
void snappy_decompress_pair(const DecompressJob& first, const DecompressJob& second);

}  // namespace parq::compression
