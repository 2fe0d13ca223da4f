// GZIP via libdeflate (several times faster than zlib for whole-buffer work).
// Reading accepts what writers in the wild produce: one or more concatenated
// gzip members, or a zlib stream.
#include <libdeflate.h>

#include "codec_errors.h"
#include "codecs.h"

namespace parq::compression {
namespace {

class GzipCodec final : public Codec {
 public:
  explicit GzipCodec(int level) : level_(check_level("GZIP", level, 0, 12, 6)) {}
  ~GzipCodec() override {
    if (decompressor_) libdeflate_free_decompressor(decompressor_);
    if (compressor_) libdeflate_free_compressor(compressor_);
  }

  format::CompressionCodec id() const override { return format::CompressionCodec::GZIP; }

  void decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size) override {
    if (decompressor_ == nullptr) decompressor_ = libdeflate_alloc_decompressor();
    size_t in_pos = 0, out_pos = 0;
    while (in_pos < in.size()) {
      const uint8_t* src = in.data() + in_pos;
      size_t avail = in.size() - in_pos;
      if (out_pos == out_size && only_zeros(src, avail)) break;  // padding after the last member
      size_t used = 0, produced = 0;
      libdeflate_result r;
      if (avail >= 2 && src[0] == 0x1f && src[1] == 0x8b) {
        r = libdeflate_gzip_decompress_ex(decompressor_, src, avail, out + out_pos, out_size - out_pos, &used,
                                          &produced);
      } else if (avail >= 2 && (src[0] & 0x0f) == 8 && ((src[0] << 8) | src[1]) % 31 == 0) {
        r = libdeflate_zlib_decompress_ex(decompressor_, src, avail, out + out_pos, out_size - out_pos, &used,
                                          &produced);
      } else {
        fail_decompress("GZIP", "no gzip or zlib header at input byte " + std::to_string(in_pos));
      }
      if (r == LIBDEFLATE_INSUFFICIENT_SPACE)
        fail_decompress(
            "GZIP", "data decompresses to more than the " + std::to_string(out_size) + " bytes the page header says");
      if (r != LIBDEFLATE_SUCCESS)
        fail_decompress("GZIP", "corrupt deflate stream at input byte " + std::to_string(in_pos));
      in_pos += used;
      out_pos += produced;
    }
    if (out_pos != out_size) fail_size("GZIP", out_pos, out_size);
  }

  size_t compress(std::span<const uint8_t> in, Buffer& out) override {
    if (compressor_ == nullptr) compressor_ = libdeflate_alloc_compressor(level_);
    size_t bound = libdeflate_gzip_compress_bound(compressor_, in.size());
    size_t start = out.size();
    out.resize(start + bound);
    size_t written = libdeflate_gzip_compress(compressor_, in.data(), in.size(), out.data() + start, bound);
    if (written == 0) throw Error("GZIP compression failed");
    out.resize(start + written);
    return written;
  }

  size_t max_compressed_size(size_t n) const override {
    // libdeflate's bound needs a compressor; this is its documented worst case.
    return n + n / 16 + 64 + 18;
  }

 private:
  static bool only_zeros(const uint8_t* p, size_t n) {
    for (size_t i = 0; i < n; ++i)
      if (p[i] != 0) return false;
    return true;
  }

  int level_;
  libdeflate_decompressor* decompressor_ = nullptr;
  libdeflate_compressor* compressor_ = nullptr;
};

}  // namespace

std::unique_ptr<Codec> make_gzip_codec(int level) { return std::make_unique<GzipCodec>(level); }

}  // namespace parq::compression
