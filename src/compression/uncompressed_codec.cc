// UNCOMPRESSED: a copy, with the size check every codec makes.
#include <cstring>

#include "codec_errors.h"
#include "codecs.h"

namespace parq::compression {
namespace {

class UncompressedCodec final : public Codec {
 public:
  format::CompressionCodec id() const override { return format::CompressionCodec::UNCOMPRESSED; }
  void decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size) override {
    if (in.size() != out_size) fail_size("UNCOMPRESSED", in.size(), out_size);
    if (out_size != 0) std::memcpy(out, in.data(), out_size);
  }
  size_t compress(std::span<const uint8_t> in, Buffer& out) override {
    out.append(in.data(), in.size());
    return in.size();
  }
  size_t max_compressed_size(size_t n) const override { return n; }
};

}  // namespace

std::unique_ptr<Codec> make_uncompressed_codec() { return std::make_unique<UncompressedCodec>(); }

}  // namespace parq::compression
