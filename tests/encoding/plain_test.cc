// PLAIN: the spec's byte layouts, round trips of every physical type over
// random and adversarial values and sizes, batched and skipping reads, every
// SIMD level against the scalar kernels, and malformed pages.
#include "parq/encoding/plain.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/util/cpu.h"
#include "simd_levels.h"

namespace parq::encoding {
namespace {

using ::testing::HasSubstr;

const size_t kSizes[] = {0, 1, 7, 8, 9, 127, 128, 129, 1000003};

std::vector<uint8_t> bytes_of(const Buffer& b) { return {b.data(), b.data() + b.size()}; }

template <class T>
std::vector<T> make_values(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  std::vector<uint8_t> raw(n * sizeof(T));
  for (auto& b : raw) b = static_cast<uint8_t>(rng());
  if (n != 0) std::memcpy(v.data(), raw.data(), raw.size());
  // Adversarial values at the front.
  std::vector<T> special;
  if constexpr (std::is_floating_point_v<T>) {
    special = {std::numeric_limits<T>::quiet_NaN(),
               -std::numeric_limits<T>::quiet_NaN(),
               T(-0.0),
               T(0.0),
               std::numeric_limits<T>::infinity(),
               -std::numeric_limits<T>::infinity(),
               std::numeric_limits<T>::denorm_min(),
               std::numeric_limits<T>::max()};
  } else if constexpr (std::is_integral_v<T>) {
    special = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), T(-1)};
  }
  for (size_t i = 0; i < special.size() && i < n; ++i) v[i] = special[i];
  return v;
}

template <class T>
class PlainFixedTest : public ::testing::Test {};
using FixedTypes = ::testing::Types<int32_t, int64_t, Int96, float, double>;
TYPED_TEST_SUITE(PlainFixedTest, FixedTypes);

TYPED_TEST(PlainFixedTest, RoundTripAllSizesInBatches) {
  using T = TypeParam;
  for (size_t n : kSizes) {
    auto values = make_values<T>(n, static_cast<uint32_t>(n));
    PlainEncoder<T> enc;
    // Put in two pieces to cover appends.
    enc.put(values.data(), n / 3);
    enc.put(values.data() + n / 3, n - n / 3);
    EXPECT_EQ(enc.estimated_size(), n * sizeof(T));
    Buffer page;
    enc.flush(page);
    ASSERT_EQ(page.size(), n * sizeof(T));
    if (n != 0) {
      EXPECT_EQ(std::memcmp(page.data(), values.data(), page.size()), 0);
    }
    EXPECT_EQ(enc.estimated_size(), 0u);

    std::vector<uint8_t> exact = bytes_of(page);  // exact-size allocation for ASan
    PlainDecoder<T> dec(exact.data(), exact.size(), n);
    std::vector<T> out(n + 1);
    size_t got = 0;
    size_t batch = 1;
    while (got < n) {
      size_t step = dec.decode(out.data() + got, batch);
      ASSERT_GT(step, 0u);
      got += step;
      batch = batch * 3 + 1;
    }
    EXPECT_EQ(dec.decode(out.data(), 5), 0u);
    if (n != 0) {
      EXPECT_EQ(std::memcmp(out.data(), values.data(), n * sizeof(T)), 0);
    }
  }
}

TYPED_TEST(PlainFixedTest, SkipThenDecode) {
  using T = TypeParam;
  auto values = make_values<T>(129, 7);
  PlainDecoder<T> dec(reinterpret_cast<const uint8_t*>(values.data()), values.size() * sizeof(T), 129);
  EXPECT_EQ(dec.skip(9), 9u);
  T one;
  ASSERT_EQ(dec.decode(&one, 1), 1u);
  EXPECT_EQ(std::memcmp(&one, &values[9], sizeof(T)), 0);
  EXPECT_EQ(dec.skip(1000), 119u);
  EXPECT_EQ(dec.decode(&one, 1), 0u);
}

TYPED_TEST(PlainFixedTest, CountLargerThanDataThrows) {
  using T = TypeParam;
  std::vector<uint8_t> page(3 * sizeof(T) - 1);
  PlainDecoder<T> dec;
  EXPECT_THROW(dec.reset(page.data(), page.size(), 3), Error);
  EXPECT_NO_THROW(dec.reset(page.data(), page.size(), 2));
  EXPECT_THROW(dec.reset(page.data(), page.size(), SIZE_MAX), Error);
}

TEST(PlainFixed, SpecLayoutIsLittleEndian) {
  int32_t v32[] = {1, -2};
  PlainEncoder<int32_t> enc;
  enc.put(v32, 2);
  Buffer page;
  enc.flush(page);
  EXPECT_EQ(bytes_of(page), (std::vector<uint8_t>{1, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF}));
  double d = 1.0;
  PlainEncoder<double> denc;
  denc.put(&d, 1);
  Buffer dpage;
  denc.flush(dpage);
  EXPECT_EQ(bytes_of(dpage), (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0xF0, 0x3F}));
  Int96 i96{{1, 2, 3}};
  PlainEncoder<Int96> ienc;
  ienc.put(&i96, 1);
  Buffer ipage;
  ienc.flush(ipage);
  EXPECT_EQ(bytes_of(ipage), (std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}));
}

TEST(PlainFixed, FlushAppendsToNonEmptyBuffer) {
  int64_t v = 42;
  PlainEncoder<int64_t> enc;
  enc.put(&v, 1);
  Buffer out;
  out.append("xy");
  enc.flush(out);
  EXPECT_EQ(out.size(), 10u);
  EXPECT_EQ(out.data()[2], 42);
}

// ---- FIXED_LEN_BYTE_ARRAY ---------------------------------------------------------

TEST(PlainFlba, RoundTripWidthsAndSizes) {
  for (size_t width : {1, 2, 3, 12, 16, 33}) {
    for (size_t n : kSizes) {
      if (n > 1000 && width > 3) continue;
      auto raw = make_values<uint8_t>(n * width, static_cast<uint32_t>(n + width));
      PlainFixedLenByteArrayEncoder enc(width);
      enc.put(raw.data(), n);
      Buffer page;
      enc.flush(page);
      ASSERT_EQ(page.size(), n * width);
      std::vector<uint8_t> exact = bytes_of(page);
      PlainFixedLenByteArrayDecoder dec(width);
      dec.reset(exact.data(), exact.size(), n);
      // One slot more, so that the skipped slot's pointer is valid when n is 0.
      std::vector<uint8_t> out((n + 1) * width);
      size_t first = dec.decode(out.data(), n / 2);
      EXPECT_EQ(dec.skip(1), n - first == 0 ? 0u : 1u);
      size_t rest = dec.decode(out.data() + (first + 1) * width, n);
      EXPECT_EQ(first + rest + (n == 0 ? 0 : 1), n);
      for (size_t i = 0; i < n; ++i) {
        if (i == first) continue;
        ASSERT_EQ(std::memcmp(&out[i * width], &raw[i * width], width), 0) << width << " " << i;
      }
    }
  }
}

TEST(PlainFlba, MalformedThrows) {
  EXPECT_THROW(PlainFixedLenByteArrayDecoder(0), Error);
  std::vector<uint8_t> page(15);
  PlainFixedLenByteArrayDecoder dec(16);
  EXPECT_THROW(dec.reset(page.data(), page.size(), 1), Error);
  try {
    dec.reset(page.data(), page.size(), 1);
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("FIXED_LEN_BYTE_ARRAY"));
    EXPECT_THAT(e.what(), HasSubstr("byte 15"));
  }
}

// ---- BOOLEAN -------------------------------------------------------------------------

TEST(PlainBoolean, SpecLayoutLsbFirst) {
  uint8_t values[] = {1, 0, 1, 1, 0, 0, 0, 0, 1};
  PlainBooleanEncoder enc;
  enc.put(values, 9);
  Buffer page;
  enc.flush(page);
  EXPECT_EQ(bytes_of(page), (std::vector<uint8_t>{0x0D, 0x01}));
}

TEST(PlainBoolean, EveryLevelMatchesScalarAtOddOffsets) {
  std::mt19937 rng(3);
  for (size_t n : kSizes) {
    std::vector<uint8_t> values(n + 1);
    for (auto& v : values) v = (rng() % 3 == 0) ? 0 : static_cast<uint8_t>(rng() % 2 ? 1 : rng());
    std::vector<uint8_t> expect(n);
    for (size_t i = 0; i < n; ++i) expect[i] = values[i + 1] != 0;
    std::vector<uint8_t> reference_page;
    for (SimdLevel level : testing::each_simd_level()) {
      PlainBooleanEncoder enc;
      // Odd split points: the second put starts mid-byte, from an unaligned pointer.
      size_t a = std::min<size_t>(n, 3), b = std::min<size_t>(n, n / 2 + 5);
      enc.put(values.data() + 1, a);
      enc.put(values.data() + 1 + a, b - a);
      enc.put(values.data() + 1 + b, n - b);
      Buffer page;
      enc.flush(page);
      ASSERT_EQ(page.size(), (n + 7) / 8);
      std::vector<uint8_t> exact = bytes_of(page);
      if (level == SimdLevel::kScalar) reference_page = exact;
      EXPECT_EQ(exact, reference_page) << to_string(level) << " n=" << n;

      PlainBooleanDecoder dec(exact.data(), exact.size(), n);
      std::vector<uint8_t> out(n + 1);
      size_t got = dec.decode(out.data() + 1, std::min<size_t>(n, 5));
      got += dec.skip(std::min<size_t>(n - got, 3));
      while (got < n) {
        size_t step = dec.decode(out.data() + 1 + got, 77);
        ASSERT_GT(step, 0u);
        got += step;
      }
      for (size_t i = 0; i < n; ++i) {
        if (i >= std::min<size_t>(n, 5) && i < std::min<size_t>(n, 8)) continue;  // skipped
        ASSERT_EQ(out[i + 1], expect[i]) << to_string(level) << " n=" << n << " i=" << i;
      }
    }
  }
}

TEST(PlainBoolean, DecodesIntoBool) {
  uint8_t page[] = {0xA5};
  PlainBooleanDecoder dec(page, 1, 8);
  bool out[8];
  ASSERT_EQ(dec.decode(out, 8), 8u);
  EXPECT_TRUE(out[0]);
  EXPECT_FALSE(out[1]);
  EXPECT_TRUE(out[7]);
}

TEST(PlainBoolean, CountLargerThanDataThrows) {
  std::vector<uint8_t> page(2);
  PlainBooleanDecoder dec;
  EXPECT_NO_THROW(dec.reset(page.data(), 2, 16));
  EXPECT_THROW(dec.reset(page.data(), 2, 17), Error);
}

// ---- BYTE_ARRAY ---------------------------------------------------------------------

std::vector<std::string> make_strings(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> v(n);
  for (size_t i = 0; i < n; ++i) {
    size_t len = rng() % 4 == 0 ? 0 : rng() % 40;
    if (rng() % 5000 == 0) len = 100000 + rng() % 1000;  // occasional huge value
    v[i].resize(len);
    for (auto& c : v[i]) c = static_cast<char>(rng());
  }
  return v;
}

std::vector<uint8_t> encode_strings(const std::vector<std::string>& values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  PlainByteArrayEncoder enc;
  enc.put(views.data(), views.size());
  Buffer page;
  enc.flush(page);
  return bytes_of(page);
}

TEST(PlainByteArray, SpecLayout) {
  EXPECT_EQ(encode_strings({"ab", "", "c"}), (std::vector<uint8_t>{2, 0, 0, 0, 'a', 'b', 0, 0, 0, 0, 1, 0, 0, 0, 'c'}));
}

TEST(PlainByteArray, RoundTripAllSizesInBatches) {
  for (size_t n : kSizes) {
    auto values = make_strings(n, static_cast<uint32_t>(n));
    std::vector<uint8_t> page = encode_strings(values);
    PlainByteArrayDecoder dec(page.data(), page.size(), n);
    ByteArrayBatch batch;
    size_t got = 0, step_size = 1;
    while (got < n) {
      size_t step = dec.decode(batch, step_size);
      ASSERT_GT(step, 0u);
      got += step;
      step_size = step_size * 2 + 3;
    }
    EXPECT_EQ(dec.decode(batch, 10), 0u);
    ASSERT_EQ(batch.size(), n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(batch.value(i), values[i]) << n << " " << i;
  }
}

// Short values first (the loop that moves 32 bytes a value), then values
// of up to 80 bytes: the first of 33 to 64 bytes moves the decoder to its
// 64-byte loop (with AVX2), longer ones take the checked path; a second
// page keeps the 64-byte loop. At every SIMD level, in batches of every
// size up to 40 values.
TEST(PlainByteArray, ShortThenLongValuesAtEveryLevel) {
  std::mt19937 rng(21);
  std::vector<std::string> first(3000), second(2000);
  for (size_t i = 0; i < first.size(); ++i) {
    first[i].resize(i < 1000 ? rng() % 33 : rng() % 81);
    for (auto& c : first[i]) c = static_cast<char>(rng());
  }
  for (auto& v : second) {
    v.resize(rng() % 4 == 0 ? 3 : rng() % 65);
    for (auto& c : v) c = static_cast<char>(rng());
  }
  const std::vector<uint8_t> first_page = encode_strings(first);
  const std::vector<uint8_t> second_page = encode_strings(second);
  for (SimdLevel level : testing::each_simd_level()) {
    for (size_t batch_size = 1; batch_size <= 40; batch_size += 13) {
      PlainByteArrayDecoder dec;
      for (const auto* values : {&first, &second}) {
        const std::vector<uint8_t>& page = values == &first ? first_page : second_page;
        dec.reset(page.data(), page.size(), values->size());
        ByteArrayBatch batch;
        while (dec.decode(batch, batch_size) != 0) {
        }
        ASSERT_EQ(batch.size(), values->size()) << to_string(level);
        for (size_t i = 0; i < values->size(); ++i)
          ASSERT_EQ(batch.value(i), (*values)[i]) << to_string(level) << " batch " << batch_size << " value " << i;
      }
    }
  }
}

TEST(PlainByteArray, EncoderInputsAgree) {
  auto values = make_strings(1000, 5);
  std::vector<uint8_t> expect = encode_strings(values);
  ByteArrayBatch batch;
  for (auto& v : values) batch.append(v);
  PlainByteArrayEncoder enc;
  enc.put(batch);
  Buffer page;
  enc.flush(page);
  EXPECT_EQ(bytes_of(page), expect);
  // Spans over exact-size copies (ASan checks the 16-byte copies near the end).
  std::vector<int32_t> offsets(batch.offsets(), batch.offsets() + 1001);
  std::vector<uint8_t> data(batch.data(), batch.data() + batch.data_size());
  for (size_t split : {0, 1, 500, 999}) {
    PlainByteArrayEncoder enc2;
    enc2.put(std::span(offsets.data(), split + 1), data);
    enc2.put(std::span(offsets.data() + split, 1001 - split), data);
    Buffer page2;
    enc2.flush(page2);
    EXPECT_EQ(bytes_of(page2), expect);
  }
}

TEST(PlainByteArray, EncoderRejectsBadOffsets) {
  std::vector<uint8_t> data(10);
  PlainByteArrayEncoder enc;
  std::vector<int32_t> decreasing = {0, 5, 3};
  EXPECT_THROW(enc.put(decreasing, data), Error);
  std::vector<int32_t> past = {0, 5, 11};
  EXPECT_THROW(enc.put(past, data), Error);
  std::vector<int32_t> negative = {-1, 5};
  EXPECT_THROW(enc.put(negative, data), Error);
}

TEST(PlainByteArray, SkipAndDecodeStraddle) {
  auto values = make_strings(300, 11);
  std::vector<uint8_t> page = encode_strings(values);
  PlainByteArrayDecoder dec(page.data(), page.size(), 300);
  ByteArrayBatch batch;
  EXPECT_EQ(dec.decode(batch, 10), 10u);
  EXPECT_EQ(dec.skip(129), 129u);
  EXPECT_EQ(dec.decode(batch, 1000), 161u);
  ASSERT_EQ(batch.size(), 171u);
  for (size_t i = 0; i < 10; ++i) EXPECT_EQ(batch.value(i), values[i]);
  for (size_t i = 10; i < 171; ++i) EXPECT_EQ(batch.value(i), values[i + 129]);
  EXPECT_EQ(dec.skip(5), 0u);
}

TEST(PlainByteArray, HugeAndEmptyValues) {
  std::vector<std::string> values = {"", std::string(3 << 20, 'x'), "", "tail"};
  std::vector<uint8_t> page = encode_strings(values);
  PlainByteArrayDecoder dec(page.data(), page.size(), values.size());
  ByteArrayBatch batch;
  ASSERT_EQ(dec.decode(batch, 10), 4u);
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(batch.value(i), values[i]);
}

void expect_decode_error(const std::vector<uint8_t>& page, size_t n, const char* needle) {
  PlainByteArrayDecoder dec;
  try {
    dec.reset(page.data(), page.size(), n);
    ByteArrayBatch batch;
    while (dec.decode(batch, 3) != 0) {
    }
    ADD_FAILURE() << "no error for " << needle;
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr(needle));
    EXPECT_THAT(e.what(), HasSubstr("BYTE_ARRAY"));
  }
  try {
    dec.reset(page.data(), page.size(), n);
    dec.skip(n);
    ADD_FAILURE() << "no skip error for " << needle;
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr(needle));
  }
}

TEST(PlainByteArray, MalformedPagesThrow) {
  // Length past the end, at byte 6 of 12.
  expect_decode_error({2, 0, 0, 0, 'a', 'b', 5, 0, 0, 0, 'c', 'd'}, 2, "at byte 6");
  // Negative length.
  expect_decode_error({0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0}, 2, "past the end");
  // INT32_MAX length.
  expect_decode_error({0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0}, 2, "past the end");
  // Truncated length (the count fits the 4-byte minimum but the values ate the bytes).
  expect_decode_error({4, 0, 0, 0, 1, 2, 3, 4, 9, 9}, 2, "truncated length");
  PlainByteArrayDecoder dec;
  std::vector<uint8_t> seven(7);
  EXPECT_THROW(dec.reset(seven.data(), seven.size(), 2), Error);
}

TEST(PlainByteArray, EveryTruncationThrowsOrStops) {
  auto values = make_strings(200, 13);
  std::vector<uint8_t> page = encode_strings(values);
  for (size_t cut = 0; cut < page.size(); cut += 1 + cut / 50) {
    std::vector<uint8_t> part(page.begin(), page.begin() + cut);
    PlainByteArrayDecoder dec;
    ByteArrayBatch batch;
    bool threw = false;
    try {
      dec.reset(part.data(), part.size(), values.size());
      while (dec.decode(batch, 16) != 0) {
      }
    } catch (const Error&) {
      threw = true;
    }
    EXPECT_TRUE(threw) << cut;
  }
}

}  // namespace
}  // namespace parq::encoding
