// LZO via liblzo2 (LZO1X). parquet-mr compresses LZO pages through Hadoop's
// block stream: blocks of [u32 BE decompressed size] followed by chunks of
// [u32 BE compressed size][LZO1X data] until the block is complete. Reading
// also accepts a bare LZO1X stream. Writing uses the Hadoop layout.
#include <lzo/lzo1x.h>

#include <mutex>
#include <vector>

#include "codec_errors.h"
#include "codecs.h"
#include "lz4_block.h"

namespace parq::compression {
namespace {

void lzo_once() {
  static std::once_flag flag;
  std::call_once(flag, [] {
    if (lzo_init() != LZO_E_OK) throw Error("LZO: library initialisation failed");
  });
}

// Decompresses one LZO1X chunk into exactly `raw` bytes; false if corrupt.
bool lzo_chunk(std::span<const uint8_t> in, uint8_t* out, size_t raw) {
  lzo_uint produced = raw;
  int r = lzo1x_decompress_safe(in.data(), in.size(), out, &produced, nullptr);
  return r == LZO_E_OK && produced == raw;
}

bool try_hadoop(std::span<const uint8_t> in, uint8_t* out, size_t out_size) {
  size_t in_pos = 0, out_pos = 0;
  while (in_pos < in.size()) {
    if (in.size() - in_pos < 4) return false;
    uint32_t block = load_u32_be(in.data() + in_pos);
    in_pos += 4;
    if (block > out_size - out_pos) return false;
    size_t block_end = out_pos + block;
    while (out_pos < block_end) {
      if (in.size() - in_pos < 4) return false;
      uint32_t packed = load_u32_be(in.data() + in_pos);
      in_pos += 4;
      if (packed > in.size() - in_pos) return false;
      // A chunk's decompressed size is not stored: decompress into what the
      // block has left and take what it produced.
      lzo_uint produced = block_end - out_pos;
      int r = lzo1x_decompress_safe(in.data() + in_pos, packed, out + out_pos, &produced, nullptr);
      if (r != LZO_E_OK && r != LZO_E_INPUT_NOT_CONSUMED) return false;
      if (produced == 0) return false;
      in_pos += packed;
      out_pos += produced;
    }
  }
  return out_pos == out_size;
}

class LzoCodec final : public Codec {
 public:
  LzoCodec() { lzo_once(); }

  format::CompressionCodec id() const override { return format::CompressionCodec::LZO; }

  void decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size) override {
    if (try_hadoop(in, out, out_size)) return;
    if (!lzo_chunk(in, out, out_size))
      fail_decompress("LZO", "corrupt input, or it does not decompress to the " + std::to_string(out_size) +
                                 " bytes the page header says");
  }

  size_t compress(std::span<const uint8_t> in, Buffer& out) override {
    if (in.size() > UINT32_MAX) throw Error("LZO: page larger than 4 GiB");
    if (in.empty()) return 0;  // Hadoop's block stream writes nothing for no data
    work_.resize(LZO1X_1_MEM_COMPRESS);
    size_t start = out.size();
    out.resize(start + 8 + max_chunk(in.size()));
    lzo_uint written = 0;
    if (lzo1x_1_compress(in.data(), in.size(), out.data() + start + 8, &written, work_.data()) != LZO_E_OK)
      throw Error("LZO compression failed");
    store_u32_be(out.data() + start, static_cast<uint32_t>(in.size()));
    store_u32_be(out.data() + start + 4, static_cast<uint32_t>(written));
    out.resize(start + 8 + written);
    return 8 + written;
  }

  size_t max_compressed_size(size_t n) const override { return 8 + max_chunk(n); }

 private:
  // LZO1X's documented worst case.
  static size_t max_chunk(size_t n) { return n + n / 16 + 64 + 3; }

  std::vector<uint8_t> work_;
};

}  // namespace

std::unique_ptr<Codec> make_lzo_codec() { return std::make_unique<LzoCodec>(); }

}  // namespace parq::compression
