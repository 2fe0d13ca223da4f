// Factories of the individual codecs, one per file; make_codec() picks.
#pragma once

#include <memory>

#include "parq/compression/codec.h"

namespace parq::compression {

std::unique_ptr<Codec> make_uncompressed_codec();
std::unique_ptr<Codec> make_snappy_codec();
std::unique_ptr<Codec> make_gzip_codec(int level);
std::unique_ptr<Codec> make_lzo_codec();
std::unique_ptr<Codec> make_brotli_codec(int level);
std::unique_ptr<Codec> make_lz4_hadoop_codec();
std::unique_ptr<Codec> make_zstd_codec(int level);
std::unique_ptr<Codec> make_lz4_raw_codec();

}  // namespace parq::compression
