// LZ4_RAW: a single LZ4 block, no framing (parquet-format 2.9).
#include <lz4.h>

#include <algorithm>
#include <climits>
#include <cstring>

#include "codec_errors.h"
#include "codecs.h"
#include "lz4_block.h"

namespace parq::compression {

void lz4_decompress_block(const char* codec, std::span<const uint8_t> in, uint8_t* out, size_t out_size) {
  if (in.size() > INT_MAX || out_size > INT_MAX) fail_decompress(codec, "block larger than LZ4 supports");
  int r = LZ4_decompress_safe(reinterpret_cast<const char*>(in.data()), reinterpret_cast<char*>(out),
                              static_cast<int>(in.size()), static_cast<int>(out_size));
  if (r < 0)
    fail_decompress(codec,
                    "corrupt LZ4 block (or it decompresses to more than " + std::to_string(out_size) + " bytes)");
  if (static_cast<size_t>(r) != out_size) fail_size(codec, static_cast<size_t>(r), out_size);
}

size_t lz4_compress_block(std::span<const uint8_t> in, uint8_t* out, size_t capacity) {
  if (in.size() > LZ4_MAX_INPUT_SIZE) throw Error("LZ4: page larger than LZ4 supports");
  int r = LZ4_compress_default(reinterpret_cast<const char*>(in.data()), reinterpret_cast<char*>(out),
                               static_cast<int>(in.size()), static_cast<int>(capacity));
  if (r <= 0) throw Error("LZ4 compression failed");
  return static_cast<size_t>(r);
}

size_t lz4_block_bound(size_t n) {
  return n > LZ4_MAX_INPUT_SIZE ? n + n / 255 + 16 : static_cast<size_t>(LZ4_compressBound(static_cast<int>(n)));
}

size_t lz4_store_block(std::span<const uint8_t> in, uint8_t* out, size_t) {
  // The token's high nibble is the literal count, 15 meaning "plus the
  // bytes that follow, each added, until one below 255".
  uint8_t* p = out;
  size_t n = in.size();
  *p++ = static_cast<uint8_t>(std::min<size_t>(n, 15) << 4);
  if (n >= 15) {
    for (n -= 15; n >= 255; n -= 255) *p++ = 255;
    *p++ = static_cast<uint8_t>(n);
  }
  if (!in.empty()) std::memcpy(p, in.data(), in.size());
  return static_cast<size_t>(p - out) + in.size();
}

size_t lz4_append_block(std::span<const uint8_t> in, Buffer& out, size_t header, Lz4BlockWriter write_block) {
  const size_t start = out.size() + header;
  const size_t bound = lz4_block_bound(in.size());
  out.resize(start + bound);
  const size_t written = write_block(in, out.data() + start, bound);
  out.resize(start + written);
  return written;
}

namespace {

class Lz4RawCodec final : public Codec {
 public:
  format::CompressionCodec id() const override { return format::CompressionCodec::LZ4_RAW; }

  void decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size) override {
    lz4_decompress_block("LZ4_RAW", in, out, out_size);
  }

  size_t compress(std::span<const uint8_t> in, Buffer& out) override {
    return lz4_append_block(in, out, 0, lz4_compress_block);
  }

  bool store(std::span<const uint8_t> in, Buffer& out) override {
    lz4_append_block(in, out, 0, lz4_store_block);
    return true;
  }

  size_t max_compressed_size(size_t n) const override { return lz4_block_bound(n); }
};

}  // namespace

std::unique_ptr<Codec> make_lz4_raw_codec() { return std::make_unique<Lz4RawCodec>(); }

}  // namespace parq::compression
