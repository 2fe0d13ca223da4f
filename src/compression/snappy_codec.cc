// SNAPPY (raw format, no framing): compression by the snappy library,
// decompression by parq's own decoder (snappy_decompressor.h says why).
#include <snappy.h>

#include "codecs.h"
#include "snappy_decompressor.h"

namespace parq::compression {
namespace {

class SnappyCodec final : public Codec {
 public:
  format::CompressionCodec id() const override { return format::CompressionCodec::SNAPPY; }

  void decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size) override {
    snappy_decompress(in, out, out_size);
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
