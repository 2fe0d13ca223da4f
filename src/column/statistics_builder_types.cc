// Statistics of fixed-width numbers: INT32 and INT64 (signed or unsigned),
// BOOLEAN, FLOAT, DOUBLE and FLOAT16. A batch is one min/max pass over the
// raw values, chosen per SIMD level at run time: plain loops the compiler
// vectorises where the instruction set has the min/max (32-bit and byte
// integers under AVX2, every integer under AVX-512), hand-written AVX2
// where it does not (64-bit integers) or where NaNs must stay out of the
// bounds (FLOAT, DOUBLE).
#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#include "parq/util/cpu.h"
#include "statistics_builder.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PARQ_STATS_X86 1
#define PARQ_STATS_AVX2 __attribute__((target("avx2,bmi2")))
#define PARQ_STATS_AVX512 __attribute__((target("avx2,bmi2,avx512f,avx512bw,avx512vl,avx512vbmi")))
#endif

namespace parq {
namespace {

using format::Type;

// What one pass found. `lo`/`hi` are meaningful when `counted` values (not
// NaN) were seen.
template <class T>
struct Range {
  T lo;
  T hi;
  size_t counted = 0;
  int64_t nans = 0;
};

template <class T>
inline T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <class T>
std::string to_bytes(T v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}

template <class T>
bool from_bytes(std::string_view s, T& v) {
  if (s.size() != sizeof(T)) return false;
  std::memcpy(&v, s.data(), sizeof(T));
  return true;
}

int three_way(bool less, bool greater) { return less ? -1 : greater ? 1 : 0; }

// What IEEE 754 total order needs beside the numeric bounds: the signs of
// the zeros seen, and the least and greatest NaNs (by their total-order
// keys), which are the bounds when every value is NaN.
struct TotalOrderExtras {
  bool negative_zero = false, positive_zero = false;
  bool has_nan = false;
  uint64_t nan_lo_key = 0, nan_hi_key = 0, nan_lo_bits = 0, nan_hi_bits = 0;

  void add_nan(uint64_t key, uint64_t bits) {
    if (!has_nan || key < nan_lo_key) nan_lo_key = key, nan_lo_bits = bits;
    if (!has_nan || key > nan_hi_key) nan_hi_key = key, nan_hi_bits = bits;
    has_nan = true;
  }
  void merge(const TotalOrderExtras& o) {
    negative_zero = negative_zero || o.negative_zero;
    positive_zero = positive_zero || o.positive_zero;
    if (o.has_nan) {
      add_nan(o.nan_lo_key, o.nan_lo_bits);
      add_nan(o.nan_hi_key, o.nan_hi_bits);
    }
  }
};

template <class Kind>
concept HasTotalOrder = requires {
  &Kind::encode_total;
};

// ---- portable passes ----

// Integers (and booleans as bytes): the compiler turns the selects into
// vector min/max where the instruction set has them.
template <class T>
[[gnu::always_inline]] inline Range<T> integer_pass(const uint8_t* p, size_t n) {
  T lo = std::numeric_limits<T>::max(), hi = std::numeric_limits<T>::lowest();
  for (size_t i = 0; i < n; ++i) {
    const T v = load<T>(p + i * sizeof(T));
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  return {lo, hi, n, 0};
}

// FLOAT/DOUBLE: a NaN compares false both ways, so it never replaces a
// bound that starts at an infinity; the NaNs are counted beside.
template <class T>
Range<T> float_pass(const uint8_t* p, size_t n) {
  T lo = std::numeric_limits<T>::infinity(), hi = -std::numeric_limits<T>::infinity();
  int64_t nans = 0;
  for (size_t i = 0; i < n; ++i) {
    const T v = load<T>(p + i * sizeof(T));
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    nans += v != v;
  }
  return {lo, hi, n - static_cast<size_t>(nans), nans};
}

// FLOAT16 bits mapped to a key whose unsigned order is the numbers' order
// (negatives flipped below the positives, -0 just below +0).
inline uint16_t half_key(uint16_t bits) {
  return (bits & 0x8000) != 0 ? static_cast<uint16_t>(~bits) : static_cast<uint16_t>(bits | 0x8000);
}
inline uint16_t half_bits(uint16_t key) {
  return (key & 0x8000) != 0 ? static_cast<uint16_t>(key & 0x7fff) : static_cast<uint16_t>(~key);
}
inline bool half_is_nan(uint16_t bits) { return (bits & 0x7fff) > 0x7c00; }

// FLOAT16 as keys. No non-NaN value has key 0 or 0xffff, so the starting
// values never survive a non-NaN value.
Range<uint16_t> half_pass(const uint8_t* p, size_t n) {
  uint16_t lo = 0xffff, hi = 0;
  int64_t nans = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint16_t bits = load<uint16_t>(p + 2 * i);
    const bool nan = half_is_nan(bits);
    const uint16_t key = half_key(bits);
    lo = !nan && key < lo ? key : lo;
    hi = !nan && key > hi ? key : hi;
    nans += nan;
  }
  return {lo, hi, n - static_cast<size_t>(nans), nans};
}

template <class T>
Range<T> integer_scalar(const uint8_t* p, size_t n) {
  return integer_pass<T>(p, n);
}

// ---- x86 kernels ----
#ifdef PARQ_STATS_X86

// 32-bit and byte integers: AVX2 has the min/max instructions.
template <class T>
PARQ_STATS_AVX2 Range<T> integer_avx2(const uint8_t* p, size_t n) {
  return integer_pass<T>(p, n);
}
// AVX-512 adds 64-bit min/max.
template <class T>
PARQ_STATS_AVX512 Range<T> integer_avx512(const uint8_t* p, size_t n) {
  return integer_pass<T>(p, n);
}

// 64-bit integers under AVX2: compare and blend, in four independent
// accumulators so that the compare-blend latency overlaps. Unsigned values
// compare as signed once their top bit is flipped.
template <class T>
PARQ_STATS_AVX2 Range<T> int64_avx2(const uint8_t* p, size_t n) {
  constexpr int64_t kFlip = std::is_signed_v<T> ? 0 : std::numeric_limits<int64_t>::min();
  const __m256i flip = _mm256_set1_epi64x(kFlip);
  __m256i lo[4], hi[4];
  for (int j = 0; j < 4; ++j) {
    lo[j] = _mm256_set1_epi64x(std::numeric_limits<int64_t>::max());
    hi[j] = _mm256_set1_epi64x(std::numeric_limits<int64_t>::min());
  }
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    for (int j = 0; j < 4; ++j) {
      const auto* at = reinterpret_cast<const __m256i*>(p + (i + 4 * j) * 8);
      const __m256i x = _mm256_xor_si256(_mm256_loadu_si256(at), flip);
      lo[j] = _mm256_blendv_epi8(lo[j], x, _mm256_cmpgt_epi64(lo[j], x));
      hi[j] = _mm256_blendv_epi8(hi[j], x, _mm256_cmpgt_epi64(x, hi[j]));
    }
  }
  alignas(32) int64_t los[16], his[16];
  for (int j = 0; j < 4; ++j) {
    _mm256_store_si256(reinterpret_cast<__m256i*>(los + 4 * j), lo[j]);
    _mm256_store_si256(reinterpret_cast<__m256i*>(his + 4 * j), hi[j]);
  }
  int64_t l = los[0], h = his[0];
  for (int j = 1; j < 16; ++j) {
    l = std::min(l, los[j]);
    h = std::max(h, his[j]);
  }
  for (; i < n; ++i) {
    const int64_t v = load<int64_t>(p + i * 8) ^ kFlip;
    l = std::min(l, v);
    h = std::max(h, v);
  }
  return {static_cast<T>(l ^ kFlip), static_cast<T>(h ^ kFlip), n, 0};
}

// AVX2 vectors of FLOAT and DOUBLE, and NaN lane counters of their width.
struct FloatLanes {
  using T = float;
  using V = __m256;
  static constexpr size_t kCount = 8;
  PARQ_STATS_AVX2 static V load(const uint8_t* p) { return _mm256_loadu_ps(reinterpret_cast<const float*>(p)); }
  PARQ_STATS_AVX2 static V splat(T v) { return _mm256_set1_ps(v); }
  PARQ_STATS_AVX2 static V min(V x, V bound) { return _mm256_min_ps(x, bound); }
  PARQ_STATS_AVX2 static V max(V x, V bound) { return _mm256_max_ps(x, bound); }
  // Counters step by -1 (the compare mask) per NaN.
  PARQ_STATS_AVX2 static __m256i count_nans(__m256i counts, V x) {
    return _mm256_sub_epi32(counts, _mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q)));
  }
  PARQ_STATS_AVX2 static int64_t sum(__m256i counts) {
    alignas(32) int32_t c[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(c), counts);
    int64_t s = 0;
    for (int32_t v : c) s += v;
    return s;
  }
  PARQ_STATS_AVX2 static void store(T* out, V v) { _mm256_storeu_ps(out, v); }
};

struct DoubleLanes {
  using T = double;
  using V = __m256d;
  static constexpr size_t kCount = 4;
  PARQ_STATS_AVX2 static V load(const uint8_t* p) { return _mm256_loadu_pd(reinterpret_cast<const double*>(p)); }
  PARQ_STATS_AVX2 static V splat(T v) { return _mm256_set1_pd(v); }
  PARQ_STATS_AVX2 static V min(V x, V bound) { return _mm256_min_pd(x, bound); }
  PARQ_STATS_AVX2 static V max(V x, V bound) { return _mm256_max_pd(x, bound); }
  PARQ_STATS_AVX2 static __m256i count_nans(__m256i counts, V x) {
    return _mm256_sub_epi64(counts, _mm256_castpd_si256(_mm256_cmp_pd(x, x, _CMP_UNORD_Q)));
  }
  PARQ_STATS_AVX2 static int64_t sum(__m256i counts) {
    alignas(32) int64_t c[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(c), counts);
    return c[0] + c[1] + c[2] + c[3];
  }
  PARQ_STATS_AVX2 static void store(T* out, V v) { _mm256_storeu_pd(out, v); }
};

// FLOAT/DOUBLE under AVX2, four accumulators. min/max return their second
// operand when the first is NaN, so a NaN value leaves the bound as it was.
template <class Lanes>
PARQ_STATS_AVX2 Range<typename Lanes::T> float_avx2(const uint8_t* p, size_t n) {
  using T = typename Lanes::T;
  using V = typename Lanes::V;
  constexpr size_t kStep = 4 * Lanes::kCount;
  V lo[4], hi[4];
  __m256i nans[4];
  for (int j = 0; j < 4; ++j) {
    lo[j] = Lanes::splat(std::numeric_limits<T>::infinity());
    hi[j] = Lanes::splat(-std::numeric_limits<T>::infinity());
    nans[j] = _mm256_setzero_si256();
  }
  size_t i = 0;
  for (; i + kStep <= n; i += kStep) {
    for (size_t j = 0; j < 4; ++j) {
      const V x = Lanes::load(p + (i + j * Lanes::kCount) * sizeof(T));
      lo[j] = Lanes::min(x, lo[j]);
      hi[j] = Lanes::max(x, hi[j]);
      nans[j] = Lanes::count_nans(nans[j], x);
    }
  }
  T los[kStep], his[kStep];
  int64_t nan_count = 0;
  for (size_t j = 0; j < 4; ++j) {
    Lanes::store(los + j * Lanes::kCount, lo[j]);
    Lanes::store(his + j * Lanes::kCount, hi[j]);
    nan_count += Lanes::sum(nans[j]);
  }
  Range<T> r = float_pass<T>(p + i * sizeof(T), n - i);
  for (size_t j = 0; j < kStep; ++j) {
    r.lo = std::min(r.lo, los[j]);
    r.hi = std::max(r.hi, his[j]);
  }
  r.nans += nan_count;
  r.counted = n - static_cast<size_t>(r.nans);
  return r;
}

#endif  // PARQ_STATS_X86

// ---- dispatch ----

template <class T>
using Pass = Range<T> (*)(const uint8_t*, size_t);

// A type's pass per SIMD level.
template <class T>
struct Passes {
  Pass<T> scalar;
  Pass<T> avx2;
  Pass<T> avx512;
};

template <class T>
void combine(Range<T>& into, const Range<T>& part) {
  if (part.counted != 0) {
    if (into.counted == 0) {
      into.lo = part.lo;
      into.hi = part.hi;
    } else {
      into.lo = std::min(into.lo, part.lo);
      into.hi = std::max(into.hi, part.hi);
    }
  }
  into.counted += part.counted;
  into.nans += part.nans;
}

// The pass for the current SIMD level, over pieces small enough for the
// 32-bit NaN lane counters.
template <class T>
Range<T> scan_values(const Passes<T>& passes, const uint8_t* p, size_t n) {
  Pass<T> pass = passes.scalar;
  const SimdLevel level = simd_level();
  if (level == SimdLevel::kAvx512) pass = passes.avx512;
  if (level == SimdLevel::kAvx2) pass = passes.avx2;
  constexpr size_t kPiece = size_t{1} << 30;
  if (n <= kPiece) return pass(p, n);
  Range<T> r{T{}, T{}, 0, 0};
  for (size_t done = 0; done < n; done += kPiece) combine(r, pass(p + done * sizeof(T), std::min(kPiece, n - done)));
  return r;
}

template <class T>
constexpr Passes<T> integer_passes() {
#ifdef PARQ_STATS_X86
  if constexpr (sizeof(T) == 8) return {integer_scalar<T>, int64_avx2<T>, integer_avx512<T>};
  return {integer_scalar<T>, integer_avx2<T>, integer_avx512<T>};
#else
  return {integer_scalar<T>, integer_scalar<T>, integer_scalar<T>};
#endif
}

template <class T>
constexpr Passes<T> float_passes() {
#ifdef PARQ_STATS_X86
  using Lanes = std::conditional_t<sizeof(T) == 4, FloatLanes, DoubleLanes>;
  return {float_pass<T>, float_avx2<Lanes>, float_avx2<Lanes>};
#else
  return {float_pass<T>, float_pass<T>, float_pass<T>};
#endif
}

// ---- kinds: how a column's values are scanned, written and compared ----

template <class T>
struct IntegerKind {
  using Value = T;
  static constexpr const char* kName = std::is_signed_v<T> ? "signed integer" : "unsigned integer";
  static Range<T> scan(const uint8_t* p, size_t n) {
    static constexpr Passes<T> kPasses = integer_passes<T>();
    return scan_values(kPasses, p, n);
  }
  static std::string encode(T v, bool) { return to_bytes(v); }
  static int compare(std::string_view a, std::string_view b) {
    T x, y;
    if (!from_bytes(a, x) || !from_bytes(b, y)) return a.compare(b);
    return three_way(x < y, y < x);
  }
};

struct BooleanKind {
  using Value = uint8_t;
  static constexpr const char* kName = "BOOLEAN";
  static Range<uint8_t> scan(const uint8_t* p, size_t n) {
    static constexpr Passes<uint8_t> kPasses = integer_passes<uint8_t>();
    Range<uint8_t> r = scan_values(kPasses, p, n);
    // Any nonzero byte is true.
    r.lo = r.lo != 0;
    r.hi = r.hi != 0;
    return r;
  }
  static std::string encode(uint8_t v, bool) { return std::string(1, static_cast<char>(v != 0)); }
  static int compare(std::string_view a, std::string_view b) {
    if (a.size() != 1 || b.size() != 1) return a.compare(b);
    const bool x = a[0] != 0, y = b[0] != 0;
    return three_way(x < y, y < x);
  }
};

template <class T>
struct FloatKind {
  using Value = T;
  static constexpr const char* kName = sizeof(T) == 4 ? "FLOAT" : "DOUBLE";
  static Range<T> scan(const uint8_t* p, size_t n) {
    static constexpr Passes<T> kPasses = float_passes<T>();
    return scan_values(kPasses, p, n);
  }
  // Readers may prune zeros of either sign: a zero min is -0, a zero max +0.
  static std::string encode(T v, bool is_max) {
    if (v == 0) v = is_max ? T(0) : -T(0);
    return to_bytes(v);
  }
  static int compare(std::string_view a, std::string_view b) {
    T x, y;
    if (!from_bytes(a, x) || !from_bytes(b, y)) return a.compare(b);
    return three_way(x < y, y < x);
  }

  // IEEE 754 total order: which zeros a batch holds (the scan's bounds
  // treat both alike) and its NaNs' least and greatest bit patterns.
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  static constexpr Bits kSign = Bits{1} << (8 * sizeof(T) - 1);
  static Bits total_key(Bits bits) { return (bits & kSign) != 0 ? static_cast<Bits>(~bits) : bits | kSign; }
  static bool is_zero(T v) { return v == 0; }
  static void extras(const uint8_t* p, size_t n, const Range<T>& r, TotalOrderExtras& e) {
    const bool zeros = r.counted != 0 && (r.lo == 0 || r.hi == 0);
    if (!zeros && r.nans == 0) return;
    for (size_t i = 0; i < n; ++i) {
      const T v = load<T>(p + i * sizeof(T));
      const Bits bits = load<Bits>(p + i * sizeof(T));
      if (v == 0) {
        ((bits & kSign) != 0 ? e.negative_zero : e.positive_zero) = true;
      } else if (v != v) {
        e.add_nan(total_key(bits), bits);
      }
    }
  }
  // The bound as total order has it: a zero keeps its sign (-0 when a -0
  // was seen for a min, +0 when a +0 was seen for a max).
  static std::string encode_total(T v, bool is_max, const TotalOrderExtras& e) {
    if (v == 0) v = is_max ? (e.positive_zero ? T(0) : -T(0)) : (e.negative_zero ? -T(0) : T(0));
    return to_bytes(v);
  }
  static std::string encode_nan(uint64_t bits) { return to_bytes(static_cast<Bits>(bits)); }
};

struct HalfKind {
  using Value = uint16_t;  // half_key() of the bits
  static constexpr const char* kName = "FLOAT16";
  // Rare enough that the portable pass serves every level.
  static Range<uint16_t> scan(const uint8_t* p, size_t n) {
    static constexpr Passes<uint16_t> kPasses = {half_pass, half_pass, half_pass};
    return scan_values(kPasses, p, n);
  }
  static std::string encode(uint16_t key, bool is_max) {
    uint16_t bits = half_bits(key);
    if ((bits & 0x7fff) == 0) bits = is_max ? 0x0000 : 0x8000;
    return to_bytes(bits);
  }
  // As numbers: both zeros are equal.
  static int compare(std::string_view a, std::string_view b) {
    uint16_t x, y;
    if (!from_bytes(a, x) || !from_bytes(b, y)) return a.compare(b);
    if ((x & 0x7fff) == 0) x = 0;
    if ((y & 0x7fff) == 0) y = 0;
    const uint16_t kx = half_key(x), ky = half_key(y);
    return three_way(kx < ky, ky < kx);
  }

  // Keys already order -0 below +0, as total order does; only NaNs are
  // looked at again.
  static void extras(const uint8_t* p, size_t n, const Range<uint16_t>& r, TotalOrderExtras& e) {
    if (r.nans == 0) return;
    for (size_t i = 0; i < n; ++i) {
      const uint16_t bits = load<uint16_t>(p + 2 * i);
      if (half_is_nan(bits)) e.add_nan(half_key(bits), bits);
    }
  }
  static std::string encode_total(uint16_t key, bool, const TotalOrderExtras&) { return to_bytes(half_bits(key)); }
  static std::string encode_nan(uint64_t bits) { return to_bytes(static_cast<uint16_t>(bits)); }
};

// INT96 timestamps under ColumnOrder INT96_TIMESTAMP_ORDER, which orders
// by Julian day and then by nanoseconds of the day. Values are compared as
// the instants they stand for (day * 86400e9 + signed nanoseconds, as the
// reader's filters and text do), and bounds are written normalized, their
// nanoseconds within the day: for the usual values that is the same order
// and the same bytes, and for values whose nanoseconds run past a day the
// bounds still hold every instant, so pruning never disagrees with the
// rows. Bounds past the 32-bit day range clamp to it: no literal a filter
// can bind lies beyond it. INT96 is legacy and rare: one portable pass
// serves every level.
struct Int96Kind {
  using Value = __int128;  // the instant in nanoseconds from Julian day 0
  static constexpr const char* kName = "INT96";
  static constexpr int64_t kNanosPerDay = 86400LL * 1000 * 1000 * 1000;
  static Value key(const uint8_t* p) {
    return static_cast<Value>(load<int32_t>(p + 8)) * kNanosPerDay + load<int64_t>(p);
  }
  static Range<Value> scan(const uint8_t* p, size_t n) {
    Range<Value> r{0, 0, n, 0};
    if (n == 0) return r;
    r.lo = r.hi = key(p);
    for (size_t i = 1; i < n; ++i) {
      const Value k = key(p + 12 * i);
      r.lo = std::min(r.lo, k);
      r.hi = std::max(r.hi, k);
    }
    return r;
  }
  static std::string encode(Value k, bool) {
    Value day = k / kNanosPerDay;
    Value nanos = k % kNanosPerDay;
    if (nanos < 0) {
      nanos += kNanosPerDay;
      --day;
    }
    if (day < INT32_MIN) {
      day = INT32_MIN;
      nanos = 0;
    } else if (day > INT32_MAX) {
      day = INT32_MAX;
      nanos = kNanosPerDay - 1;
    }
    const auto n = static_cast<int64_t>(nanos);
    const auto d = static_cast<int32_t>(day);
    std::string out(12, '\0');
    std::memcpy(out.data(), &n, 8);
    std::memcpy(out.data() + 8, &d, 4);
    return out;
  }
  static int compare(std::string_view a, std::string_view b) {
    if (a.size() != 12 || b.size() != 12) return a.compare(b);
    const Value x = key(reinterpret_cast<const uint8_t*>(a.data()));
    const Value y = key(reinterpret_cast<const uint8_t*>(b.data()));
    return three_way(x < y, y < x);
  }
};

template <class Kind>
class NumberStatistics final : public StatisticsBuilder {
  using T = typename Kind::Value;

 public:
  NumberStatistics(bool bounds, bool total_order) : bounds_(bounds), total_order_(total_order) {}

  void add_values(const void* values, size_t n) override {
    if (n == 0) return;
    const Range<T> r = Kind::scan(static_cast<const uint8_t*>(values), n);
    nan_count_ += r.nans;
    if (r.counted != 0) include(r.lo, r.hi);
    if constexpr (HasTotalOrder<Kind>)
      if (total_order_) Kind::extras(static_cast<const uint8_t*>(values), n, r, extras_);
  }
  void add_byte_arrays(const int32_t*, const uint8_t*, size_t) override {
    detail::wrong_statistics_input("BYTE_ARRAY values", Kind::kName);
  }
  void merge(const StatisticsBuilder& other) override {
    const auto* o = dynamic_cast<const NumberStatistics*>(&other);
    if (o == nullptr) detail::wrong_statistics_input("statistics of another column", Kind::kName);
    null_count_ += o->null_count_;
    nan_count_ += o->nan_count_;
    if (o->has_) include(o->min_, o->max_);
    extras_.merge(o->extras_);
  }
  void reset() override {
    null_count_ = nan_count_ = 0;
    has_ = false;
    extras_ = {};
  }

  // Under total order a column of only NaNs has bounds: its least and
  // greatest NaN.
  bool has_bounds() const override { return bounds_ && (has_ || (total_order_ && extras_.has_nan)); }
  std::string min_bytes() const override { return bound(false); }
  std::string max_bytes() const override { return bound(true); }
  int compare(std::string_view a, std::string_view b) const override { return Kind::compare(a, b); }

 private:
  void include(T lo, T hi) {
    if (!has_) {
      min_ = lo;
      max_ = hi;
      has_ = true;
      return;
    }
    min_ = std::min(min_, lo);
    max_ = std::max(max_, hi);
  }

  std::string bound(bool is_max) const {
    if (!has_bounds()) return {};
    if constexpr (HasTotalOrder<Kind>) {
      if (total_order_) {
        if (!has_) return Kind::encode_nan(is_max ? extras_.nan_hi_bits : extras_.nan_lo_bits);
        return Kind::encode_total(is_max ? max_ : min_, is_max, extras_);
      }
    }
    return Kind::encode(is_max ? max_ : min_, is_max);
  }

  bool bounds_;
  bool total_order_;
  bool has_ = false;
  T min_{};
  T max_{};
  TotalOrderExtras extras_;
};

template <class Kind>
std::unique_ptr<StatisticsBuilder> number(bool bounds, bool total_order = false) {
  return std::make_unique<NumberStatistics<Kind>>(bounds, total_order);
}

template <class T>
std::unique_ptr<StatisticsBuilder> integer(SortOrder order, bool bounds) {
  if (order == SortOrder::kUnsigned) return number<IntegerKind<std::make_unsigned_t<T>>>(bounds);
  return number<IntegerKind<T>>(bounds);
}

}  // namespace

namespace detail {

std::unique_ptr<StatisticsBuilder> make_number_statistics(const ColumnDescriptor& column, bool bounds,
                                                          bool float_total_order) {
  switch (column.type.physical) {
    case Type::BOOLEAN:
      return number<BooleanKind>(bounds);
    case Type::INT32:
      return integer<int32_t>(column.sort_order, bounds);
    case Type::INT64:
      return integer<int64_t>(column.sort_order, bounds);
    case Type::FLOAT:
      return number<FloatKind<float>>(bounds, float_total_order);
    case Type::DOUBLE:
      return number<FloatKind<double>>(bounds, float_total_order);
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (column.type.logical.FLOAT16 && column.type.type_length == 2)
        return number<HalfKind>(bounds, float_total_order);
      break;
    case Type::INT96:
      return number<Int96Kind>(bounds);
    case Type::BYTE_ARRAY:
      break;
  }
  return nullptr;
}

}  // namespace detail
}  // namespace parq
