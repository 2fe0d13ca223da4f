// LZ4 (the deprecated codec id 5). parquet-mr writes Hadoop's framing: blocks
// of [u32 BE decompressed size][u32 BE compressed size][LZ4 block]. Older
// Arrow C++ wrote a bare LZ4 block and some writers the LZ4 frame format, all
// under the same id; reading tries Hadoop framing, then the frame format (by
// its magic), then a bare block, as the main readers do. Writing uses Hadoop
// framing, which every reader understands.
#include <lz4frame.h>

#include "codec_errors.h"
#include "codecs.h"
#include "lz4_block.h"

namespace parq::compression {
namespace {

constexpr uint32_t kFrameMagic = 0x184D2204;

// Decodes Hadoop framing; returns false (with `out` possibly scribbled on)
// when the input is not laid out that way.
bool try_hadoop(std::span<const uint8_t> in, uint8_t* out, size_t out_size) {
  size_t in_pos = 0, out_pos = 0;
  while (in_pos < in.size()) {
    if (in.size() - in_pos < 8) return false;
    uint32_t raw = load_u32_be(in.data() + in_pos);
    uint32_t packed = load_u32_be(in.data() + in_pos + 4);
    in_pos += 8;
    if (packed > in.size() - in_pos || raw > out_size - out_pos) return false;
    try {
      lz4_decompress_block("LZ4", in.subspan(in_pos, packed), out + out_pos, raw);
    } catch (const Error&) {
      return false;
    }
    in_pos += packed;
    out_pos += raw;
  }
  return out_pos == out_size;
}

void decompress_frame(std::span<const uint8_t> in, uint8_t* out, size_t out_size) {
  LZ4F_dctx* ctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION)))
    fail_decompress("LZ4", "cannot create a frame decoder");
  size_t in_pos = 0, out_pos = 0, hint = 1;
  while (hint != 0 && in_pos < in.size()) {
    size_t src = in.size() - in_pos, dst = out_size - out_pos;
    hint = LZ4F_decompress(ctx, out + out_pos, &dst, in.data() + in_pos, &src, nullptr);
    if (LZ4F_isError(hint)) {
      LZ4F_freeDecompressionContext(ctx);
      fail_decompress("LZ4", std::string("corrupt LZ4 frame: ") + LZ4F_getErrorName(hint));
    }
    if (src == 0 && dst == 0) break;  // no progress: output full
    in_pos += src;
    out_pos += dst;
  }
  LZ4F_freeDecompressionContext(ctx);
  if (hint != 0) fail_decompress("LZ4", "truncated LZ4 frame, or it decompresses to more than the page header says");
  if (out_pos != out_size) fail_size("LZ4", out_pos, out_size);
}

class Lz4HadoopCodec final : public Codec {
 public:
  format::CompressionCodec id() const override { return format::CompressionCodec::LZ4; }

  void decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size) override {
    if (try_hadoop(in, out, out_size)) return;
    if (in.size() >= 4 && (in[0] | in[1] << 8 | in[2] << 16 | uint32_t{in[3]} << 24) == kFrameMagic)
      return decompress_frame(in, out, out_size);
    lz4_decompress_block("LZ4", in, out, out_size);
  }

  size_t compress(std::span<const uint8_t> in, Buffer& out) override {
    return append_framed(in, out, lz4_compress_block);
  }

  bool store(std::span<const uint8_t> in, Buffer& out) override {
    append_framed(in, out, lz4_store_block);
    return true;
  }

  size_t max_compressed_size(size_t n) const override { return 8 + lz4_block_bound(n); }

 private:
  // One Hadoop frame: both sizes, big-endian, then the block.
  static size_t append_framed(std::span<const uint8_t> in, Buffer& out, Lz4BlockWriter write_block) {
    const size_t start = out.size();
    const size_t written = lz4_append_block(in, out, 8, write_block);
    store_u32_be(out.data() + start, static_cast<uint32_t>(in.size()));
    store_u32_be(out.data() + start + 4, static_cast<uint32_t>(written));
    return 8 + written;
  }
};

}  // namespace

std::unique_ptr<Codec> make_lz4_hadoop_codec() { return std::make_unique<Lz4HadoopCodec>(); }

}  // namespace parq::compression
