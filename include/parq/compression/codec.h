// Page compression codecs: one class per Parquet CompressionCodec, each a thin
// adapter over the Debian library made for it (snappy, libdeflate, brotli,
// zstd, lz4, lzo2).
//
// The reader always knows a page's uncompressed size from its header, so
// decompression writes into a caller buffer of exactly that size and fails
// unless the data decompresses to exactly that many bytes: no buffer is ever
// sized from the compressed stream itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "parq/format/metadata.h"
#include "parq/util/buffer.h"

namespace parq::compression {

// Use the codec's own default level.
inline constexpr int kDefaultLevel = INT32_MIN;

// One decompression: `in` into exactly `out_size` bytes at `out`.
struct DecompressJob {
  std::span<const uint8_t> in;
  uint8_t* out = nullptr;
  size_t out_size = 0;
};

class Codec {
 public:
  virtual ~Codec() = default;

  virtual format::CompressionCodec id() const = 0;
  const char* name() const { return format::to_string(id()); }

  // Decompresses `in` into exactly `out_size` bytes at `out`; throws
  // parq::Error if the input is corrupt or decompresses to another size.
  virtual void decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size) = 0;

  // Two decompressions of this codec. Codecs whose decoding waits on a
  // chain of dependent loads run both in one interleaved loop (SNAPPY);
  // the others one after the other. Throws as decompress() does, without
  // saying which of the two failed.
  virtual void decompress_pair(const DecompressJob& first, const DecompressJob& second) {
    decompress(first.in, first.out, first.out_size);
    decompress(second.in, second.out, second.out_size);
  }

  // Appends the compressed form of `in` to `out`; returns its size.
  virtual size_t compress(std::span<const uint8_t> in, Buffer& out) = 0;

  // An upper bound of compress()'s and store()'s output for `n` input bytes.
  virtual size_t max_compressed_size(size_t n) const = 0;

  // Appends `in` in this codec's format without searching it for repeats
  // (SNAPPY and LZ4 as runs of literals), at the speed of a copy, for pages
  // the writer judges not worth compressing; returns false, leaving `out`
  // alone, for codecs without such a form.
  virtual bool store(std::span<const uint8_t> in, Buffer& out) {
    (void)in;
    (void)out;
    return false;
  }
};

// A codec for `id` at `level` (kDefaultLevel: the codec's default; ignored by
// codecs without levels). Throws parq::Error for an unknown codec or a level
// outside the codec's range.
std::unique_ptr<Codec> make_codec(format::CompressionCodec id, int level = kDefaultLevel);

// Parses "zstd", "zstd:3", "gzip:9", "lz4_raw", ... (case-insensitive).
struct CodecChoice {
  format::CompressionCodec id = format::CompressionCodec::UNCOMPRESSED;
  int level = kDefaultLevel;
};
CodecChoice parse_codec(const std::string& text);

}  // namespace parq::compression
