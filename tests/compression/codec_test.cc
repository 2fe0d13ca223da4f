// Every codec: round trips, exact-size checks, corrupt input, and the
// framing variants readers meet in the wild.
#include "parq/compression/codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <libdeflate.h>
#include <lz4.h>
#include <lz4frame.h>
#include <lzo/lzo1x.h>
#include <snappy.h>
#include <zlib.h>

#include <random>

#include "parq/error.h"

namespace parq::compression {
namespace {

using format::CompressionCodec;
using ::testing::HasSubstr;

const CompressionCodec kAll[] = {CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY, CompressionCodec::GZIP,
                                 CompressionCodec::LZO,          CompressionCodec::BROTLI, CompressionCodec::LZ4,
                                 CompressionCodec::ZSTD,         CompressionCodec::LZ4_RAW};

std::vector<uint8_t> sample(size_t n, bool compressible, uint32_t seed = 1) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = compressible ? static_cast<uint8_t>("parquet columns "[i % 16] ^ (i / 4096)) : static_cast<uint8_t>(rng());
  return v;
}

std::vector<uint8_t> compress(Codec& c, const std::vector<uint8_t>& in) {
  Buffer out;
  out.append("x", 1);  // compress appends: existing bytes stay
  size_t n = c.compress(in, out);
  EXPECT_EQ(out.size(), n + 1);
  EXPECT_LE(n, c.max_compressed_size(in.size()));
  return {out.data() + 1, out.data() + out.size()};
}

std::vector<uint8_t> decompress(Codec& c, const std::vector<uint8_t>& in, size_t size) {
  std::vector<uint8_t> out(size + 1);
  c.decompress(in, out.data(), size);
  out.pop_back();
  return out;
}

std::string error_of(Codec& c, const std::vector<uint8_t>& in, size_t size) {
  try {
    decompress(c, in, size);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Codec, RoundTripsEveryCodec) {
  for (CompressionCodec id : kAll) {
    auto codec = make_codec(id);
    EXPECT_EQ(codec->id(), id);
    for (size_t n : {0u, 1u, 100u, 65536u, 1u << 20}) {
      for (bool compressible : {true, false}) {
        auto data = sample(n, compressible);
        auto packed = compress(*codec, data);
        EXPECT_EQ(decompress(*codec, packed, n), data) << codec->name() << " n=" << n;
        if (compressible && n >= 65536 && id != CompressionCodec::UNCOMPRESSED) {
          EXPECT_LT(packed.size(), n / 4) << codec->name();
        }
      }
    }
  }
}

// store(): the codecs with a literal form give a stream that their own
// library (not only parq's decoder) decodes back to the input, at sizes
// around each length encoding's boundaries; the others decline and leave
// the output alone.
TEST(Codec, StoreWritesLiteralStreamsTheLibrariesDecode) {
  const size_t sizes[] = {0, 1, 14, 15, 16, 60, 61, 255, 256, 269, 270, 65535, 65536, 65537, 3 * 65536 + 7, 1 << 20};
  for (CompressionCodec id : kAll) {
    auto codec = make_codec(id);
    Buffer out;
    out.append("x", 1);
    const bool stores = codec->store(sample(100, false), out);
    const bool expected =
        id == CompressionCodec::SNAPPY || id == CompressionCodec::LZ4 || id == CompressionCodec::LZ4_RAW;
    EXPECT_EQ(stores, expected) << codec->name();
    if (!stores) {
      EXPECT_EQ(out.size(), 1u) << codec->name();
      continue;
    }
    for (size_t n : sizes) {
      const auto data = sample(n, true, static_cast<uint32_t>(n));
      out.clear();
      out.append("x", 1);  // store appends: existing bytes stay
      ASSERT_TRUE(codec->store(data, out));
      const std::vector<uint8_t> packed(out.data() + 1, out.data() + out.size());
      EXPECT_LE(packed.size(), codec->max_compressed_size(n)) << codec->name() << " n=" << n;
      EXPECT_LE(packed.size(), n + 8 + 3 * (n / 65536 + 1) + n / 255) << codec->name() << " n=" << n;
      EXPECT_EQ(decompress(*codec, packed, n), data) << codec->name() << " n=" << n;
      std::vector<uint8_t> back(n + 1);
      const char* raw = reinterpret_cast<const char*>(packed.data());
      if (id == CompressionCodec::SNAPPY) {
        size_t length = 0;
        ASSERT_TRUE(snappy::GetUncompressedLength(raw, packed.size(), &length)) << n;
        EXPECT_EQ(length, n);
        ASSERT_TRUE(snappy::RawUncompress(raw, packed.size(), reinterpret_cast<char*>(back.data()))) << n;
      } else {
        const size_t frame = id == CompressionCodec::LZ4 ? 8 : 0;  // Hadoop's two sizes
        const int got = LZ4_decompress_safe(raw + frame, reinterpret_cast<char*>(back.data()),
                                            static_cast<int>(packed.size() - frame), static_cast<int>(n));
        EXPECT_EQ(got, static_cast<int>(n)) << codec->name() << " n=" << n;
      }
      back.pop_back();
      EXPECT_EQ(back, data) << codec->name() << " n=" << n;
    }
  }
}

TEST(Codec, WrongUncompressedSizeIsAnError) {
  auto data = sample(10000, true);
  for (CompressionCodec id : kAll) {
    auto codec = make_codec(id);
    auto packed = compress(*codec, data);
    EXPECT_THROW(decompress(*codec, packed, data.size() - 1), Error) << codec->name();
    EXPECT_THROW(decompress(*codec, packed, data.size() + 1), Error) << codec->name();
  }
}

TEST(Codec, CorruptInputIsACleanError) {
  auto data = sample(5000, true);
  for (CompressionCodec id : kAll) {
    if (id == CompressionCodec::UNCOMPRESSED) continue;
    auto codec = make_codec(id);
    auto packed = compress(*codec, data);
    std::mt19937 rng(7);
    for (int trial = 0; trial < 50; ++trial) {
      auto bad = packed;
      if (trial % 2 == 0) {
        bad.resize(rng() % bad.size());
      } else {
        for (int k = 0; k < 4; ++k) bad[rng() % bad.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
      }
      try {
        auto out = decompress(*codec, bad, data.size());
        // A flip that still decodes must at least give the declared size.
        EXPECT_EQ(out.size(), data.size());
      } catch (const Error& e) {
        EXPECT_THAT(e.what(), HasSubstr(codec->name()));
      }
    }
    auto garbage = sample(300, false, 99);
    EXPECT_THROW(decompress(*codec, garbage, 5000), Error) << codec->name();
  }
}

TEST(Gzip, ConcatenatedMembersAndZlibAndPadding) {
  auto a = sample(3000, true, 1), b = sample(2000, false, 2);
  auto codec = make_codec(CompressionCodec::GZIP);
  auto pa = compress(*codec, a), pb = compress(*codec, b);
  std::vector<uint8_t> both = pa;
  both.insert(both.end(), pb.begin(), pb.end());
  std::vector<uint8_t> ab = a;
  ab.insert(ab.end(), b.begin(), b.end());
  EXPECT_EQ(decompress(*codec, both, ab.size()), ab);
  both.insert(both.end(), 16, 0);  // zero padding after the last member
  EXPECT_EQ(decompress(*codec, both, ab.size()), ab);

  uLongf zlen = compressBound(a.size());
  std::vector<uint8_t> z(zlen);
  ASSERT_EQ(compress2(z.data(), &zlen, a.data(), a.size(), 6), Z_OK);
  z.resize(zlen);
  EXPECT_EQ(decompress(*codec, z, a.size()), a);
  EXPECT_THAT(error_of(*codec, {1, 2, 3, 4}, 10), HasSubstr("no gzip or zlib header"));
}

TEST(Lz4, HadoopFramingLayout) {
  auto data = sample(1000, true);
  auto codec = make_codec(CompressionCodec::LZ4);
  auto packed = compress(*codec, data);
  ASSERT_GE(packed.size(), 8u);
  EXPECT_EQ((packed[0] << 24 | packed[1] << 16 | packed[2] << 8 | packed[3]), 1000);
  EXPECT_EQ(static_cast<size_t>(packed[4] << 24 | packed[5] << 16 | packed[6] << 8 | packed[7]), packed.size() - 8);
}

TEST(Lz4, MultipleHadoopBlocks) {
  auto a = sample(700, true, 3), b = sample(900, true, 4);
  std::vector<uint8_t> stream;
  for (const auto* part : {&a, &b}) {
    std::vector<uint8_t> block(LZ4_compressBound(part->size()));
    int n = LZ4_compress_default(reinterpret_cast<const char*>(part->data()), reinterpret_cast<char*>(block.data()),
                                 part->size(), block.size());
    for (uint32_t v : {static_cast<uint32_t>(part->size()), static_cast<uint32_t>(n)})
      for (int s = 24; s >= 0; s -= 8) stream.push_back(static_cast<uint8_t>(v >> s));
    stream.insert(stream.end(), block.begin(), block.begin() + n);
  }
  std::vector<uint8_t> ab = a;
  ab.insert(ab.end(), b.begin(), b.end());
  EXPECT_EQ(decompress(*make_codec(CompressionCodec::LZ4), stream, ab.size()), ab);
}

TEST(Lz4, BareBlockAndFrameFallbacks) {
  auto data = sample(5000, true);
  auto raw = compress(*make_codec(CompressionCodec::LZ4_RAW), data);
  EXPECT_EQ(decompress(*make_codec(CompressionCodec::LZ4), raw, data.size()), data);

  std::vector<uint8_t> frame(LZ4F_compressFrameBound(data.size(), nullptr));
  size_t n = LZ4F_compressFrame(frame.data(), frame.size(), data.data(), data.size(), nullptr);
  ASSERT_FALSE(LZ4F_isError(n));
  frame.resize(n);
  EXPECT_EQ(decompress(*make_codec(CompressionCodec::LZ4), frame, data.size()), data);
}

TEST(Lzo, BareStreamFallback) {
  ASSERT_EQ(lzo_init(), LZO_E_OK);
  auto data = sample(4000, true);
  std::vector<uint8_t> out(data.size() + data.size() / 16 + 64 + 3);
  std::vector<uint8_t> work(LZO1X_1_MEM_COMPRESS);
  lzo_uint n = 0;
  ASSERT_EQ(lzo1x_1_compress(data.data(), data.size(), out.data(), &n, work.data()), LZO_E_OK);
  out.resize(n);
  EXPECT_EQ(decompress(*make_codec(CompressionCodec::LZO), out, data.size()), data);
}

TEST(Codec, ParseNamesAndLevels) {
  EXPECT_EQ(parse_codec("zstd").id, CompressionCodec::ZSTD);
  EXPECT_EQ(parse_codec("ZSTD:7").level, 7);
  EXPECT_EQ(parse_codec("gzip:9").id, CompressionCodec::GZIP);
  EXPECT_EQ(parse_codec("lz4_raw").id, CompressionCodec::LZ4_RAW);
  EXPECT_EQ(parse_codec("none").id, CompressionCodec::UNCOMPRESSED);
  EXPECT_THROW(parse_codec("zip"), Error);
  EXPECT_THROW(parse_codec("zstd:x"), Error);
  EXPECT_THROW(parse_codec("gzip:13"), Error);
  EXPECT_THROW(parse_codec("brotli:12"), Error);
  EXPECT_THROW(make_codec(static_cast<CompressionCodec>(42)), Error);
}

TEST(Codec, LevelsChangeTheOutput) {
  auto data = sample(1 << 18, true);
  auto fast = compress(*make_codec(CompressionCodec::ZSTD, 1), data);
  auto small = compress(*make_codec(CompressionCodec::ZSTD, 19), data);
  EXPECT_LE(small.size(), fast.size());
  EXPECT_EQ(decompress(*make_codec(CompressionCodec::ZSTD), small, data.size()), data);
}

}  // namespace
}  // namespace parq::compression
