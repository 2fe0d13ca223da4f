// DELTA_BINARY_PACKED: the spec's examples byte for byte, round trips over
// adversarial data at every SIMD level, hand-built layouts, batching, skip()
// and malformed streams.
#include "parq/encoding/delta_binary_packed.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <set>
#include <vector>

#include "parq/encoding/bit_packing.h"
#include "parq/error.h"
#include "parq/util/cpu.h"

namespace parq::encoding {
namespace {

using ::testing::HasSubstr;

template <class T>
std::vector<uint8_t> encode(const std::vector<T>& values, DeltaBinaryPackedLayout layout = {}) {
  DeltaBinaryPackedEncoder<T> enc(layout);
  enc.put(values.data(), values.size());
  EXPECT_GE(enc.estimated_size(), 0u);
  size_t estimate = enc.estimated_size();
  Buffer out;
  enc.flush(out);
  EXPECT_LE(out.size(), estimate);
  return {out.data(), out.data() + out.size()};
}

template <class T>
std::vector<T> decode(const std::vector<uint8_t>& bytes, size_t batch = SIZE_MAX) {
  DeltaBinaryPackedDecoder<T> dec(bytes.data(), bytes.size());
  EXPECT_EQ(dec.encoded_size(), bytes.size());
  std::vector<T> out(dec.total_count() + 1);
  size_t done = 0;
  while (true) {
    size_t got = dec.decode(out.data() + done, std::min(batch, out.size() - done));
    if (got == 0) break;
    done += got;
  }
  EXPECT_EQ(dec.remaining(), 0u);
  out.resize(done);
  return out;
}

void put_uleb(std::vector<uint8_t>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}
uint64_t zz(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }

class DeltaBinaryPackedSimd : public ::testing::TestWithParam<SimdLevel> {
 protected:
  void SetUp() override {
    if (GetParam() > detected_simd_level()) GTEST_SKIP() << "CPU lacks " << to_string(GetParam());
    set_simd_level(GetParam());
  }
  void TearDown() override { set_simd_level(detected_simd_level()); }
};

TEST(DeltaBinaryPacked, SpecExample1) {
  // 1,2,3,4,5: deltas all 1, so min delta 1 and one width-0 miniblock. The
  // spec uses block size 8 for brevity; ours is 128 with 4 miniblocks.
  std::vector<uint8_t> expect = {0x80, 0x01, 0x04, 0x05, 0x02,   // header: 128, 4, 5, zigzag(1)
                                 0x02, 0x00, 0x00, 0x00, 0x00};  // block: zigzag(1), widths 0
  EXPECT_EQ(encode<int32_t>({1, 2, 3, 4, 5}), expect);
  EXPECT_EQ(decode<int32_t>(expect), (std::vector<int32_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(decode<int64_t>(expect), (std::vector<int64_t>{1, 2, 3, 4, 5}));
}

TEST(DeltaBinaryPacked, SpecExample2) {
  // 7,5,3,1,2,3,4,5: min delta -2, relative deltas 0,0,0,3,3,3,3 at width 2,
  // LSB first: 11000000 00111111, then zero padding to 32 values.
  std::vector<uint8_t> expect = {0x80, 0x01, 0x04, 0x08, 0x0e,  // header: 128, 4, 8, zigzag(7)
                                 0x03, 0x02, 0x00, 0x00, 0x00,  // zigzag(-2), widths 2,0,0,0
                                 0xc0, 0x3f, 0,    0,    0,    0, 0, 0};
  std::vector<int32_t> values = {7, 5, 3, 1, 2, 3, 4, 5};
  EXPECT_EQ(encode(values), expect);
  EXPECT_EQ(decode<int32_t>(expect), values);
  // The spec's own layout (8 values in 1 miniblock) is not a valid one.
  std::vector<uint8_t> spec_layout = {0x08, 0x01, 0x08, 0x0e, 0x03, 0x02, 0xc0, 0x3f};
  EXPECT_THROW(decode<int32_t>(spec_layout), Error);
}

template <class T>
std::vector<std::vector<T>> adversarial(size_t n, uint64_t seed) {
  using L = std::numeric_limits<T>;
  std::mt19937_64 rng(seed);
  std::vector<std::vector<T>> sets(8, std::vector<T>(n));
  for (size_t i = 0; i < n; ++i) {
    sets[0][i] = static_cast<T>(rng());                               // random: width 32/64
    sets[1][i] = i % 2 ? L::min() : L::max();                         // extreme alternation
    sets[2][i] = 42;                                                  // constant
    sets[3][i] = static_cast<T>(1000 + 3 * i);                        // monotonic
    sets[4][i] = static_cast<T>(i % 3 == 0 ? L::min() : rng() % 7);   // huge deltas
    sets[5][i] = static_cast<T>(L::max() - static_cast<T>(i));        // descending from the top
    sets[6][i] = static_cast<T>(rng() >> (rng() % (8 * sizeof(T))));  // mixed widths
    sets[7][i] = static_cast<T>(i % 2 ? L::min() : 0);
  }
  return sets;
}

template <class T>
void round_trip_all(size_t n) {
  for (auto layout : {DeltaBinaryPackedLayout{}, DeltaBinaryPackedLayout{256, 8}, DeltaBinaryPackedLayout{128, 1},
                      DeltaBinaryPackedLayout{1024, 32}}) {
    for (const auto& values : adversarial<T>(n, n * 7 + layout.block_size)) {
      auto bytes = encode(values, layout);
      ASSERT_EQ(decode<T>(bytes), values) << "n=" << n << " block " << layout.block_size;
      ASSERT_EQ(decode<T>(bytes, 37), values) << "n=" << n << " batches of 37";
    }
  }
}

TEST_P(DeltaBinaryPackedSimd, RoundTripSizes32) {
  for (size_t n : {0, 1, 2, 7, 8, 9, 31, 32, 33, 127, 128, 129, 130, 255, 256, 257, 1000}) round_trip_all<int32_t>(n);
}

TEST_P(DeltaBinaryPackedSimd, RoundTripSizes64) {
  for (size_t n : {0, 1, 2, 7, 8, 9, 31, 32, 33, 127, 128, 129, 130, 255, 256, 257, 1000}) round_trip_all<int64_t>(n);
}

TEST_P(DeltaBinaryPackedSimd, RoundTripMillion) {
  auto v32 = adversarial<int32_t>(1'000'003, 1);
  for (size_t k : {0, 3, 6}) ASSERT_EQ(decode<int32_t>(encode(v32[k])), v32[k]);
  auto v64 = adversarial<int64_t>(1'000'003, 2);
  for (size_t k : {0, 3, 6}) ASSERT_EQ(decode<int64_t>(encode(v64[k])), v64[k]);
}

// Deltas of exactly `width` bits in every miniblock, so every width appears.
template <class T>
void every_width() {
  using U = std::make_unsigned_t<T>;
  std::mt19937_64 rng(5);
  for (int width = 0; width <= int(8 * sizeof(T)); ++width) {
    std::vector<T> values(1 + 128 * 3 + 17);
    U acc = static_cast<U>(rng());
    values[0] = static_cast<T>(acc);
    for (size_t i = 1; i < values.size(); ++i) {
      U d = width == 0 ? 0 : static_cast<U>(rng()) >> (8 * sizeof(T) - width);
      if (i % 32 == 5 && width > 0) d |= U{1} << (width - 1);  // make the width exact
      acc += d;
      values[i] = static_cast<T>(acc);
    }
    auto bytes = encode(values);
    // The first block's min delta is >= 0 here, so bit widths are <= width.
    ASSERT_EQ(decode<T>(bytes), values) << "width " << width;
    ASSERT_EQ(decode<T>(bytes, 5), values) << "width " << width;
  }
}

TEST_P(DeltaBinaryPackedSimd, EveryWidth32) { every_width<int32_t>(); }
TEST_P(DeltaBinaryPackedSimd, EveryWidth64) { every_width<int64_t>(); }

TEST(DeltaBinaryPacked, EncoderUsesEveryWidth) {
  // Within a miniblock whose min delta is 0 (a 0 delta present), the widest
  // delta sets the width: check the width bytes directly.
  for (int width = 0; width <= 64; ++width) {
    std::vector<int64_t> values(129, 0);
    uint64_t acc = 0;
    for (size_t i = 2; i < values.size(); ++i) {
      acc += (i == 10 && width > 0) ? uint64_t{1} << (width - 1) : 0;
      values[i] = static_cast<int64_t>(acc);
    }
    auto bytes = encode(values);
    // header: 80 01 04 81 01 00, block: min delta 00, widths
    // header 80 01 04 81 01 00; block: min delta (0 unless the delta is
    // 2^63, negative), widths.
    ASSERT_EQ(bytes[6], width == 64 ? 0xff : 0x00);
    EXPECT_EQ(bytes[width == 64 ? 16 : 7], width) << width;
    EXPECT_EQ(decode<int64_t>(bytes), values);
  }
}

// Builds a stream by hand: block size, miniblock count, per block the min
// delta and widths, miniblocks packed from the given relative deltas.
struct HandStream {
  std::vector<uint8_t> bytes;
  HandStream(uint64_t block, uint64_t mbs, uint64_t total, int64_t first) {
    put_uleb(bytes, block);
    put_uleb(bytes, mbs);
    put_uleb(bytes, total);
    put_uleb(bytes, zz(first));
  }
  void block(int64_t min_delta, const std::vector<uint8_t>& widths) {
    put_uleb(bytes, zz(min_delta));
    bytes.insert(bytes.end(), widths.begin(), widths.end());
  }
  void miniblock(const std::vector<uint64_t>& rel, int width) {
    std::vector<uint8_t> packed(packed_size(rel.size(), width));
    pack_bits(rel.data(), rel.size(), width, packed.data());
    bytes.insert(bytes.end(), packed.begin(), packed.end());
  }
};

TEST_P(DeltaBinaryPackedSimd, HandBuiltLayoutGarbageWidthsAndPadding) {
  // Block 256 of 8 miniblocks (32 values each); 40 values: the first value,
  // 32 in miniblock 0, 7 in miniblock 1 padded with garbage; widths of
  // miniblocks 2..7 are garbage (even > 64) and have no bodies.
  HandStream s(256, 8, 41, -5);
  s.block(-3, {3, 5, 200, 99, 255, 7, 1, 65});
  std::vector<uint64_t> a(32), b(32);
  std::vector<int32_t> expect = {-5};
  int64_t v = -5;
  for (size_t i = 0; i < 32; ++i) {
    a[i] = i % 8;
    v += static_cast<int64_t>(a[i]) - 3;
    expect.push_back(static_cast<int32_t>(v));
  }
  for (size_t i = 0; i < 32; ++i) {
    b[i] = i < 8 ? (i * 5) % 32 : 31 - i % 5;  // entries 8.. are padding: garbage
    if (i < 8) {
      v += static_cast<int64_t>(b[i]) - 3;
      expect.push_back(static_cast<int32_t>(v));
    }
  }
  s.miniblock(a, 3);
  s.miniblock(b, 5);
  EXPECT_EQ(decode<int32_t>(s.bytes), expect);
  EXPECT_EQ(decode<int32_t>(s.bytes, 3), expect);
  std::vector<int64_t> expect64(expect.begin(), expect.end());
  EXPECT_EQ(decode<int64_t>(s.bytes), expect64);
}

TEST_P(DeltaBinaryPackedSimd, OneMiniblockOf128AndBigBlocks) {
  std::mt19937 rng(3);
  std::vector<int32_t> values(5000);
  for (auto& v : values) v = static_cast<int32_t>(rng() % 1000);
  for (auto layout : {DeltaBinaryPackedLayout{128, 1}, DeltaBinaryPackedLayout{128, 4},
                      DeltaBinaryPackedLayout{4096, 4}, DeltaBinaryPackedLayout{512, 16}}) {
    auto bytes = encode(values, layout);
    EXPECT_EQ(decode<int32_t>(bytes), values);
    EXPECT_EQ(decode<int32_t>(bytes, 100), values);
  }
  EXPECT_THROW(DeltaBinaryPackedEncoder<int32_t>({128, 8}), Error);  // 16-value miniblocks
  EXPECT_THROW(DeltaBinaryPackedEncoder<int32_t>({100, 1}), Error);
}

TEST_P(DeltaBinaryPackedSimd, MinDeltaAtTheLimits) {
  // min delta INT32_MIN with width 32 relative deltas: wraps exactly.
  std::vector<int32_t> values = {INT32_MAX, INT32_MIN, INT32_MAX, -1, 0, INT32_MIN, INT32_MIN + 1, INT32_MAX};
  EXPECT_EQ(decode<int32_t>(encode(values)), values);
  std::vector<int64_t> values64 = {INT64_MAX, INT64_MIN, INT64_MAX, -1, 0, INT64_MIN, INT64_MIN + 1, INT64_MAX};
  EXPECT_EQ(decode<int64_t>(encode(values64)), values64);
  // A hand-built stream with min delta INT64_MIN and deltas 2^64-1.
  HandStream s(128, 4, 3, INT64_MAX);
  s.block(INT64_MIN, {64, 0, 0, 0});
  std::vector<uint64_t> rel(32, 0);
  rel[0] = UINT64_MAX;
  rel[1] = 0;
  s.miniblock(rel, 64);
  uint64_t second = static_cast<uint64_t>(INT64_MAX) + (UINT64_MAX + static_cast<uint64_t>(INT64_MIN));
  uint64_t third = second + static_cast<uint64_t>(INT64_MIN);
  EXPECT_EQ(decode<int64_t>(s.bytes),
            (std::vector<int64_t>{INT64_MAX, static_cast<int64_t>(second), static_cast<int64_t>(third)}));
  EXPECT_EQ(static_cast<int64_t>(second), -2);
}

TEST_P(DeltaBinaryPackedSimd, SkipAndStraddlingBatches) {
  std::mt19937 rng(9);
  std::vector<int64_t> values(10'000);
  for (auto& v : values) v = static_cast<int64_t>(rng() % 100000) - 50000;
  auto bytes = encode(values, {256, 4});
  for (size_t first_skip : {0, 1, 31, 32, 33, 127, 128, 129, 255, 256, 257, 9999, 10000, 20000}) {
    DeltaBinaryPackedDecoder<int64_t> dec(bytes.data(), bytes.size());
    size_t skipped = dec.skip(first_skip);
    ASSERT_EQ(skipped, std::min<size_t>(first_skip, values.size()));
    // Alternate decodes and skips of varying sizes, checking positions.
    size_t pos = skipped;
    for (size_t batch = 1; pos < values.size(); batch = batch * 7 % 301 + 1) {
      std::vector<int64_t> got(batch);
      size_t n = dec.decode(got.data(), batch);
      ASSERT_EQ(n, std::min(batch, values.size() - pos));
      got.resize(n);
      ASSERT_EQ(got, std::vector<int64_t>(values.begin() + static_cast<long>(pos),
                                          values.begin() + static_cast<long>(pos + n)))
          << "at " << pos;
      pos += n;
      pos += dec.skip(batch % 70);
    }
    EXPECT_EQ(dec.decode(values.data(), 1), 0u);
    EXPECT_EQ(pos, values.size()) << "first skip " << first_skip;
  }
}

TEST(DeltaBinaryPacked, EncodedSizeLeavesTrailingBytes) {
  std::vector<int32_t> values = {5, 5, 6, 6};
  auto bytes = encode(values);
  size_t size = bytes.size();
  bytes.insert(bytes.end(), {'H', 'e', 'l', 'l', 'o'});
  DeltaBinaryPackedDecoder<int32_t> dec(bytes.data(), bytes.size());
  EXPECT_EQ(dec.encoded_size(), size);
  std::vector<int32_t> out(4);
  EXPECT_EQ(dec.decode(out.data(), 10), 4u);
  EXPECT_EQ(out, values);
}

TEST(DeltaBinaryPacked, EncoderFlushStartsAfresh) {
  DeltaBinaryPackedEncoder<int32_t> enc;
  std::vector<int32_t> a = {1, 2, 3}, b = {9, 8};
  enc.put(a.data(), a.size());
  Buffer first;
  enc.flush(first);
  enc.put(b.data(), b.size());
  Buffer second;
  enc.flush(second);
  EXPECT_EQ(decode<int32_t>({second.data(), second.data() + second.size()}), b);
  Buffer empty;
  enc.flush(empty);
  EXPECT_EQ(decode<int32_t>({empty.data(), empty.data() + empty.size()}), std::vector<int32_t>{});
}

void expect_error(const std::vector<uint8_t>& bytes, const std::string& what) {
  for (bool size_first : {false, true}) {
    try {
      DeltaBinaryPackedDecoder<int32_t> dec(bytes.data(), bytes.size());
      if (size_first) (void)dec.encoded_size();
      std::vector<int32_t> out(dec.total_count());
      dec.decode(out.data(), out.size());
      ADD_FAILURE() << "no error for " << what;
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("DELTA_BINARY_PACKED")) << what;
      EXPECT_THAT(e.what(), HasSubstr("byte")) << what;
    }
  }
}

TEST(DeltaBinaryPacked, MalformedStreams) {
  expect_error({}, "empty");
  expect_error({0x80}, "truncated block size");
  expect_error({0x80, 0x01, 0x04}, "no count");
  expect_error({0x80, 0x01, 0x04, 0x05}, "no first value");
  expect_error({0x40, 0x01, 0x01, 0x00}, "block size 64");
  expect_error({0x80, 0x01, 0x00, 0x01, 0x00}, "0 miniblocks");
  expect_error({0x80, 0x01, 0x08, 0x01, 0x00}, "16-value miniblocks");
  expect_error({0x80, 0x01, 0x03, 0x01, 0x00}, "miniblock count not a divisor");
  expect_error({0x80, 0x01, 0x04, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00}, "count past the data");
  expect_error({0x80, 0x01, 0x04, 0x05, 0x02, 0x02}, "truncated widths");
  expect_error({0x80, 0x01, 0x04, 0x05, 0x02}, "no block");
  expect_error({0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x05, 0, 0, 0, 1, 2}, "truncated miniblock");
  expect_error({0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 33, 0, 0, 0}, "width 33 for int32");
  expect_error({0x80, 0x01, 0x04, 0x05, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0, 0, 0, 0},
               "overlong varint");
  // Width 65 for int64.
  std::vector<uint8_t> w65 = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 65, 0, 0, 0};
  w65.resize(w65.size() + 65 * 4, 0);
  DeltaBinaryPackedDecoder<int64_t> dec(w65.data(), w65.size());
  int64_t out[5];
  EXPECT_THROW(dec.decode(out, 5), Error);
  // Every truncation of a valid stream either decodes fewer values or throws;
  // it never reads out of bounds (ASan).
  std::vector<int64_t> values(700);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i * i * 7919 % 100003);
  auto bytes = encode(values);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    std::vector<uint8_t> head(bytes.begin(), bytes.begin() + static_cast<long>(cut));
    auto* copy = new uint8_t[cut + 1];
    std::copy(head.begin(), head.end(), copy);
    EXPECT_THROW(
        {
          DeltaBinaryPackedDecoder<int64_t> d(copy, cut);
          std::vector<int64_t> o(values.size());
          d.decode(o.data(), o.size());
        },
        Error)
        << cut;
    delete[] copy;
  }
}

INSTANTIATE_TEST_SUITE_P(Simd, DeltaBinaryPackedSimd,
                         ::testing::Values(SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parq::encoding

namespace parq::encoding {
namespace {

// DuckDB writes INT32 columns with deltas computed in 64 bits: a min delta of
// -(2^32 - 1) and 33-bit miniblocks. Decoding wraps modulo 2^32, as the spec's
// arithmetic says, and gives back the INT32 values (an int64 encoder writes
// exactly such a stream for the same values).
TEST(DeltaBinaryPackedWide, Int32ColumnsWithSixtyFourBitDeltas) {
  std::vector<int64_t> wide;
  for (int i = 0; i < 300; ++i) wide.push_back(i % 2 ? INT32_MIN : INT32_MAX);
  DeltaBinaryPackedEncoder<int64_t> enc;
  enc.put(wide.data(), wide.size());
  Buffer stream;
  enc.flush(stream);
  DeltaBinaryPackedDecoder<int32_t> dec(stream.data(), stream.size());
  std::vector<int32_t> got(wide.size());
  ASSERT_EQ(dec.decode(got.data(), got.size()), wide.size());
  for (size_t i = 0; i < wide.size(); ++i) ASSERT_EQ(got[i], static_cast<int32_t>(wide[i])) << i;
}

}  // namespace
}  // namespace parq::encoding
