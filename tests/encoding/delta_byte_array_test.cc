// DELTA_BYTE_ARRAY: the spec's example, round trips for BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY, skip() and malformed streams.
#include "parq/encoding/delta_byte_array.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "parq/encoding/delta_binary_packed.h"
#include "parq/encoding/delta_length_byte_array.h"
#include "parq/error.h"
#include "parq/util/cpu.h"

namespace parq::encoding {
namespace {

using ::testing::HasSubstr;

std::vector<uint8_t> encode(const std::vector<std::string>& values) {
  ByteArrayBatch b;
  for (const auto& v : values) b.append(v);
  DeltaByteArrayEncoder enc;
  // Two puts: the prefix of the second's first value comes from the first.
  size_t half = values.size() / 2;
  enc.put(b.offsets(), b.data(), half);
  enc.put(b.offsets() + half, b.data(), values.size() - half);
  size_t estimate = enc.estimated_size();
  Buffer out;
  enc.flush(out);
  EXPECT_LE(out.size(), estimate);
  return {out.data(), out.data() + out.size()};
}

std::vector<std::string> decode(const std::vector<uint8_t>& bytes, size_t batch = 1 << 20) {
  DeltaByteArrayDecoder dec(bytes.data(), bytes.size());
  std::vector<std::string> values;
  ByteArrayBatch out;
  while (dec.decode(out, batch) > 0) {
    for (size_t i = 0; i < out.size(); ++i) values.emplace_back(out.value(i));
    out.clear();
  }
  EXPECT_EQ(dec.remaining(), 0u);
  return values;
}

TEST(DeltaByteArray, SpecExample) {
  std::vector<std::string> values = {"axis", "axle", "babble", "babyhood"};
  std::vector<uint8_t> expect = {
      // prefix lengths 0,2,0,3: first 0, deltas 2,-2,3, min -2 -> 4,0,5 at
      // width 3 (bits 100 000 101 LSB first), 12 bytes for 32 values
      0x80, 0x01, 0x04, 0x04, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00, 0x44, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      // suffix lengths 4,2,6,5: first 4, deltas -2,4,-1, min -2 -> 0,6,1
      0x80, 0x01, 0x04, 0x04, 0x08, 0x03, 0x03, 0x00, 0x00, 0x00, 0x70, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  std::string suffixes = "axislebabbleyhood";
  expect.insert(expect.end(), suffixes.begin(), suffixes.end());
  EXPECT_EQ(encode(values), expect);
  EXPECT_EQ(decode(expect), values);
}

std::vector<std::string> sorted_strings(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> v(n);
  for (auto& s : v) {
    s = "prefix/" + std::to_string(rng() % 1000) + "/";
    s.resize(s.size() + rng() % 30, static_cast<char>('a' + rng() % 26));
  }
  std::sort(v.begin(), v.end());
  return v;
}

TEST(DeltaByteArray, RoundTrips) {
  for (size_t n : {0, 1, 7, 8, 9, 127, 128, 129, 1023, 1024, 1025, 5000}) {
    auto values = sorted_strings(n, static_cast<uint32_t>(n));
    auto bytes = encode(values);
    EXPECT_EQ(decode(bytes), values) << n;
    EXPECT_EQ(decode(bytes, 3), values) << n;
    std::shuffle(values.begin(), values.end(), std::mt19937(1));
    EXPECT_EQ(decode(encode(values), 100), values) << n;
  }
  std::vector<std::string> tricky = {
      "",   "", "a", "", std::string(100, 'x'), std::string(100, 'x'), std::string(99, 'x') + "y", std::string(3, '\0'),
      "abc"};
  EXPECT_EQ(decode(encode(tricky)), tricky);
  EXPECT_EQ(decode(encode(tricky), 1), tricky);
}

// Every prefix/suffix split around the vector rebuild's 64-byte register:
// values of 0..150 bytes, each sharing a random part of the one before,
// under every SIMD level.
TEST(DeltaByteArray, PrefixesAcrossTheRegisterWidth) {
  std::mt19937 rng(7);
  std::vector<std::string> values;
  std::string prev;
  for (int i = 0; i < 3000; ++i) {
    std::string v = prev.substr(0, rng() % (prev.size() + 1));
    v.resize(rng() % 151, 'q');
    for (size_t k = v.size() / 2; k < v.size(); ++k) v[k] = static_cast<char>('a' + rng() % 26);
    values.push_back(v);
    prev = v;
  }
  auto bytes = encode(values);
  for (int level = 0; level <= static_cast<int>(detected_simd_level()); ++level) {
    set_simd_level(static_cast<SimdLevel>(level));
    EXPECT_EQ(decode(bytes), values) << level;
    EXPECT_EQ(decode(bytes, 7), values) << level;
  }
  set_simd_level(detected_simd_level());
}

TEST(DeltaByteArray, FixedLength) {
  for (size_t width : {1, 4, 16, 33}) {
    std::mt19937 rng(static_cast<uint32_t>(width));
    size_t n = 2000;
    std::vector<uint8_t> values(n * width);
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<uint8_t>(rng() % 3);
    DeltaByteArrayEncoder enc;
    enc.put(values.data(), n, width);
    Buffer bytes;
    enc.flush(bytes);
    DeltaByteArrayDecoder dec(bytes.data(), bytes.size());
    std::vector<uint8_t> out(n * width);
    size_t done = dec.decode(out.data(), 10, width);
    done += dec.skip(90);
    while (size_t got = dec.decode(out.data() + done * width, 333, width)) done += got;
    ASSERT_EQ(done, n);
    EXPECT_TRUE(std::equal(out.begin(), out.begin() + 10 * static_cast<long>(width), values.begin()));
    EXPECT_TRUE(std::equal(out.begin() + 100 * static_cast<long>(width), out.end(),
                           values.begin() + 100 * static_cast<long>(width)));
    // Read with the wrong width: an error, not a short value.
    DeltaByteArrayDecoder wrong(bytes.data(), bytes.size());
    EXPECT_THROW(wrong.decode(out.data(), n - 1, width + 1), Error);
  }
}

TEST(DeltaByteArray, Skip) {
  auto values = sorted_strings(4000, 7);
  auto bytes = encode(values);
  DeltaByteArrayDecoder dec(bytes.data(), bytes.size());
  size_t pos = 0;
  ByteArrayBatch out;
  for (size_t step = 1; pos < values.size(); step = step * 5 % 1500 + 1) {
    out.clear();
    size_t got = dec.decode(out, step);
    ASSERT_EQ(got, std::min(step, values.size() - pos));
    for (size_t i = 0; i < got; ++i) ASSERT_EQ(out.value(i), values[pos + i]) << pos + i;
    pos += got;
    pos += dec.skip(step / 2);
  }
}

void expect_error(const std::vector<uint8_t>& bytes, const std::string& what, const std::string& message) {
  try {
    DeltaByteArrayDecoder dec(bytes.data(), bytes.size());
    ByteArrayBatch out;
    dec.decode(out, 1000);
    ADD_FAILURE() << "no error for " << what;
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr(message)) << what;
  }
}

TEST(DeltaByteArray, Malformed) {
  // Prefix lengths 0, 5 (the previous value "ab" is 2 long); suffixes "ab", "c".
  std::vector<uint8_t> too_long = {0x80, 0x01, 0x04, 0x02, 0x00, 0x0a, 0, 0, 0,   0,   0x80, 0x01,
                                   0x04, 0x02, 0x04, 0x01, 0,    0,    0, 0, 'a', 'b', 'c'};
  expect_error(too_long, "prefix too long", "prefix length 5");
  // The first value cannot have a prefix.
  std::vector<uint8_t> first = too_long;
  first[4] = 0x02;
  expect_error(first, "first prefix", "previous value is 0");
  // Counts disagree: 2 prefixes, 1 suffix.
  std::vector<uint8_t> counts = {0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 0,   0,  0,
                                 0,    0x80, 0x01, 0x04, 0x01, 0x04, 'a', 'b'};
  expect_error(counts, "count mismatch", "2 prefix lengths but 1 suffixes");
  auto bytes = encode({"axis", "axle", "babble", "babyhood"});
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    auto* copy = new uint8_t[cut];
    std::copy(bytes.begin(), bytes.begin() + static_cast<long>(cut), copy);
    EXPECT_THROW(
        {
          DeltaByteArrayDecoder dec(copy, cut);
          ByteArrayBatch out;
          dec.decode(out, 4);
        },
        Error)
        << cut;
    delete[] copy;
  }
}

TEST(DeltaByteArray, AClaimedPrefixReservesNothing) {
  // Prefix lengths 0 and 1 GiB; the first value is 2 bytes, so the second
  // prefix is a number from the file that no value backs. The decoder must
  // fail on it without first reserving the gigabyte it claims.
  for (size_t valid : {0, 1, 300}) {
    std::vector<int32_t> prefixes(valid + 2, 0);
    prefixes.back() = int32_t{1} << 30;
    DeltaBinaryPackedEncoder<int32_t> prefix_encoder;
    prefix_encoder.put(prefixes.data(), prefixes.size());
    ByteArrayBatch suffixes;
    for (size_t i = 0; i + 1 < prefixes.size(); ++i) suffixes.append("ab");
    suffixes.append("c");
    DeltaLengthByteArrayEncoder suffix_encoder;
    suffix_encoder.put(suffixes);
    Buffer bytes;
    prefix_encoder.flush(bytes);
    suffix_encoder.flush(bytes);
    DeltaByteArrayDecoder dec(bytes.data(), bytes.size());
    ByteArrayBatch out;
    try {
      dec.decode(out, prefixes.size());
      ADD_FAILURE() << "no error for a prefix past the previous value, after " << valid + 1 << " values";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("prefix length 1073741824")) << valid;
    }
    EXPECT_LT(out.data_buffer().capacity(), size_t{1} << 20) << valid;
  }
}

}  // namespace
}  // namespace parq::encoding

namespace parq::encoding {
namespace {

// A negative prefix after long valid values: the valid values are rebuilt
// (and written) before the bad prefix is seen, so the space reserved for the
// batch must not be reduced by the negative number (found by file_read_fuzz;
// ASan shows the overflow without the fix).
TEST(DeltaByteArrayMalformed, NegativePrefixAfterLongValues) {
  Buffer stream;
  DeltaBinaryPackedEncoder<int32_t> prefixes;
  const int32_t p[] = {0, 0, -60};
  prefixes.put(p, 3);
  prefixes.flush(stream);
  DeltaLengthByteArrayEncoder suffixes;
  ByteArrayBatch values;
  values.append(std::string(50, 'a'));
  values.append(std::string(50, 'b'));
  values.append("c");
  suffixes.put(values);
  suffixes.flush(stream);
  for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    set_simd_level(level);
    DeltaByteArrayDecoder decoder(stream.data(), stream.size());
    ByteArrayBatch out;
    EXPECT_THROW(decoder.decode(out, 3), Error);
  }
  set_simd_level(detected_simd_level());
}

}  // namespace
}  // namespace parq::encoding
