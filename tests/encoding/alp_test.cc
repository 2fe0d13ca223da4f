// ALP: the spec's worked example byte for byte, round trips of FLOAT and
// DOUBLE pages of many shapes (decimals, integers, special values as
// exceptions, values without a decimal form, empty pages, partial vectors,
// every vector size), reads and skips at every position, every SIMD kernel
// against the scalar one, and malformed pages, each an error that names
// what is wrong.
#include "parq/encoding/alp.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "parq/encoding/bit_packing.h"
#include "parq/error.h"
#include "parq/util/cpu.h"
#include "simd_levels.h"

namespace parq::encoding {
namespace {

using ::testing::HasSubstr;

std::vector<uint8_t> bytes_of(const Buffer& b) { return {b.data(), b.data() + b.size()}; }

template <class T>
using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;

template <class T>
Bits<T> bits(T v) {
  return std::bit_cast<Bits<T>>(v);
}

template <class T>
Buffer encode(const std::vector<T>& values, int log = kAlpDefaultLogVectorSize) {
  AlpEncoder<T> enc(log);
  enc.put(values.data(), values.size());
  Buffer page;
  enc.flush(page);
  return page;
}

template <class T>
std::vector<T> decode(const uint8_t* data, size_t size, size_t n) {
  AlpDecoder<T> dec;
  dec.reset(data, size, n);
  std::vector<T> out(n);
  EXPECT_EQ(dec.decode(out.data(), n), n);
  EXPECT_EQ(dec.remaining(), 0u);
  return out;
}

template <class T>
void expect_same_bits(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(bits(got[i]), bits(want[i])) << what << " value " << i << ": " << got[i] << " vs " << want[i];
}

template <class T>
void round_trip(const std::vector<T>& values, const std::string& what, int log = kAlpDefaultLogVectorSize) {
  const Buffer page = encode(values, log);
  expect_same_bits(decode<T>(page.data(), page.size(), values.size()), values, what);
}

void put_le(std::vector<uint8_t>& out, uint64_t v, int bytes) {
  for (int b = 0; b < bytes; ++b) out.push_back(static_cast<uint8_t>(v >> (8 * b)));
}

// ---- the spec ---------------------------------------------------------------

// AlpEncoding.md, "Worked Example": four doubles at (e, f) = (4, 3), NaN an
// exception, 31 bytes of vector.
std::vector<uint8_t> worked_example_page() {
  std::vector<uint8_t> page = {0, 0, 10};
  put_le(page, 4, 4);  // num_elements
  put_le(page, 4, 4);  // the one offset: past the offset array
  page.insert(page.end(), {4, 3});
  put_le(page, 1, 2);     // one exception
  put_le(page, 3335, 8);  // frame of reference
  page.push_back(15);     // bit width
  const uint64_t deltas[4] = {11665, 11665, 21665, 0};
  uint8_t packed[8] = {};
  pack_bits(deltas, 4, 15, packed);
  page.insert(page.end(), packed, packed + 8);
  put_le(page, 1, 2);  // position
  put_le(page, std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN()), 8);
  return page;
}

TEST(Alp, SpecWorkedExampleDecodes) {
  const std::vector<uint8_t> page = worked_example_page();
  EXPECT_EQ(page.size(), kAlpHeaderSize + 4 + 31u);
  for (SimdLevel level : testing::each_simd_level()) {
    const std::vector<double> out = decode<double>(page.data(), page.size(), 4);
    EXPECT_EQ(out[0], 1500.0) << to_string(level);
    EXPECT_TRUE(std::isnan(out[1])) << to_string(level);
    EXPECT_EQ(bits(out[1]), bits(std::numeric_limits<double>::quiet_NaN())) << to_string(level);
    EXPECT_EQ(out[2], 2500.0) << to_string(level);
    EXPECT_EQ(out[3], 333.5) << to_string(level);
  }
}

TEST(Alp, EncoderWritesTheSpecLayout) {
  const std::vector<double> values = {1.25, 2.5, 3.75, -1.0, 1e300};
  const Buffer page = encode(values, 3);
  const std::vector<uint8_t> b = bytes_of(page);
  ASSERT_GE(b.size(), kAlpHeaderSize + 4 + 13);
  EXPECT_EQ(b[0], 0);  // ALP
  EXPECT_EQ(b[1], 0);  // FOR + bit-packing
  EXPECT_EQ(b[2], 3);
  EXPECT_EQ(b[3] | b[4] << 8 | b[5] << 16 | b[6] << 24, 5);
  EXPECT_EQ(b[7] | b[8] << 8 | b[9] << 16 | b[10] << 24, 4);  // one vector: past the offsets
  const uint8_t* v = b.data() + 11;
  const int e = v[0], f = v[1];
  EXPECT_LE(f, e);
  EXPECT_EQ(v[2] | v[3] << 8, 1);  // 1e300 has no small decimal form
  const int width = v[12];
  // Values * 10^(e - f) are integers from -100 (or less) up: the FOR is the
  // smallest, -1.0's.
  int64_t reference;
  std::memcpy(&reference, v + 4, 8);
  EXPECT_EQ(static_cast<double>(reference) * detail::kAlpPow10[f] * detail::kAlpNegPow10[e], -1.0);
  const size_t size = 13 + packed_size(5, width) + 2 + 8;
  ASSERT_EQ(b.size(), 11 + size);
  EXPECT_EQ(v[size - 10] | v[size - 9] << 8, 4);  // the exception's position
  double exception;
  std::memcpy(&exception, v + size - 8, 8);
  EXPECT_EQ(exception, 1e300);
}

TEST(Alp, ConstantsAreTheDecimalLiterals) {
  // Spot checks against values whose binary64 expansions are known.
  EXPECT_EQ(detail::kAlpNegPow10[1], 0.1);
  EXPECT_EQ(bits(detail::kAlpNegPow10[1]), 0x3FB999999999999AULL);
  EXPECT_EQ(bits(detail::kAlpNegPow10[18]), bits(1e-18));
  EXPECT_EQ(detail::kAlpPow10[18], 1000000000000000000.0);
  EXPECT_EQ(bits(detail::kAlpNegPow10Float[1]), 0x3DCCCCCDu);
  EXPECT_EQ(detail::kAlpPow10Float[10], 10000000000.0f);
}

// ---- round trips ----------------------------------------------------------------

template <class T>
class AlpTyped : public ::testing::Test {};
using Types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(AlpTyped, Types);

template <class T>
std::vector<T> decimals(size_t n, int digits, double scale, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  const double p = std::pow(10.0, digits);
  for (auto& x : v) x = static_cast<T>(std::round((static_cast<double>(rng() % 2000001) - 1000000) * scale) / p);
  return v;
}

template <class T>
std::vector<T> specials() {
  const T inf = std::numeric_limits<T>::infinity();
  return {T(0),
          T(-0.0),
          std::numeric_limits<T>::quiet_NaN(),
          -std::numeric_limits<T>::quiet_NaN(),
          std::bit_cast<T>(static_cast<Bits<T>>(std::bit_cast<Bits<T>>(std::numeric_limits<T>::quiet_NaN()) | 5)),
          inf,
          -inf,
          std::numeric_limits<T>::denorm_min(),
          -std::numeric_limits<T>::denorm_min(),
          std::numeric_limits<T>::min(),
          std::numeric_limits<T>::max(),
          std::numeric_limits<T>::lowest(),
          std::numeric_limits<T>::epsilon(),
          T(1.5),
          T(2.25)};
}

TYPED_TEST(AlpTyped, RoundTripsManyShapes) {
  using T = TypeParam;
  const size_t sizes[] = {0, 1, 7, 8, 9, 1023, 1024, 1025, 3000};
  for (size_t n : sizes) {
    const std::string at = " n=" + std::to_string(n);
    round_trip(decimals<T>(n, 2, 1.0, 1), "prices" + at);
    round_trip(decimals<T>(n, 1, 0.001, 2), "small" + at);
    round_trip(decimals<T>(n, 0, 1.0, 3), "integers" + at);
    round_trip(decimals<T>(n, 6, 1.0, 4), "six decimals" + at);
    std::vector<T> same(n, T(42.125));
    round_trip(same, "constant" + at);
    std::mt19937_64 rng(n);
    std::vector<T> random(n);
    for (auto& x : random) x = std::bit_cast<T>(static_cast<Bits<T>>(rng()));  // NaNs and all
    round_trip(random, "random bits" + at);
    std::vector<T> mixed = decimals<T>(n, 2, 1.0, 5);
    const std::vector<T> sp = specials<T>();
    for (size_t i = 0; i < n; i += 13) mixed[i] = sp[i % sp.size()];
    round_trip(mixed, "decimals with specials" + at);
  }
  round_trip(specials<T>(), "specials alone");
}

TYPED_TEST(AlpTyped, EveryVectorSize) {
  using T = TypeParam;
  const std::vector<T> values = decimals<T>(5000, 3, 1.0, 7);
  for (int log = 3; log <= 15; ++log) round_trip(values, "log " + std::to_string(log), log);
  EXPECT_THROW(AlpEncoder<T>(2), Error);
  EXPECT_THROW(AlpEncoder<T>(16), Error);
}

TYPED_TEST(AlpTyped, ExtremeIntegersAndWideRanges) {
  using T = TypeParam;
  using Int = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  // Integers at the edges of the integer type make bit widths up to the
  // full width (and frame-of-reference sums that wrap).
  const T top = static_cast<T>(std::numeric_limits<Int>::max() / 2);
  std::vector<T> v = {-top, top, T(0), T(1), -T(1), static_cast<T>(std::numeric_limits<Int>::min())};
  for (int i = 0; i < 100; ++i) v.push_back(static_cast<T>(i % 2 ? top - T(i * 1024) : -top + T(i * 4096)));
  round_trip(v, "wide");
  // Doubles past 2^51 push the SIMD kernels back to scalar.
  std::vector<T> big;
  for (int i = 0; i < 200; ++i) big.push_back(static_cast<T>(std::ldexp(1.0, sizeof(T) == 8 ? 60 : 29) + i * 4096.0));
  round_trip(big, "past 2^51");
}

TYPED_TEST(AlpTyped, DecimalDataIsSmall) {
  using T = TypeParam;
  // Prices up to 10000.00 (100.00 for FLOAT, whose 24 bits hold fewer
  // digits): about 20 bits a value plus the vector headers.
  const std::vector<T> prices = decimals<T>(100000, 2, sizeof(T) == 4 ? 0.01 : 1.0, 9);
  const Buffer page = encode(prices);
  EXPECT_LT(page.size(), prices.size() * 3) << "bytes per value " << double(page.size()) / prices.size();
  // Without a decimal form every value is an exception, but the page costs
  // no more than the exceptions and the vector headers.
  std::mt19937_64 rng(3);
  std::vector<T> random(10000);
  for (auto& x : random) x = static_cast<T>(std::uniform_real_distribution<double>(0, 1)(rng));
  const Buffer rpage = encode(random);
  EXPECT_LE(rpage.size(), random.size() * (sizeof(T) + 2) + 100 * 20);
  expect_same_bits(decode<T>(rpage.data(), rpage.size(), random.size()), random, "random");
}

TYPED_TEST(AlpTyped, EstimatedSizeTracksThePage) {
  using T = TypeParam;
  AlpEncoder<T> enc;
  const std::vector<T> values = decimals<T>(10 * 1024, 2, 1.0, 11);
  enc.put(values.data(), values.size());
  const size_t estimate = enc.estimated_size();
  Buffer page;
  enc.flush(page);
  EXPECT_EQ(estimate, page.size());
  EXPECT_EQ(enc.estimated_size(), kAlpHeaderSize);  // empty again
  // Values put in small pieces encode the same way.
  AlpEncoder<T> pieces;
  for (size_t i = 0; i < values.size(); i += 37) pieces.put(values.data() + i, std::min<size_t>(37, values.size() - i));
  Buffer page2;
  pieces.flush(page2);
  EXPECT_EQ(bytes_of(page2), bytes_of(page));
  // A second page from the same encoder stands alone.
  enc.put(values.data(), 100);
  Buffer page3;
  enc.flush(page3);
  expect_same_bits(decode<T>(page3.data(), page3.size(), 100), std::vector<T>(values.begin(), values.begin() + 100),
                   "second page");
}

TYPED_TEST(AlpTyped, EmptyPage) {
  using T = TypeParam;
  const Buffer page = encode(std::vector<T>{});
  EXPECT_EQ(page.size(), kAlpHeaderSize);
  AlpDecoder<T> dec;
  dec.reset(page.data(), page.size(), 0);
  T out[1];
  EXPECT_EQ(dec.decode(out, 1), 0u);
  EXPECT_EQ(dec.skip(5), 0u);
  EXPECT_EQ(dec.remaining(), 0u);
}

// ---- reads and skips ----------------------------------------------------------------

TYPED_TEST(AlpTyped, SkipAtEveryPosition) {
  using T = TypeParam;
  std::vector<T> values = decimals<T>(300, 2, 1.0, 13);
  for (size_t i = 5; i < values.size(); i += 17) values[i] = std::numeric_limits<T>::infinity();
  const Buffer page = encode(values, 5);  // vectors of 32
  for (size_t k = 0; k <= values.size(); ++k) {
    AlpDecoder<T> dec;
    dec.reset(page.data(), page.size(), values.size());
    ASSERT_EQ(dec.skip(k), k);
    std::vector<T> rest(values.size() - k);
    ASSERT_EQ(dec.decode(rest.data(), rest.size() + 3), rest.size()) << k;
    expect_same_bits(rest, std::vector<T>(values.begin() + k, values.end()), "skip " + std::to_string(k));
  }
  // Reads and skips of every length, interleaved.
  for (size_t step = 1; step <= 70; ++step) {
    AlpDecoder<T> dec;
    dec.reset(page.data(), page.size(), values.size());
    size_t at = 0;
    bool read = true;
    while (dec.remaining() != 0) {
      const size_t n = std::min(step + (at % 3), dec.remaining());
      if (read) {
        std::vector<T> got(n);
        ASSERT_EQ(dec.decode(got.data(), n), n);
        expect_same_bits(got, std::vector<T>(values.begin() + at, values.begin() + at + n),
                         "step " + std::to_string(step) + " at " + std::to_string(at));
      } else {
        ASSERT_EQ(dec.skip(n), n);
      }
      at += n;
      read = !read;
    }
    EXPECT_EQ(at, values.size());
  }
}

TYPED_TEST(AlpTyped, FewerValuesThanThePageHolds) {
  using T = TypeParam;
  const std::vector<T> values = decimals<T>(100, 2, 1.0, 17);
  const Buffer page = encode(values, 4);
  const std::vector<T> got = decode<T>(page.data(), page.size(), 60);
  expect_same_bits(got, std::vector<T>(values.begin(), values.begin() + 60), "prefix");
  AlpDecoder<T> dec;
  try {
    dec.reset(page.data(), page.size(), 101);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("the page holds 100 values where 101 are wanted"));
  }
}

// ---- SIMD levels ----------------------------------------------------------------

TYPED_TEST(AlpTyped, EverySimdLevelMatchesScalar) {
  using T = TypeParam;
  std::vector<std::vector<T>> inputs = {decimals<T>(5003, 2, 1.0, 19), decimals<T>(4099, 5, 1.0, 23)};
  std::vector<T> with_specials = decimals<T>(3001, 1, 1.0, 29);
  for (size_t i = 0; i < with_specials.size(); i += 7) with_specials[i] = specials<T>()[i % 15];
  inputs.push_back(with_specials);
  std::vector<T> big;
  for (int i = 0; i < 2000; ++i) big.push_back(static_cast<T>(std::ldexp(1.0, sizeof(T) == 8 ? 55 : 28) - i * 1e3));
  inputs.push_back(big);
  for (const auto& values : inputs) {
    const Buffer page = encode(values);
    set_simd_level(SimdLevel::kScalar);
    const std::vector<T> scalar = decode<T>(page.data(), page.size(), values.size());
    set_simd_level(detected_simd_level());
    expect_same_bits(scalar, values, "scalar");
    for (SimdLevel level : testing::each_simd_level())
      expect_same_bits(decode<T>(page.data(), page.size(), values.size()), scalar, to_string(level));
  }
}

// The kernels alone, on deltas and bases the encoder would not make: sums
// that wrap, every exponent and factor, counts that leave every tail.
TEST(Alp, KernelsMatchScalar) {
  std::mt19937_64 rng(31);
  for (size_t n : {0, 1, 3, 7, 15, 16, 17, 31, 33, 100, 1024}) {
    for (int round = 0; round < 20; ++round) {
      const int width = static_cast<int>(rng() % 65);
      const uint64_t max_delta = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
      std::vector<uint32_t> d32(n);
      std::vector<uint64_t> d64(n);
      for (size_t i = 0; i < n; ++i) {
        d64[i] = rng() & max_delta;
        d32[i] = static_cast<uint32_t>(d64[i]);
      }
      const uint64_t base =
          round % 3 == 0 ? rng() : (round % 3 == 1 ? rng() % 1000000 : -(rng() % (uint64_t{1} << 50)));
      const int e = static_cast<int>(rng() % 19), f = static_cast<int>(rng() % (e + 1));
      const int ef = e % 11, ff = f % (ef + 1);
      std::vector<float> fs(n), fk(n);
      std::vector<double> d32s(n), d32k(n), d64s(n), d64k(n);
      detail::alp_float_scalar(d32.data(), n, static_cast<uint32_t>(base), detail::kAlpPow10Float[ff],
                               detail::kAlpNegPow10Float[ef], fs.data());
      const uint64_t max32 = std::min<uint64_t>(max_delta, UINT32_MAX);
      detail::alp_double32_scalar(d32.data(), n, base, max32, detail::kAlpPow10[f], detail::kAlpNegPow10[e],
                                  d32s.data());
      detail::alp_double64_scalar(d64.data(), n, base, max_delta, detail::kAlpPow10[f], detail::kAlpNegPow10[e],
                                  d64s.data());
      for (SimdLevel level : testing::simd_levels()) {
        const std::string what = std::string(to_string(level)) + " n=" + std::to_string(n);
        detail::alp_float_kernel(level)(d32.data(), n, static_cast<uint32_t>(base), detail::kAlpPow10Float[ff],
                                        detail::kAlpNegPow10Float[ef], fk.data());
        expect_same_bits(fk, fs, "float " + what);
        const bool fits32 = detail::alp_double32_kernel(level)(d32.data(), n, base, max32, detail::kAlpPow10[f],
                                                               detail::kAlpNegPow10[e], d32k.data());
        EXPECT_TRUE(fits32 || level != SimdLevel::kScalar);
        EXPECT_EQ(fits32 || detail::alp_fits_magic(base, max32), fits32);
        if (fits32) expect_same_bits(d32k, d32s, "double32 " + what);
        const bool fits64 = detail::alp_double64_kernel(level)(d64.data(), n, base, max_delta, detail::kAlpPow10[f],
                                                               detail::kAlpNegPow10[e], d64k.data());
        EXPECT_TRUE(fits64 || level != SimdLevel::kScalar);
        if (fits64) expect_same_bits(d64k, d64s, "double64 " + what);
      }
    }
  }
}

TEST(Alp, FitsMagicBounds) {
  const uint64_t limit = uint64_t{1} << 51;
  EXPECT_TRUE(detail::alp_fits_magic(0, limit));
  EXPECT_FALSE(detail::alp_fits_magic(0, limit + 1));
  EXPECT_TRUE(detail::alp_fits_magic(-limit, 2 * limit));
  EXPECT_FALSE(detail::alp_fits_magic(-limit, 2 * limit + 1));
  EXPECT_FALSE(detail::alp_fits_magic(-limit - 1, 0));
  EXPECT_FALSE(detail::alp_fits_magic(limit + 1, 0));
  EXPECT_FALSE(detail::alp_fits_magic(5, ~uint64_t{0}));
}

// ---- malformed pages ----------------------------------------------------------------

template <class T>
std::string error_of(const std::vector<uint8_t>& page, size_t n) {
  try {
    AlpDecoder<T> dec;
    dec.reset(page.data(), page.size(), n);
    std::vector<T> out(n);
    dec.decode(out.data(), n);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Alp, MalformedPagesAreErrors) {
  const std::vector<uint8_t> good = worked_example_page();
  ASSERT_EQ(error_of<double>(good, 4), "no error");
  auto with = [&](size_t at, uint8_t byte) {
    std::vector<uint8_t> p = good;
    p[at] = byte;
    return p;
  };
  EXPECT_THAT(error_of<double>({0, 0, 10}, 0), HasSubstr("shorter than the 7-byte header"));
  EXPECT_THAT(error_of<double>(with(0, 1), 4), HasSubstr("compression mode 1"));
  EXPECT_THAT(error_of<double>(with(1, 2), 4), HasSubstr("integer encoding 2"));
  EXPECT_THAT(error_of<double>(with(2, 2), 4), HasSubstr("vector size 2 (at byte 2) is not in [3, 15]"));
  EXPECT_THAT(error_of<double>(with(2, 16), 4), HasSubstr("is not in [3, 15]"));
  EXPECT_THAT(error_of<double>(with(6, 0x80), 4), HasSubstr("negative value count"));
  // A count that would need more offsets than the page has bytes.
  EXPECT_THAT(error_of<double>(with(6, 0x7f), 4), HasSubstr("bytes of offsets"));
  EXPECT_THAT(error_of<double>(with(3, 3), 4), HasSubstr("the page holds 3 values where 4 are wanted"));
  EXPECT_THAT(error_of<double>(with(7, 8), 4), HasSubstr("the first vector's offset 8"));
  EXPECT_THAT(error_of<double>(with(11, 19), 4), HasSubstr("exponent 19 is above 18 for DOUBLE"));
  EXPECT_THAT(error_of<double>(with(12, 5), 4), HasSubstr("factor 5 is above the exponent 4"));
  EXPECT_THAT(error_of<double>(with(13, 5), 4), HasSubstr("5 exceptions in a vector of 4 values"));
  EXPECT_THAT(error_of<double>(with(23, 65), 4), HasSubstr("bit width 65 is above 64"));
  EXPECT_THAT(error_of<double>(with(23, 17), 4), HasSubstr("needs 32 bytes where 31 remain"));
  EXPECT_THAT(error_of<double>(with(32, 4), 4), HasSubstr("exception position 4 is outside the vector's 4 values"));
  // Every truncation of the page is an error.
  for (size_t cut = 0; cut < good.size(); ++cut)
    EXPECT_NE(error_of<double>(std::vector<uint8_t>(good.begin(), good.begin() + cut), 4), "no error") << cut;
  // FLOAT's exponents stop at 10; its bit widths at 32.
  std::vector<float> fv = {1.5f, 2.5f};
  const Buffer fpage = encode(fv, 3);
  std::vector<uint8_t> fbad = bytes_of(fpage);
  fbad[11] = 11;
  fbad[12] = 0;
  EXPECT_THAT(error_of<float>(fbad, 2), HasSubstr("exponent 11 is above 10 for FLOAT"));
  fbad = bytes_of(fpage);
  fbad[19] = 33;
  EXPECT_THAT(error_of<float>(fbad, 2), HasSubstr("bit width 33 is above 32"));
}

TEST(Alp, OffsetsOfLaterVectorsAreChecked) {
  std::vector<double> values = decimals<double>(40, 2, 1.0, 37);
  const Buffer page = encode(values, 3);  // five vectors of 8
  const std::vector<uint8_t> good = bytes_of(page);
  ASSERT_EQ(error_of<double>(good, 40), "no error");
  auto offset_at = [&](std::vector<uint8_t> p, size_t v, uint32_t value) {
    std::memcpy(p.data() + kAlpHeaderSize + 4 * v, &value, 4);
    return p;
  };
  EXPECT_THAT(error_of<double>(offset_at(good, 3, 1u << 30), 40), HasSubstr("past the page's"));
  {
    const std::vector<uint8_t> p = offset_at(good, 4, 1u << 30);
    AlpDecoder<double> dec;
    dec.reset(p.data(), p.size(), 40);
    EXPECT_EQ(dec.skip(32), 32u);
    double out[8];
    try {
      dec.decode(out, 8);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("offset 1073741824 lies outside the vectors' bytes"));
    }
  }
  EXPECT_THAT(error_of<double>(offset_at(good, 2, 0), 40), HasSubstr("before this vector's"));
  // A vector that would run into the next one.
  uint32_t third;
  std::memcpy(&third, good.data() + kAlpHeaderSize + 8, 4);
  EXPECT_THAT(error_of<double>(offset_at(good, 2, third - 1), 40), HasSubstr("remain"));
  // Skipping past a bad vector never reads it.
  std::vector<uint8_t> bad_first_vector = good;
  bad_first_vector[kAlpHeaderSize + 20] = 200;  // vector 0's exponent
  AlpDecoder<double> dec;
  dec.reset(bad_first_vector.data(), bad_first_vector.size(), 40);
  EXPECT_EQ(dec.skip(8), 8u);
  std::vector<double> out(32);
  EXPECT_EQ(dec.decode(out.data(), 32), 32u);
  expect_same_bits(out, std::vector<double>(values.begin() + 8, values.end()), "after the bad vector");
}

// Random damage never crashes: an error, or values.
TEST(Alp, RandomDamageIsAnErrorOrValues) {
  std::mt19937_64 rng(41);
  const std::vector<double> values = decimals<double>(500, 3, 1.0, 43);
  const std::vector<uint8_t> good = bytes_of(encode(values, 6));
  size_t errors = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<uint8_t> p = good;
    for (int k = 0; k < 1 + round % 4; ++k) p[rng() % p.size()] = static_cast<uint8_t>(rng());
    if (round % 5 == 0) p.resize(rng() % p.size());
    if (error_of<double>(p, std::min<size_t>(500, rng() % 600)) != "no error") ++errors;
  }
  EXPECT_GT(errors, 0u);
}

}  // namespace
}  // namespace parq::encoding
