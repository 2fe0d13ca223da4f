// Statistics builders, one class template per comparison family:
//   - fixed-width numbers (signed or unsigned integers, floats without NaN,
//     booleans, FLOAT16): a batch min/max loop over the raw values;
//   - byte strings in unsigned lexicographic order (strings, binaries,
//     FIXED_LEN_BYTE_ARRAY), whose bounds may be truncated;
//   - big-endian two's-complement decimals (BYTE_ARRAY / FLBA);
//   - no order known (INT96, INTERVAL, unknown annotations): counts only.
// Bounds are kept untruncated, so that merging pages into a chunk stays
// exact; truncation happens when they are read out.
#include "statistics_builder.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace parq {
namespace {

using format::Type;

// ---- fixed-width values ----

template <class T>
struct SignedOrder {
  using Value = T;
  static bool skip(T) { return false; }
  static bool less(T a, T b) { return a < b; }
};

template <class T>
struct UnsignedOrder {
  using Value = T;
  using U = std::make_unsigned_t<T>;
  static bool skip(T) { return false; }
  static bool less(T a, T b) { return static_cast<U>(a) < static_cast<U>(b); }
};

template <class T>
struct FloatOrder {
  using Value = T;
  static bool skip(T v) { return std::isnan(v); }
  static bool less(T a, T b) { return a < b; }
};

struct BooleanOrder {
  using Value = uint8_t;
  static bool skip(uint8_t) { return false; }
  static bool less(uint8_t a, uint8_t b) { return a < b; }
};

float half_to_float(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? std::numeric_limits<float>::infinity() : std::numeric_limits<float>::quiet_NaN();
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), static_cast<int>(exponent) - 25);
  }
  return sign ? -magnitude : magnitude;
}

struct Float16Order {
  using Value = uint16_t;
  static bool skip(uint16_t v) { return std::isnan(half_to_float(v)); }
  static bool less(uint16_t a, uint16_t b) { return half_to_float(a) < half_to_float(b); }
};

template <class Order>
constexpr bool is_floating() {
  return std::is_same_v<Order, FloatOrder<float>> || std::is_same_v<Order, FloatOrder<double>> ||
         std::is_same_v<Order, Float16Order>;
}

template <class Order>
class FixedStatistics final : public StatisticsBuilder {
  using T = typename Order::Value;

 public:
  void add_values(const void* values, size_t n) override {
    const auto* v = static_cast<const uint8_t*>(values);
    if constexpr (std::is_same_v<Order, SignedOrder<T>> && !is_floating<Order>()) {
      add_signed(v, n);
    } else {
      for (size_t i = 0; i < n; ++i) add_one(load(v + i * sizeof(T)));
    }
  }
  void add_byte_arrays(const int32_t*, const uint8_t*, size_t) override {}

  void merge(const StatisticsBuilder& other) override {
    const auto& o = static_cast<const FixedStatistics&>(other);
    null_count_ += o.null_count_;
    nan_count_ += o.nan_count_;
    if (o.has_) {
      add_bound(o.min_);
      add_bound(o.max_);
    }
  }
  void reset() override {
    null_count_ = nan_count_ = 0;
    has_ = false;
  }
  bool has_bounds() const override { return has_; }
  std::string min_bytes() const override { return has_ ? encode(zero_signed(min_, true)) : std::string(); }
  std::string max_bytes() const override { return has_ ? encode(zero_signed(max_, false)) : std::string(); }
  int compare(std::string_view a, std::string_view b) const override {
    const T x = load(reinterpret_cast<const uint8_t*>(a.data()));
    const T y = load(reinterpret_cast<const uint8_t*>(b.data()));
    return Order::less(x, y) ? -1 : Order::less(y, x) ? 1 : 0;
  }

 private:
  static T load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }
  static std::string encode(T v) { return std::string(reinterpret_cast<const char*>(&v), sizeof(T)); }

  // The spec's rule for zeros: a zero min is written -0.0, a zero max +0.0,
  // so that readers pruning with either sign stay correct.
  static T zero_signed(T v, bool is_min) {
    if constexpr (std::is_same_v<Order, FloatOrder<float>> || std::is_same_v<Order, FloatOrder<double>>) {
      if (v == 0) return is_min ? -T(0) : T(0);
    } else if constexpr (std::is_same_v<Order, Float16Order>) {
      if ((v & 0x7fff) == 0) return is_min ? uint16_t{0x8000} : uint16_t{0};
    }
    return v;
  }

  // Plain signed integers: a branch-free loop the compiler vectorises.
  void add_signed(const uint8_t* p, size_t n) {
    if (n == 0) return;
    const T* v = reinterpret_cast<const T*>(p);
    T lo = v[0], hi = v[0];
    for (size_t i = 1; i < n; ++i) {
      lo = std::min(lo, v[i]);
      hi = std::max(hi, v[i]);
    }
    add_bound(lo);
    add_bound(hi);
  }

  void add_one(T v) {
    if (Order::skip(v)) {
      ++nan_count_;
      return;
    }
    add_bound(v);
  }

  void add_bound(T v) {
    if (!has_) {
      min_ = max_ = v;
      has_ = true;
      return;
    }
    if (Order::less(v, min_)) min_ = v;
    if (Order::less(max_, v)) max_ = v;
  }

  bool has_ = false;
  T min_{};
  T max_{};
};

// ---- byte strings ----

// Unsigned lexicographic order, the shorter of two equal prefixes first.
int compare_unsigned(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

// The first 8 bytes as a big-endian number (zero-padded): ordered like the
// values whenever two keys differ.
uint64_t prefix_key(std::string_view v) {
  uint64_t key = 0;
  if (v.size() >= 8) {
    std::memcpy(&key, v.data(), 8);  // a fixed-size load, not a memcpy call
  } else {
    for (size_t i = 0; i < v.size(); ++i) key |= uint64_t{static_cast<uint8_t>(v[i])} << (8 * i);
  }
  return __builtin_bswap64(key);
}

// a < b for two values whose prefix keys are equal.
bool tie_less(std::string_view a, std::string_view b) {
  if (a.size() <= 8 || b.size() <= 8) return a.size() < b.size();
  return compare_unsigned(a.substr(8), b.substr(8)) < 0;
}

// Big-endian two's complement of any length, compared as numbers.
int compare_decimal(std::string_view a, std::string_view b) {
  auto negative = [](std::string_view v) { return !v.empty() && (static_cast<uint8_t>(v[0]) & 0x80) != 0; };
  const bool na = negative(a), nb = negative(b);
  if (na != nb) return na ? -1 : 1;
  // Same sign: sign-extend the shorter to the longer's length, then bytes.
  const size_t n = std::max(a.size(), b.size());
  const uint8_t fill = na ? 0xff : 0x00;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t x = i + a.size() < n ? fill : static_cast<uint8_t>(a[i + a.size() - n]);
    const uint8_t y = i + b.size() < n ? fill : static_cast<uint8_t>(b[i + b.size() - n]);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

template <int (*Compare)(std::string_view, std::string_view), bool kTruncate>
class BytesStatistics final : public StatisticsBuilder {
 public:
  BytesStatistics(size_t width, size_t max_bound_bytes) : width_(width), max_bound_(max_bound_bytes) {}

  void add_values(const void* values, size_t n) override {  // FIXED_LEN_BYTE_ARRAY
    const char* p = static_cast<const char*>(values);
    if (n == 0) return;
    std::string_view lo(p, width_), hi = lo;
    for (size_t i = 1; i < n; ++i) {
      std::string_view v(p + i * width_, width_);
      if (Compare(v, lo) < 0) lo = v;
      if (Compare(hi, v) < 0) hi = v;
    }
    add_bounds(lo, hi);
  }

  void add_byte_arrays(const int32_t* offsets, const uint8_t* data, size_t n) override {
    if (n == 0) return;
    auto value = [&](size_t i) {
      return std::string_view(reinterpret_cast<const char*>(data) + offsets[i],
                              static_cast<size_t>(offsets[i + 1] - offsets[i]));
    };
    size_t lo = 0, hi = 0;
    if constexpr (Compare == compare_unsigned) {
      // Most comparisons are settled by the first 8 bytes, compared as one
      // big-endian integer; memcmp only breaks ties.
      uint64_t lo_key = prefix_key(value(0)), hi_key = lo_key;
      for (size_t i = 1; i < n; ++i) {
        const std::string_view v = value(i);
        const uint64_t key = prefix_key(v);
        // Equal keys of values no longer than 8 bytes decide by length alone.
        if (key < lo_key || (key == lo_key && tie_less(v, value(lo)))) {
          lo = i;
          lo_key = key;
        }
        if (key > hi_key || (key == hi_key && tie_less(value(hi), v))) {
          hi = i;
          hi_key = key;
        }
      }
    } else {
      for (size_t i = 1; i < n; ++i) {
        const std::string_view v = value(i);
        if (Compare(v, value(lo)) < 0) lo = i;
        if (Compare(value(hi), v) < 0) hi = i;
      }
    }
    add_bounds(value(lo), value(hi));
  }

  void merge(const StatisticsBuilder& other) override {
    const auto& o = static_cast<const BytesStatistics&>(other);
    null_count_ += o.null_count_;
    if (o.has_) add_bounds(o.min_, o.max_);
  }
  void reset() override {
    null_count_ = 0;
    has_ = false;
    min_.clear();
    max_.clear();
  }
  bool has_bounds() const override { return has_; }
  std::string min_bytes() const override {
    if (!truncates(min_)) return min_;
    return min_.substr(0, max_bound_);
  }
  std::string max_bytes() const override {
    if (!truncates(max_)) return max_;
    std::string m = max_.substr(0, max_bound_);
    // The smallest string above every value with that prefix: bump the last
    // byte that can be bumped, dropping the 0xff bytes after it.
    while (!m.empty() && static_cast<uint8_t>(m.back()) == 0xff) m.pop_back();
    if (m.empty()) return max_;  // all 0xff: only the full value bounds it
    m.back() = static_cast<char>(static_cast<uint8_t>(m.back()) + 1);
    return m;
  }
  bool min_exact() const override { return !truncates(min_); }
  bool max_exact() const override { return max_bytes() == max_; }
  int compare(std::string_view a, std::string_view b) const override { return Compare(a, b); }

 private:
  bool truncates(const std::string& v) const { return kTruncate && v.size() > max_bound_; }

  void add_bounds(std::string_view lo, std::string_view hi) {
    if (!has_) {
      min_.assign(lo);
      max_.assign(hi);
      has_ = true;
      return;
    }
    if (Compare(lo, min_) < 0) min_.assign(lo);
    if (Compare(max_, hi) < 0) max_.assign(hi);
  }

  size_t width_;
  size_t max_bound_;
  bool has_ = false;
  std::string min_;
  std::string max_;
};

// ---- no known order ----

class CountingStatistics final : public StatisticsBuilder {
 public:
  void add_values(const void*, size_t) override {}
  void add_byte_arrays(const int32_t*, const uint8_t*, size_t) override {}
  void merge(const StatisticsBuilder& other) override { null_count_ += other.null_count(); }
  void reset() override { null_count_ = 0; }
  bool has_bounds() const override { return false; }
  std::string min_bytes() const override { return {}; }
  std::string max_bytes() const override { return {}; }
  int compare(std::string_view, std::string_view) const override { return 0; }
};

template <class T>
std::unique_ptr<StatisticsBuilder> integer_statistics(SortOrder order) {
  if (order == SortOrder::kUnsigned) return std::make_unique<FixedStatistics<UnsignedOrder<T>>>();
  return std::make_unique<FixedStatistics<SignedOrder<T>>>();
}

}  // namespace

namespace {

std::unique_ptr<StatisticsBuilder> make_for_order(const ColumnDescriptor& column, size_t max_bound_bytes) {
  const SortOrder order = column.sort_order;
  if (order == SortOrder::kUnknown) return std::make_unique<CountingStatistics>();
  const auto width = static_cast<size_t>(column.type.type_length);
  const bool decimal = column.type.logical.DECIMAL.has_value();
  switch (column.type.physical) {
    case Type::BOOLEAN:
      return std::make_unique<FixedStatistics<BooleanOrder>>();
    case Type::INT32:
      return integer_statistics<int32_t>(order);
    case Type::INT64:
      return integer_statistics<int64_t>(order);
    case Type::FLOAT:
      return std::make_unique<FixedStatistics<FloatOrder<float>>>();
    case Type::DOUBLE:
      return std::make_unique<FixedStatistics<FloatOrder<double>>>();
    case Type::BYTE_ARRAY:
      if (decimal) return std::make_unique<BytesStatistics<compare_decimal, false>>(0, max_bound_bytes);
      return std::make_unique<BytesStatistics<compare_unsigned, true>>(0, max_bound_bytes);
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (column.type.logical.FLOAT16 && width == 2) return std::make_unique<FixedStatistics<Float16Order>>();
      if (decimal) return std::make_unique<BytesStatistics<compare_decimal, false>>(width, max_bound_bytes);
      return std::make_unique<BytesStatistics<compare_unsigned, false>>(width, max_bound_bytes);
    case Type::INT96:
      break;
  }
  return std::make_unique<CountingStatistics>();
}

}  // namespace

std::unique_ptr<StatisticsBuilder> StatisticsBuilder::make(const ColumnDescriptor& column, size_t max_bound_bytes) {
  auto builder = make_for_order(column, max_bound_bytes);
  const Type physical = column.type.physical;
  builder->reports_nans_ = physical == Type::FLOAT || physical == Type::DOUBLE ||
                           (physical == Type::FIXED_LEN_BYTE_ARRAY && column.type.logical.FLOAT16.has_value());
  // The deprecated fields were compared as signed numbers (or bytes, signed
  // in Java): right for signed numeric columns and booleans only.
  builder->legacy_bounds_ =
      physical == Type::BOOLEAN ||
      (column.sort_order == SortOrder::kSigned &&
       (physical == Type::INT32 || physical == Type::INT64 || physical == Type::FLOAT || physical == Type::DOUBLE));
  return builder;
}

format::Statistics StatisticsBuilder::to_thrift() const {
  format::Statistics s;
  s.null_count = null_count_;
  if (has_bounds()) {
    s.min_value = min_bytes();
    s.max_value = max_bytes();
    s.is_min_value_exact = min_exact();
    s.is_max_value_exact = max_exact();
    if (legacy_bounds_) {
      s.min = s.min_value;
      s.max = s.max_value;
    }
  }
  if (reports_nans_) s.nan_count = nan_count_;
  return s;
}

}  // namespace parq
