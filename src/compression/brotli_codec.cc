// BROTLI via the brotli library.
#include <brotli/decode.h>
#include <brotli/encode.h>

#include "codec_errors.h"
#include "codecs.h"

namespace parq::compression {
namespace {

class BrotliCodec final : public Codec {
 public:
  // Quality 8 by default: Arrow C++'s choice, a fair trade of size for speed.
  explicit BrotliCodec(int level) : quality_(check_level("BROTLI", level, 0, 11, 8)) {}

  format::CompressionCodec id() const override { return format::CompressionCodec::BROTLI; }

  void decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size) override {
    size_t decoded = out_size;
    BrotliDecoderResult r = BrotliDecoderDecompress(in.size(), in.data(), &decoded, out);
    if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT)
      fail_decompress("BROTLI",
                      "data decompresses to more than the " + std::to_string(out_size) + " bytes the page header says");
    if (r != BROTLI_DECODER_RESULT_SUCCESS) fail_decompress("BROTLI", "corrupt input");
    if (decoded != out_size) fail_size("BROTLI", decoded, out_size);
  }

  size_t compress(std::span<const uint8_t> in, Buffer& out) override {
    size_t bound = BrotliEncoderMaxCompressedSize(in.size());
    if (bound == 0) bound = in.size() + 1024;
    size_t start = out.size();
    out.resize(start + bound);
    size_t written = bound;
    if (!BrotliEncoderCompress(quality_, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, in.size(), in.data(), &written,
                               out.data() + start))
      throw Error("BROTLI compression failed");
    out.resize(start + written);
    return written;
  }

  size_t max_compressed_size(size_t n) const override {
    size_t bound = BrotliEncoderMaxCompressedSize(n);
    return bound == 0 ? n + 1024 : bound;
  }

 private:
  int quality_;
};

}  // namespace

std::unique_ptr<Codec> make_brotli_codec(int level) { return std::make_unique<BrotliCodec>(level); }

}  // namespace parq::compression
