// ALP decoder and encoder and the portable decode kernels; see
// encoding/alp.h. The AVX2 and AVX-512 kernels are in alp_avx2.cc and
// alp_avx512.cc.
//
// The encoder picks (exponent, factor) as the paper does, in two levels: a
// preset of the few best pairs over a sample of the values, refreshed every
// kPresetVectors vectors, and per vector the best of the preset over a
// smaller sample. Best means the fewest bytes: packed bits plus exceptions.
#include "parq/encoding/alp.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "parq/encoding/bit_packing.h"
#include "parq/error.h"

namespace parq::encoding {

namespace detail {

// Decimal literals, which the compiler rounds correctly (not pow()).
const double kAlpPow10[19] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8, 1e9,
                              1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
const double kAlpNegPow10[19] = {1e0,   1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,  1e-7,  1e-8, 1e-9,
                                 1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18};
const float kAlpPow10Float[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
const float kAlpNegPow10Float[11] = {1e0f, 1e-1f, 1e-2f, 1e-3f, 1e-4f, 1e-5f, 1e-6f, 1e-7f, 1e-8f, 1e-9f, 1e-10f};

void alp_float_scalar(const uint32_t* deltas, size_t n, uint32_t base, float mul_factor, float mul_exponent,
                      float* out) {
  for (size_t i = 0; i < n; ++i)
    out[i] = static_cast<float>(static_cast<int32_t>(deltas[i] + base)) * mul_factor * mul_exponent;
}

bool alp_double32_scalar(const uint32_t* deltas, size_t n, uint64_t base, uint64_t, double mul_factor,
                         double mul_exponent, double* out) {
  for (size_t i = 0; i < n; ++i)
    out[i] = static_cast<double>(static_cast<int64_t>(deltas[i] + base)) * mul_factor * mul_exponent;
  return true;
}

bool alp_double64_scalar(const uint64_t* deltas, size_t n, uint64_t base, uint64_t, double mul_factor,
                         double mul_exponent, double* out) {
  for (size_t i = 0; i < n; ++i)
    out[i] = static_cast<double>(static_cast<int64_t>(deltas[i] + base)) * mul_factor * mul_exponent;
  return true;
}

AlpFloatKernel alp_float_kernel(SimdLevel level) {
  switch (level) {
    case SimdLevel::kAvx512:
      return &alp_float_avx512;
    case SimdLevel::kAvx2:
      return &alp_float_avx2;
    case SimdLevel::kScalar:
      break;
  }
  return &alp_float_scalar;
}

AlpDouble32Kernel alp_double32_kernel(SimdLevel level) {
  switch (level) {
    case SimdLevel::kAvx512:
      return &alp_double32_avx512;
    case SimdLevel::kAvx2:
      return &alp_double32_avx2;
    case SimdLevel::kScalar:
      break;
  }
  return &alp_double32_scalar;
}

AlpDouble64Kernel alp_double64_kernel(SimdLevel level) {
  switch (level) {
    case SimdLevel::kAvx512:
      return &alp_double64_avx512;
    case SimdLevel::kAvx2:
      return &alp_double64_avx2;
    case SimdLevel::kScalar:
      break;
  }
  return &alp_double64_scalar;
}

}  // namespace detail

namespace {

template <class T>
struct Traits;

template <>
struct Traits<float> {
  using Int = int32_t;
  using UInt = uint32_t;
  static constexpr int kMaxExponent = 10;
  static constexpr size_t kForSize = 5;
  static constexpr const char* kName = "FLOAT";
  // The integers' range as floats: [-2^31, 2^31).
  static constexpr float kLow = -2147483648.0f;
  static constexpr float kHigh = 2147483648.0f;
  static constexpr float kMagic = 8388608.0f;  // 2^23
  static float pow10(int k) { return detail::kAlpPow10Float[k]; }
  static float neg_pow10(int k) { return detail::kAlpNegPow10Float[k]; }
};

template <>
struct Traits<double> {
  using Int = int64_t;
  using UInt = uint64_t;
  static constexpr int kMaxExponent = 18;
  static constexpr size_t kForSize = 9;
  static constexpr const char* kName = "DOUBLE";
  static constexpr double kLow = -9223372036854775808.0;
  static constexpr double kHigh = 9223372036854775808.0;
  static constexpr double kMagic = 4503599627370496.0;  // 2^52
  static double pow10(int k) { return detail::kAlpPow10[k]; }
  static double neg_pow10(int k) { return detail::kAlpNegPow10[k]; }
};

constexpr size_t kAlpInfoSize = 4;

uint16_t load16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
uint32_t load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

[[noreturn]] void fail(const std::string& what) { throw Error("ALP: " + what); }

std::string str(size_t v) { return std::to_string(v); }

// ---- encoding one value ------------------------------------------------------

// Rounds to the nearest integer, ties to even; magnitudes from the magic
// number up are integers already (and adding it would round them).
template <class T>
inline T fast_round(T x) {
  constexpr T m = Traits<T>::kMagic;
  if (!(std::abs(x) < m)) return x;
  return x >= 0 ? (x + m) - m : (x - m) + m;
}

template <class T>
inline bool same_bits(T a, T b) {
  using U = typename Traits<T>::UInt;
  return std::bit_cast<U>(a) == std::bit_cast<U>(b);
}

// The integer v is stored as under (e, f), or false when v would be an
// exception: not finite, out of range, or not decoding to v bit for bit.
template <class T>
inline bool encode_value(T v, T mul_e, T mul_neg_f, T mul_f, T mul_neg_e, typename Traits<T>::Int& out) {
  using Tr = Traits<T>;
  const T scaled = fast_round(v * mul_e * mul_neg_f);
  if (!(scaled >= Tr::kLow && scaled < Tr::kHigh)) return false;  // NaN fails too
  const auto k = static_cast<typename Tr::Int>(scaled);
  out = k;
  return same_bits(static_cast<T>(k) * mul_f * mul_neg_e, v);
}

// Bytes a vector of n values takes at this bit width and exception count.
template <class T>
size_t vector_bytes(size_t n, int bit_width, size_t exceptions) {
  return kAlpInfoSize + Traits<T>::kForSize + packed_size(n, bit_width) + exceptions * (2 + sizeof(T));
}

// Estimated bytes of `values` under (e, f), over a sample of every
// `stride`-th value.
template <class T>
size_t sample_cost(const T* values, size_t n, size_t stride, int e, int f) {
  using Tr = Traits<T>;
  const T mul_e = Tr::pow10(e), mul_neg_f = Tr::neg_pow10(f), mul_f = Tr::pow10(f), mul_neg_e = Tr::neg_pow10(e);
  typename Tr::Int lo = std::numeric_limits<typename Tr::Int>::max(), hi = std::numeric_limits<typename Tr::Int>::min();
  size_t exceptions = 0, count = 0;
  for (size_t i = 0; i < n; i += stride, ++count) {
    typename Tr::Int k;
    if (encode_value(values[i], mul_e, mul_neg_f, mul_f, mul_neg_e, k)) {
      lo = std::min(lo, k);
      hi = std::max(hi, k);
    } else {
      ++exceptions;
    }
  }
  int width = 0;
  if (exceptions < count)
    width = std::bit_width(
        static_cast<typename Tr::UInt>(static_cast<typename Tr::UInt>(hi) - static_cast<typename Tr::UInt>(lo)));
  return count * static_cast<size_t>(width) + exceptions * (2 + sizeof(T)) * 8;
}

}  // namespace

// ---- decoder -------------------------------------------------------------------

template <class T>
void AlpDecoder<T>::reset(const uint8_t* data, size_t size, size_t num_values) {
  data_ = nullptr;
  size_ = num_values_ = num_elements_ = num_vectors_ = index_ = 0;
  buffered_ = SIZE_MAX;
  if (size < kAlpHeaderSize)
    fail("a page of " + str(size) + " bytes is shorter than the " + str(kAlpHeaderSize) + "-byte header");
  if (data[0] != 0) fail("compression mode " + str(data[0]) + " (at byte 0) is not 0 (ALP)");
  if (data[1] != 0) fail("integer encoding " + str(data[1]) + " (at byte 1) is not 0 (FOR + bit-packing)");
  if (data[2] < 3 || data[2] > 15) fail("log2 of the vector size " + str(data[2]) + " (at byte 2) is not in [3, 15]");
  const auto elements = static_cast<int32_t>(load32(data + 3));
  if (elements < 0) fail("negative value count " + std::to_string(elements) + " (at byte 3)");
  const auto num_elements = static_cast<size_t>(elements);
  const int log = data[2];
  const size_t vector_size = size_t{1} << log;
  const size_t num_vectors = (num_elements + vector_size - 1) / vector_size;
  if (num_vectors > (size - kAlpHeaderSize) / 4)
    fail(str(num_elements) + " values in " + str(num_vectors) + " vectors need " + str(num_vectors * 4) +
         " bytes of offsets, more than the " + str(size - kAlpHeaderSize) + " bytes after the header");
  if (num_values > num_elements)
    fail("the page holds " + str(num_elements) + " values where " + str(num_values) + " are wanted");
  data_ = data;
  size_ = size;
  num_values_ = num_values;
  num_elements_ = num_elements;
  log_vector_size_ = log;
  num_vectors_ = num_vectors;
  // At most one vector, and no more than the page holds: the offsets
  // checked above bound num_elements by the page's size.
  const size_t scratch = std::min(vector_size, num_elements);
  if (buffer_.size() < scratch) buffer_.resize(scratch);
  if (deltas32_.size() < scratch) deltas32_.resize(scratch);
  if (std::is_same_v<T, double> && deltas64_.size() < scratch) deltas64_.resize(scratch);
}

template <class T>
size_t AlpDecoder<T>::vector_length(size_t v) const {
  return std::min(size_t{1} << log_vector_size_, num_elements_ - (v << log_vector_size_));
}

template <class T>
void AlpDecoder<T>::decode_vector(size_t v, T* out) {
  using Tr = Traits<T>;
  const uint8_t* base = data_ + kAlpHeaderSize;  // offsets count from here
  const size_t avail = size_ - kAlpHeaderSize;
  const size_t first = num_vectors_ * 4;
  const size_t offset = load32(base + 4 * v);
  const auto at = [&](size_t pos) { return " (vector " + str(v) + ", at byte " + str(kAlpHeaderSize + pos) + ")"; };
  if (v == 0 && offset != first)
    fail("the first vector's offset " + str(offset) + " is not the offsets' size " + str(first) + at(0));
  if (offset < first || offset > avail)
    fail("offset " + str(offset) + " lies outside the vectors' bytes [" + str(first) + ", " + str(avail) + "]" +
         at(4 * v));
  size_t limit = avail;
  if (v + 1 < num_vectors_) {
    const size_t next = load32(base + 4 * (v + 1));
    if (next < offset || next > avail)
      fail("the next offset " + str(next) + " is before this vector's " + str(offset) + " or past the page's " +
           str(avail) + " bytes" + at(4 * (v + 1)));
    limit = next;
  }
  const size_t room = limit - offset;
  const uint8_t* p = base + offset;
  if (room < kAlpInfoSize + Tr::kForSize)
    fail("the vector header needs " + str(kAlpInfoSize + Tr::kForSize) + " bytes where " + str(room) + " remain" +
         at(offset));
  const int exponent = p[0], factor = p[1];
  const size_t exceptions = load16(p + 2);
  const size_t n = vector_length(v);
  if (exponent > Tr::kMaxExponent)
    fail("exponent " + str(exponent) + " is above " + str(Tr::kMaxExponent) + " for " + Tr::kName + at(offset));
  if (factor > exponent) fail("factor " + str(factor) + " is above the exponent " + str(exponent) + at(offset + 1));
  if (exceptions > n) fail(str(exceptions) + " exceptions in a vector of " + str(n) + " values" + at(offset + 2));
  const uint8_t* for_info = p + kAlpInfoSize;
  const int bit_width = for_info[Tr::kForSize - 1];
  if (bit_width > static_cast<int>(8 * sizeof(T)))
    fail("bit width " + str(bit_width) + " is above " + str(8 * sizeof(T)) +
         at(offset + kAlpInfoSize + Tr::kForSize - 1));
  const size_t need = vector_bytes<T>(n, bit_width, exceptions);
  if (need > room)
    fail("the vector of " + str(n) + " values at bit width " + str(bit_width) + " with " + str(exceptions) +
         " exceptions needs " + str(need) + " bytes where " + str(room) + " remain" + at(offset));

  const uint8_t* packed = for_info + Tr::kForSize;
  const size_t readable = avail - (offset + kAlpInfoSize + Tr::kForSize);
  const SimdLevel level = simd_level();
  if constexpr (std::is_same_v<T, float>) {
    const uint32_t ref = load32(for_info);
    unpack_bits(packed, readable, n, bit_width, deltas32_.data());
    detail::alp_float_kernel(level)(deltas32_.data(), n, ref, Tr::pow10(factor), Tr::neg_pow10(exponent), out);
  } else {
    const uint64_t ref = load64(for_info);
    const uint64_t max_delta = bit_width == 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
    const double mul_f = Tr::pow10(factor), mul_neg_e = Tr::neg_pow10(exponent);
    if (bit_width <= 32) {
      unpack_bits(packed, readable, n, bit_width, deltas32_.data());
      if (!detail::alp_double32_kernel(level)(deltas32_.data(), n, ref, max_delta, mul_f, mul_neg_e, out))
        detail::alp_double32_scalar(deltas32_.data(), n, ref, max_delta, mul_f, mul_neg_e, out);
    } else {
      unpack_bits(packed, readable, n, bit_width, deltas64_.data());
      if (!detail::alp_double64_kernel(level)(deltas64_.data(), n, ref, max_delta, mul_f, mul_neg_e, out))
        detail::alp_double64_scalar(deltas64_.data(), n, ref, max_delta, mul_f, mul_neg_e, out);
    }
  }
  const uint8_t* positions = packed + packed_size(n, bit_width);
  const uint8_t* values = positions + 2 * exceptions;
  for (size_t j = 0; j < exceptions; ++j) {
    const size_t pos = load16(positions + 2 * j);
    if (pos >= n)
      fail("exception position " + str(pos) + " is outside the vector's " + str(n) + " values" +
           at(static_cast<size_t>(positions + 2 * j - base)));
    std::memcpy(out + pos, values + j * sizeof(T), sizeof(T));
  }
}

template <class T>
size_t AlpDecoder<T>::decode(T* out, size_t n) {
  n = std::min(n, num_values_ - index_);
  const size_t mask = (size_t{1} << log_vector_size_) - 1;
  size_t done = 0;
  while (done < n) {
    const size_t v = index_ >> log_vector_size_;
    const size_t in_vector = index_ & mask;
    const size_t length = vector_length(v);
    const size_t take = std::min(n - done, length - in_vector);
    if (in_vector == 0 && take == length) {
      decode_vector(v, out + done);
    } else {
      if (buffered_ != v) {
        buffered_ = SIZE_MAX;
        decode_vector(v, buffer_.data());
        buffered_ = v;
      }
      std::memcpy(out + done, buffer_.data() + in_vector, take * sizeof(T));
    }
    done += take;
    index_ += take;
  }
  return n;
}

template <class T>
size_t AlpDecoder<T>::skip(size_t n) {
  n = std::min(n, num_values_ - index_);
  index_ += n;
  return n;
}

// ---- encoder -------------------------------------------------------------------

namespace {

// Values sampled for the preset, and per vector to choose from it; the
// preset is chosen again every kPresetVectors vectors (the paper: once a
// row group), since its search over every pair costs more than encoding.
constexpr size_t kPresetSample = 256;
constexpr size_t kVectorSample = 32;
constexpr size_t kPresetSize = 5;
constexpr size_t kPresetVectors = 64;

}  // namespace

template <class T>
AlpEncoder<T>::AlpEncoder(int log_vector_size) : log_vector_size_(log_vector_size) {
  if (log_vector_size < 3 || log_vector_size > 15)
    throw Error("ALP: log2 of the vector size " + std::to_string(log_vector_size) + " is not in [3, 15]",
                ErrorKind::kInvalidArgument);
  vector_size_ = size_t{1} << log_vector_size;
  pending_.reserve(vector_size_);
}

template <class T>
size_t AlpEncoder<T>::estimated_size() const {
  return kAlpHeaderSize + 4 * (offsets_.size() + (pending_.empty() ? 0 : 1)) + vectors_.size() +
         pending_.size() * sizeof(T);
}

template <class T>
void AlpEncoder<T>::put(const T* values, size_t n) {
  while (n != 0) {
    if (pending_.empty() && n >= vector_size_) {
      encode_vector(values, vector_size_);
      values += vector_size_;
      n -= vector_size_;
      continue;
    }
    const size_t take = std::min(n, vector_size_ - pending_.size());
    pending_.insert(pending_.end(), values, values + take);
    values += take;
    n -= take;
    if (pending_.size() == vector_size_) {
      encode_vector(pending_.data(), vector_size_);
      pending_.clear();
    }
  }
}

template <class T>
void AlpEncoder<T>::flush(Buffer& out) {
  if (!pending_.empty()) {
    encode_vector(pending_.data(), pending_.size());
    pending_.clear();
  }
  if (count_ > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    throw Error("ALP: " + std::to_string(count_) + " values do not fit one page's int32 count",
                ErrorKind::kInvalidArgument);
  const size_t num_vectors = offsets_.size();
  uint8_t* p = out.extend(kAlpHeaderSize + 4 * num_vectors);
  p[0] = 0;
  p[1] = 0;
  p[2] = static_cast<uint8_t>(log_vector_size_);
  const auto count = static_cast<uint32_t>(count_);
  std::memcpy(p + 3, &count, 4);
  for (size_t v = 0; v < num_vectors; ++v) {
    const auto offset = static_cast<uint32_t>(offsets_[v] + 4 * num_vectors);
    std::memcpy(p + kAlpHeaderSize + 4 * v, &offset, 4);
  }
  out.append(vectors_.data(), vectors_.size());
  vectors_.clear();
  offsets_.clear();
  count_ = 0;
}

template <class T>
void AlpEncoder<T>::choose_preset(const T* values, size_t n) {
  struct Scored {
    size_t cost;
    Params params;
  };
  std::vector<Scored> scored;
  const size_t stride = std::max<size_t>(1, n / kPresetSample);
  // Larger exponents first, so that on equal cost the one that keeps more
  // digits wins.
  for (int e = Traits<T>::kMaxExponent; e >= 0; --e)
    for (int f = e; f >= 0; --f)
      scored.push_back({sample_cost(values, n, stride, e, f), {static_cast<uint8_t>(e), static_cast<uint8_t>(f)}});
  std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) { return a.cost < b.cost; });
  preset_.clear();
  for (size_t i = 0; i < scored.size() && preset_.size() < kPresetSize; ++i) preset_.push_back(scored[i].params);
}

template <class T>
typename AlpEncoder<T>::Params AlpEncoder<T>::choose_params(const T* values, size_t n) const {
  if (preset_.size() == 1) return preset_[0];
  const size_t stride = std::max<size_t>(1, n / kVectorSample);
  Params best = preset_[0];
  size_t best_cost = SIZE_MAX;
  for (const Params& p : preset_) {
    const size_t cost = sample_cost(values, n, stride, p.exponent, p.factor);
    if (cost < best_cost) {
      best_cost = cost;
      best = p;
    }
  }
  return best;
}

template <class T>
void AlpEncoder<T>::encode_vector(const T* values, size_t n) {
  using Tr = Traits<T>;
  using Int = typename Tr::Int;
  using UInt = typename Tr::UInt;
  if (preset_.empty() || vectors_since_preset_ >= kPresetVectors) {
    choose_preset(values, n);
    vectors_since_preset_ = 0;
  }
  ++vectors_since_preset_;
  const Params params = choose_params(values, n);
  const int e = params.exponent, f = params.factor;
  const T mul_e = Tr::pow10(e), mul_neg_f = Tr::neg_pow10(f), mul_f = Tr::pow10(f), mul_neg_e = Tr::neg_pow10(e);

  if (encoded_.size() < n) encoded_.resize(n);
  exception_positions_.clear();
  Int lo = std::numeric_limits<Int>::max(), hi = std::numeric_limits<Int>::min();
  for (size_t i = 0; i < n; ++i) {
    Int k = 0;
    if (encode_value(values[i], mul_e, mul_neg_f, mul_f, mul_neg_e, k)) {
      lo = std::min(lo, k);
      hi = std::max(hi, k);
    } else {
      exception_positions_.push_back(static_cast<uint16_t>(i));
    }
    encoded_[i] = k;
  }
  // A sample can miss that the few values a pair encodes are far apart;
  // when packing them costs more than storing them whole, every value
  // becomes an exception.
  if (!exception_positions_.empty() && exception_positions_.size() < n) {
    const int width = std::bit_width(static_cast<UInt>(static_cast<UInt>(hi) - static_cast<UInt>(lo)));
    if (vector_bytes<T>(n, 0, n) <= vector_bytes<T>(n, width, exception_positions_.size())) {
      exception_positions_.resize(n);
      for (size_t i = 0; i < n; ++i) exception_positions_[i] = static_cast<uint16_t>(i);
    }
  }
  // Exceptions take the first encoded value, so that they widen nothing.
  Int placeholder = 0;
  if (exception_positions_.size() == n) {
    lo = hi = 0;
  } else if (!exception_positions_.empty()) {
    for (size_t i = 0, j = 0; i < n; ++i) {
      if (j < exception_positions_.size() && exception_positions_[j] == i) {
        ++j;
        continue;
      }
      placeholder = static_cast<Int>(encoded_[i]);
      break;
    }
  }
  for (uint16_t pos : exception_positions_) encoded_[pos] = placeholder;
  const UInt range = static_cast<UInt>(static_cast<UInt>(hi) - static_cast<UInt>(lo));
  const int bit_width = std::bit_width(range);

  const size_t exceptions = exception_positions_.size();
  offsets_.push_back(static_cast<uint32_t>(vectors_.size()));
  uint8_t* p = vectors_.extend(vector_bytes<T>(n, bit_width, exceptions));
  p[0] = static_cast<uint8_t>(e);
  p[1] = static_cast<uint8_t>(f);
  const auto exceptions16 = static_cast<uint16_t>(exceptions);
  std::memcpy(p + 2, &exceptions16, 2);
  const Int reference = lo;
  std::memcpy(p + kAlpInfoSize, &reference, sizeof(Int));
  p[kAlpInfoSize + sizeof(Int)] = static_cast<uint8_t>(bit_width);
  uint8_t* packed = p + kAlpInfoSize + Tr::kForSize;
  if (bit_width <= 32) {
    if (deltas32_.size() < n) deltas32_.resize(n);
    for (size_t i = 0; i < n; ++i)
      deltas32_[i] = static_cast<uint32_t>(static_cast<UInt>(static_cast<UInt>(encoded_[i]) - static_cast<UInt>(lo)));
    pack_bits(deltas32_.data(), n, bit_width, packed);
  } else {
    if (deltas_.size() < n) deltas_.resize(n);
    for (size_t i = 0; i < n; ++i)
      deltas_[i] = static_cast<uint64_t>(static_cast<UInt>(static_cast<UInt>(encoded_[i]) - static_cast<UInt>(lo)));
    pack_bits(deltas_.data(), n, bit_width, packed);
  }
  uint8_t* positions = packed + packed_size(n, bit_width);
  uint8_t* exception_values = positions + 2 * exceptions;
  for (size_t j = 0; j < exceptions; ++j) {
    std::memcpy(positions + 2 * j, &exception_positions_[j], 2);
    std::memcpy(exception_values + j * sizeof(T), values + exception_positions_[j], sizeof(T));
  }
  count_ += n;
}

template class AlpDecoder<float>;
template class AlpDecoder<double>;
template class AlpEncoder<float>;
template class AlpEncoder<double>;

}  // namespace parq::encoding
