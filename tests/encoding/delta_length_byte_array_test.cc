// DELTA_LENGTH_BYTE_ARRAY: the spec's example byte for byte, round trips,
// full batches, skip() and malformed streams.
#include "parq/encoding/delta_length_byte_array.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/util/cpu.h"

namespace parq::encoding {
namespace {

using ::testing::HasSubstr;

ByteArrayBatch batch_of(const std::vector<std::string>& values) {
  ByteArrayBatch b;
  for (const auto& v : values) b.append(v);
  return b;
}

std::vector<uint8_t> encode(const std::vector<std::string>& values) {
  DeltaLengthByteArrayEncoder enc;
  enc.put(batch_of(values));
  Buffer out;
  size_t estimate = enc.estimated_size();
  enc.flush(out);
  EXPECT_LE(out.size(), estimate);
  return {out.data(), out.data() + out.size()};
}

std::vector<std::string> decode(const std::vector<uint8_t>& bytes, size_t batch = 1 << 20) {
  DeltaLengthByteArrayDecoder dec(bytes.data(), bytes.size());
  ByteArrayBatch out;
  while (dec.decode(out, batch) > 0) {
  }
  EXPECT_EQ(dec.remaining(), 0u);
  std::vector<std::string> values;
  for (size_t i = 0; i < out.size(); ++i) values.emplace_back(out.value(i));
  return values;
}

TEST(DeltaLengthByteArray, SpecExample) {
  std::vector<std::string> values = {"Hello", "World", "Foobar", "ABCDEF"};
  // Lengths 5,5,6,6: first 5, deltas 0,1,0, min 0, width 1: bits 0,1,0 -> 0x02.
  std::vector<uint8_t> expect = {0x80, 0x01, 0x04, 0x04, 0x0a, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00};
  std::string data = "HelloWorldFoobarABCDEF";
  expect.insert(expect.end(), data.begin(), data.end());
  EXPECT_EQ(encode(values), expect);
  EXPECT_EQ(decode(expect), values);
}

std::vector<std::string> random_strings(size_t n, uint32_t seed, size_t max_len) {
  std::mt19937 rng(seed);
  std::vector<std::string> v(n);
  for (auto& s : v) {
    s.resize(rng() % (max_len + 1));
    for (auto& c : s) c = static_cast<char>(rng());
  }
  return v;
}

TEST(DeltaLengthByteArray, RoundTrips) {
  for (size_t n : {0, 1, 7, 8, 9, 127, 128, 129, 1023, 1024, 1025, 5000}) {
    auto values = random_strings(n, static_cast<uint32_t>(n), n % 2 ? 40 : 3);
    auto bytes = encode(values);
    EXPECT_EQ(decode(bytes), values) << n;
    EXPECT_EQ(decode(bytes, 7), values) << n;
  }
  std::vector<std::string> empties(300);
  EXPECT_EQ(decode(encode(empties)), empties);
}

TEST(DeltaLengthByteArray, RoundTripMillionAllLevels) {
  auto values = random_strings(1'000'000, 1, 32);
  auto bytes = encode(values);
  for (auto level : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    set_simd_level(level);
    EXPECT_EQ(decode(bytes, 4096), values);
  }
  set_simd_level(detected_simd_level());
}

TEST(DeltaLengthByteArray, Skip) {
  auto values = random_strings(3000, 4, 20);
  auto bytes = encode(values);
  DeltaLengthByteArrayDecoder dec(bytes.data(), bytes.size());
  size_t pos = 0;
  ByteArrayBatch out;
  for (size_t step = 1; pos < values.size(); step = step * 5 % 997 + 1) {
    out.clear();
    size_t got = dec.decode(out, step);
    ASSERT_EQ(got, std::min(step, values.size() - pos));
    for (size_t i = 0; i < got; ++i) ASSERT_EQ(out.value(i), values[pos + i]);
    pos += got;
    pos += dec.skip(step / 2);
  }
  EXPECT_EQ(dec.skip(1), 0u);
}

void expect_error(const std::vector<uint8_t>& bytes, const std::string& what) {
  try {
    DeltaLengthByteArrayDecoder dec(bytes.data(), bytes.size());
    ByteArrayBatch out;
    dec.decode(out, 1000);
    ADD_FAILURE() << "no error for " << what;
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("DELTA_")) << what;
    EXPECT_THAT(e.what(), HasSubstr("byte")) << what;
  }
}

TEST(DeltaLengthByteArray, Malformed) {
  expect_error({}, "empty");
  // Lengths 5, -1: first 5, min delta -6, width 0.
  expect_error({0x80, 0x01, 0x04, 0x02, 0x0a, 0x0b, 0, 0, 0, 0, 'a', 'b', 'c', 'd', 'e'}, "negative length");
  expect_error({0x80, 0x01, 0x04, 0x01, 0x0a, 'a', 'b'}, "length past the data");
  auto bytes = encode({"Hello", "World", "Foobar", "ABCDEF"});
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    auto* copy = new uint8_t[cut];
    std::copy(bytes.begin(), bytes.begin() + static_cast<long>(cut), copy);
    EXPECT_THROW(
        {
          DeltaLengthByteArrayDecoder dec(copy, cut);
          ByteArrayBatch out;
          dec.decode(out, 4);
        },
        Error)
        << cut;
    delete[] copy;
  }
}

}  // namespace
}  // namespace parq::encoding
