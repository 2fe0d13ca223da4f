// make_codec() and codec names.
#include "parq/compression/codec.h"

#include <algorithm>
#include <cctype>

#include "codecs.h"
#include "parq/error.h"

namespace parq::compression {

using format::CompressionCodec;

std::unique_ptr<Codec> make_codec(CompressionCodec id, int level) {
  switch (id) {
    case CompressionCodec::UNCOMPRESSED:
      return make_uncompressed_codec();
    case CompressionCodec::SNAPPY:
      return make_snappy_codec();
    case CompressionCodec::GZIP:
      return make_gzip_codec(level);
    case CompressionCodec::LZO:
      return make_lzo_codec();
    case CompressionCodec::BROTLI:
      return make_brotli_codec(level);
    case CompressionCodec::LZ4:
      return make_lz4_hadoop_codec();
    case CompressionCodec::ZSTD:
      return make_zstd_codec(level);
    case CompressionCodec::LZ4_RAW:
      return make_lz4_raw_codec();
  }
  throw Error("unsupported compression codec " + std::string(format::to_string(id)), ErrorKind::kUnsupported);
}

CodecChoice parse_codec(const std::string& text) {
  std::string name = text, level;
  if (size_t colon = text.find(':'); colon != std::string::npos) {
    name = text.substr(0, colon);
    level = text.substr(colon + 1);
  }
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
  if (name == "NONE") name = "UNCOMPRESSED";
  CodecChoice choice;
  bool found = false;
  for (int i = 0; i <= static_cast<int>(CompressionCodec::LZ4_RAW); ++i) {
    if (name == format::to_string(static_cast<CompressionCodec>(i))) {
      choice.id = static_cast<CompressionCodec>(i);
      found = true;
    }
  }
  if (!found)
    throw Error("unknown codec '" + text + "' (uncompressed, snappy, gzip, brotli, zstd, lz4, lz4_raw, lzo)",
                ErrorKind::kInvalidArgument);
  if (!level.empty()) {
    size_t used = 0;
    try {
      choice.level = std::stoi(level, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != level.size() || level.empty())
      throw Error("codec level '" + level + "' is not a number", ErrorKind::kInvalidArgument);
  }
  make_codec(choice.id, choice.level);  // validates the level
  return choice;
}

}  // namespace parq::compression
