// SNAPPY (raw format, no framing): compression by the snappy library,
// decompression by parq's own decoder (snappy_decompressor.h says why).
#include <snappy.h>

#include <algorithm>
#include <cstring>

#include "codecs.h"
#include "snappy_decompressor.h"
#include "util/varint.h"

namespace parq::compression {
namespace {

class SnappyCodec final : public Codec {
 public:
  format::CompressionCodec id() const override { return format::CompressionCodec::SNAPPY; }

  void decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size) override {
    snappy_decompress(in, out, out_size);
  }

  void decompress_pair(const DecompressJob& first, const DecompressJob& second) override {
    snappy_decompress_pair(first, second);
  }

  size_t compress(std::span<const uint8_t> in, Buffer& out) override {
    size_t start = out.size();
    out.resize(start + snappy::MaxCompressedLength(in.size()));
    size_t written = 0;
    snappy::RawCompress(reinterpret_cast<const char*>(in.data()), in.size(),
                        reinterpret_cast<char*>(out.data() + start), &written);
    out.resize(start + written);
    return written;
  }

  size_t max_compressed_size(size_t n) const override { return snappy::MaxCompressedLength(n); }

  // The length as a varint, then literal elements of at most 64 KiB: the
  // longest libsnappy writes, so no reader meets a literal longer than it
  // would from libsnappy's own output.
  bool store(std::span<const uint8_t> in, Buffer& out) override {
    constexpr size_t kElement = size_t{1} << 16;
    constexpr size_t kMaxTagBytes = 3;  // tag 61: the length in 2 more bytes
    put_varint(out, in.size());
    const size_t start = out.size();
    out.resize(start + in.size() + kMaxTagBytes * ((in.size() + kElement - 1) / kElement));
    uint8_t* p = out.data() + start;
    for (size_t at = 0; at < in.size(); at += kElement) {
      const size_t len = std::min(kElement, in.size() - at);
      const size_t stored = len - 1;  // a literal tag holds its length minus one
      if (stored < 60) {
        *p++ = static_cast<uint8_t>(stored << 2);
      } else if (stored < 256) {
        *p++ = 60 << 2;
        *p++ = static_cast<uint8_t>(stored);
      } else {
        *p++ = 61 << 2;
        *p++ = static_cast<uint8_t>(stored);
        *p++ = static_cast<uint8_t>(stored >> 8);
      }
      std::memcpy(p, in.data() + at, len);
      p += len;
    }
    out.resize(static_cast<size_t>(p - out.data()));
    return true;
  }
};

}  // namespace

std::unique_ptr<Codec> make_snappy_codec() { return std::make_unique<SnappyCodec>(); }

}  // namespace parq::compression
