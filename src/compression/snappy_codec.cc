// SNAPPY via the snappy library (raw format, no framing).
#include <snappy.h>

#include "codec_errors.h"
#include "codecs.h"

namespace parq::compression {
namespace {

class SnappyCodec final : public Codec {
 public:
  format::CompressionCodec id() const override { return format::CompressionCodec::SNAPPY; }

  void decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size) override {
    const char* src = reinterpret_cast<const char*>(in.data());
    size_t length = 0;
    if (!snappy::GetUncompressedLength(src, in.size(), &length)) fail_decompress("SNAPPY", "corrupt length header");
    if (length != out_size) fail_size("SNAPPY", length, out_size);
    if (!snappy::RawUncompress(src, in.size(), reinterpret_cast<char*>(out)))
      fail_decompress("SNAPPY", "corrupt input");
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
};

}  // namespace

std::unique_ptr<Codec> make_snappy_codec() { return std::make_unique<SnappyCodec>(); }

}  // namespace parq::compression
