// ZSTD via libzstd: compression contexts per codec object, decompression
// contexts per thread.
#include <zstd.h>
#include <zstd_errors.h>

#include <new>

#include "codec_errors.h"
#include "codecs.h"

namespace parq::compression {
namespace {

// Readers make a codec per column chunk; a decompression context per codec
// (created, then its fresh buffers faulted in) was 2.6% of a scan of the
// lineitem ZSTD file, 784 chunks. Decompression holds no state between
// calls, so one context per thread serves every codec.
ZSTD_DCtx* thread_dctx() {
  struct Owner {
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    ~Owner() { ZSTD_freeDCtx(dctx); }
  };
  thread_local Owner owner;
  if (owner.dctx == nullptr) throw std::bad_alloc();
  return owner.dctx;
}

class ZstdCodec final : public Codec {
 public:
  explicit ZstdCodec(int level)
      : level_(check_level("ZSTD", level, ZSTD_minCLevel(), ZSTD_maxCLevel(), ZSTD_CLEVEL_DEFAULT)) {}
  ~ZstdCodec() override { ZSTD_freeCCtx(cctx_); }

  format::CompressionCodec id() const override { return format::CompressionCodec::ZSTD; }

  void decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size) override {
    size_t r = ZSTD_decompressDCtx(thread_dctx(), out, out_size, in.data(), in.size());
    if (ZSTD_isError(r)) {
      if (ZSTD_getErrorCode(r) == ZSTD_error_dstSize_tooSmall)
        fail_decompress(
            "ZSTD", "data decompresses to more than the " + std::to_string(out_size) + " bytes the page header says");
      fail_decompress("ZSTD", ZSTD_getErrorName(r));
    }
    if (r != out_size) fail_size("ZSTD", r, out_size);
  }

  size_t compress(std::span<const uint8_t> in, Buffer& out) override {
    if (cctx_ == nullptr) cctx_ = ZSTD_createCCtx();
    size_t bound = ZSTD_compressBound(in.size());
    size_t start = out.size();
    out.resize(start + bound);
    size_t r = ZSTD_compressCCtx(cctx_, out.data() + start, bound, in.data(), in.size(), level_);
    if (ZSTD_isError(r)) throw Error(std::string("ZSTD compression failed: ") + ZSTD_getErrorName(r));
    out.resize(start + r);
    return r;
  }

  size_t max_compressed_size(size_t n) const override { return ZSTD_compressBound(n); }

 private:
  int level_;
  ZSTD_CCtx* cctx_ = nullptr;
};

}  // namespace

std::unique_ptr<Codec> make_zstd_codec(int level) { return std::make_unique<ZstdCodec>(level); }

}  // namespace parq::compression
