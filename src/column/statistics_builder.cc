// Statistics builders (statistics_builder.h), chosen once per column by
// make():
//   - fixed-width numbers: statistics_builder_types.cc;
//   - byte strings, in unsigned lexicographic order (strings, binaries,
//     FIXED_LEN_BYTE_ARRAY) or as big-endian two's-complement decimals
//     (BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY): here;
//   - INT96: chronological (INT96_TIMESTAMP_ORDER), statistics_builder_types.cc;
//   - no order known (INTERVAL, unknown annotations): counts only.
// Bounds are kept untruncated, so that merging pages into a chunk stays
// exact; truncation happens when they are read out.
#include "statistics_builder.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "parq/error.h"
#include "parq/util/utf8.h"

namespace parq {
namespace {

using format::Type;

int sign_of(int c) { return (c > 0) - (c < 0); }

// ---- orders of byte strings ----

// 8 bytes from `p` (fewer when `size` < 8, zero-padded) as a big-endian
// number: where two strings' keys differ, they order the strings.
inline uint64_t key_at(const char* p, size_t size) {
  uint64_t key = 0;
  if (size >= 8) {
    std::memcpy(&key, p, 8);
  } else {
    for (size_t i = 0; i < size; ++i) key |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  }
  return __builtin_bswap64(key);
}

struct UnsignedBytes {
  // memcmp, the shorter of two equal prefixes first.
  static int compare(std::string_view a, std::string_view b) {
    const size_t n = std::min(a.size(), b.size());
    const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
    if (c != 0) return sign_of(c);
    return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
  }

  // The same for two strings whose first 8 bytes are known equal, inline
  // and 8 bytes a step: short strings would spend more on calling memcmp
  // than on comparing.
  static int compare_after_key(std::string_view a, std::string_view b) {
    const size_t n = std::min(a.size(), b.size());
    for (size_t i = 8; i < n; i += 8) {
      const uint64_t x = key_at(a.data() + i, std::min<size_t>(8, a.size() - i));
      const uint64_t y = key_at(b.data() + i, std::min<size_t>(8, b.size() - i));
      if (x != y) return x < y ? -1 : 1;
    }
    return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
  }

  // Indices of the least and greatest of n values. Most comparisons are
  // settled by the 8-byte keys, without touching the candidates' bytes.
  template <class View>
  static void extremes(size_t n, const View& value, size_t& lo, size_t& hi) {
    std::string_view lo_v = value(0), hi_v = lo_v;
    uint64_t lo_key = key_at(lo_v.data(), lo_v.size()), hi_key = lo_key;
    lo = hi = 0;
    for (size_t i = 1; i < n; ++i) {
      const std::string_view v = value(i);
      const uint64_t key = key_at(v.data(), v.size());
      if (key < lo_key || (key == lo_key && compare_after_key(v, lo_v) < 0)) {
        lo = i;
        lo_v = v;
        lo_key = key;
      } else if (key > hi_key || (key == hi_key && compare_after_key(v, hi_v) > 0)) {
        hi = i;
        hi_v = v;
        hi_key = key;
      }
    }
  }
};

struct DecimalBytes {
  // Big-endian two's complement of any lengths, compared as numbers: the
  // sign first; under one sign, the longer value's extra leading bytes
  // against the shorter's sign extension, then the rest as unsigned bytes.
  static int compare(std::string_view a, std::string_view b) {
    const bool neg_a = !a.empty() && (static_cast<uint8_t>(a[0]) & 0x80) != 0;
    const bool neg_b = !b.empty() && (static_cast<uint8_t>(b[0]) & 0x80) != 0;
    if (neg_a != neg_b) return neg_a ? -1 : 1;
    const uint8_t fill = neg_a ? 0xff : 0x00;
    if (a.size() != b.size()) {
      const bool a_longer = a.size() > b.size();
      std::string_view& longer = a_longer ? a : b;
      const size_t extra = longer.size() - (a_longer ? b.size() : a.size());
      for (size_t i = 0; i < extra; ++i) {
        const auto byte = static_cast<uint8_t>(longer[i]);
        if (byte != fill) return (byte > fill) == a_longer ? 1 : -1;
      }
      longer.remove_prefix(extra);
    }
    return a.empty() ? 0 : sign_of(std::memcmp(a.data(), b.data(), a.size()));
  }

  template <class View>
  static void extremes(size_t n, const View& value, size_t& lo, size_t& hi) {
    std::string_view lo_v = value(0), hi_v = lo_v;
    lo = hi = 0;
    for (size_t i = 1; i < n; ++i) {
      const std::string_view v = value(i);
      if (compare(v, lo_v) < 0) {
        lo = i;
        lo_v = v;
      } else if (compare(v, hi_v) > 0) {
        hi = i;
        hi_v = v;
      }
    }
  }
};

// ---- truncation ----

enum class Truncation { kNone, kBytes, kUtf8 };

bool is_continuation(char c) { return (static_cast<uint8_t>(c) & 0xc0) == 0x80; }

// The length of the UTF-8 sequence `lead` starts; 0 for no lead byte.
size_t sequence_length(char lead) {
  const auto b = static_cast<uint8_t>(lead);
  if (b < 0x80) return 1;
  if ((b & 0xe0) == 0xc0) return 2;
  if ((b & 0xf0) == 0xe0) return 3;
  if ((b & 0xf8) == 0xf0) return 4;
  return 0;
}

// Where to cut `v` (longer than `limit`) to at most `limit` bytes. UTF-8
// cuts move back to the start of the character they split; malformed text
// is cut as bytes.
size_t cut_point(std::string_view v, size_t limit, Truncation t) {
  if (t != Truncation::kUtf8 || !is_continuation(v[limit])) return limit;
  size_t start = limit;
  while (start > 0 && limit - start < 3 && is_continuation(v[start])) --start;
  const size_t length = sequence_length(v[start]);
  return length > 0 && start + length > limit ? start : limit;
}

// The code point of the well-formed character filling `c`, or -1.
int32_t decode_char(std::string_view c) {
  const auto b0 = static_cast<uint8_t>(c[0]);
  if (c.size() == 1) return b0 < 0x80 ? b0 : -1;
  static constexpr uint8_t kLeadMask[5] = {0, 0, 0x1f, 0x0f, 0x07};
  static constexpr uint8_t kLeadBits[5] = {0, 0, 0xc0, 0xe0, 0xf0};
  static constexpr int32_t kMinimum[5] = {0, 0, 0x80, 0x800, 0x10000};
  const size_t n = c.size();
  if (n > 4 || (b0 & ~kLeadMask[n] & 0xff) != kLeadBits[n]) return -1;
  int32_t cp = b0 & kLeadMask[n];
  for (size_t i = 1; i < n; ++i) cp = (cp << 6) | (static_cast<uint8_t>(c[i]) & 0x3f);
  if (cp < kMinimum[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return -1;
  return cp;
}

// The prefix with its last byte below 0xFF incremented and the 0xFF bytes
// after it dropped: the shortest string above every string that starts
// with `prefix`. None when the prefix is all 0xFF.
std::optional<std::string> increment_bytes(std::string prefix) {
  while (!prefix.empty() && static_cast<uint8_t>(prefix.back()) == 0xff) prefix.pop_back();
  if (prefix.empty()) return std::nullopt;
  prefix.back() = static_cast<char>(static_cast<uint8_t>(prefix.back()) + 1);
  return prefix;
}

// The same for text: the last character that has a successor within
// `limit` bytes is replaced by it, the characters after it dropped, so the
// result stays UTF-8. UTF-8 byte order is code point order, so the result
// is above every string with the prefix. Malformed text falls back to bytes.
std::optional<std::string> increment_utf8(std::string prefix, size_t limit) {
  while (!prefix.empty()) {
    size_t start = prefix.size() - 1;
    while (start > 0 && prefix.size() - start < 4 && is_continuation(prefix[start])) --start;
    const int32_t cp = decode_char(std::string_view(prefix).substr(start));
    if (cp < 0) return increment_bytes(std::move(prefix));
    prefix.resize(start);
    int32_t next = cp + 1;
    if (next == 0xd800) next = 0xe000;  // surrogates are not characters
    if (next > 0x10ffff) continue;
    std::string c;
    append_utf8(c, static_cast<uint32_t>(next));
    if (start + c.size() > limit) continue;
    return prefix + c;
  }
  return std::nullopt;
}

// ---- byte-string statistics ----

template <class Order>
class BytesStatistics final : public StatisticsBuilder {
 public:
  // `width` is the FIXED_LEN_BYTE_ARRAY length (0 for BYTE_ARRAY).
  BytesStatistics(size_t width, Truncation truncation, size_t max_bound_bytes)
      : width_(width), truncation_(max_bound_bytes == 0 ? Truncation::kNone : truncation), limit_(max_bound_bytes) {}

  void add_values(const void* values, size_t n) override {
    if (width_ == 0) detail::wrong_statistics_input("fixed-width values", "BYTE_ARRAY");
    const char* p = static_cast<const char*>(values);
    add_batch(n, [p, w = width_](size_t i) { return std::string_view(p + i * w, w); });
  }
  void add_byte_arrays(const int32_t* offsets, const uint8_t* data, size_t n) override {
    const char* p = reinterpret_cast<const char*>(data);
    add_batch(n, [p, offsets](size_t i) {
      return std::string_view(p + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
    });
  }
  void merge(const StatisticsBuilder& other) override {
    const auto* o = dynamic_cast<const BytesStatistics*>(&other);
    if (o == nullptr) detail::wrong_statistics_input("statistics of another column", "byte array");
    null_count_ += o->null_count_;
    nan_count_ += o->nan_count_;
    if (o->has_) include(o->min_, o->max_);
  }
  void reset() override {
    null_count_ = nan_count_ = 0;
    has_ = false;
    min_.clear();
    max_.clear();
  }

  bool has_bounds() const override { return has_; }
  std::string min_bytes() const override {
    if (!truncates(min_)) return min_;
    return min_.substr(0, cut_point(min_, limit_, truncation_));
  }
  std::string max_bytes() const override {
    std::optional<std::string> bound = truncated_max();
    return bound ? std::move(*bound) : max_;
  }
  bool min_exact() const override { return !truncates(min_); }
  bool max_exact() const override { return !truncated_max(); }
  int compare(std::string_view a, std::string_view b) const override { return Order::compare(a, b); }

 private:
  // One batch: the extremes as views into the caller's values, copied out
  // only when they move a bound.
  template <class View>
  void add_batch(size_t n, const View& value) {
    if (n == 0) return;
    size_t lo = 0, hi = 0;
    Order::extremes(n, value, lo, hi);
    include(value(lo), value(hi));
  }

  void include(std::string_view lo, std::string_view hi) {
    if (!has_) {
      min_.assign(lo);
      max_.assign(hi);
      has_ = true;
      return;
    }
    if (Order::compare(lo, min_) < 0) min_.assign(lo);
    if (Order::compare(hi, max_) > 0) max_.assign(hi);
  }

  bool truncates(const std::string& bound) const {
    return has_ && truncation_ != Truncation::kNone && bound.size() > limit_;
  }

  // The truncated max, or none when it is kept whole.
  std::optional<std::string> truncated_max() const {
    if (!truncates(max_)) return std::nullopt;
    std::string prefix = max_.substr(0, cut_point(max_, limit_, truncation_));
    if (truncation_ == Truncation::kUtf8) return increment_utf8(std::move(prefix), limit_);
    return increment_bytes(std::move(prefix));
  }

  size_t width_;
  Truncation truncation_;
  size_t limit_;
  bool has_ = false;
  std::string min_;
  std::string max_;
};

// ---- no order: counts only ----

class CountingStatistics final : public StatisticsBuilder {
 public:
  void add_values(const void*, size_t) override {}
  void add_byte_arrays(const int32_t*, const uint8_t*, size_t) override {}
  void merge(const StatisticsBuilder& other) override {
    if (dynamic_cast<const CountingStatistics*>(&other) == nullptr)
      detail::wrong_statistics_input("statistics of another column", "unordered");
    null_count_ += other.null_count();
  }
  void reset() override { null_count_ = nan_count_ = 0; }
  bool has_bounds() const override { return false; }
  std::string min_bytes() const override { return {}; }
  std::string max_bytes() const override { return {}; }
  // No order is defined; bytes at least give a stable answer.
  int compare(std::string_view a, std::string_view b) const override { return UnsignedBytes::compare(a, b); }
};

Truncation truncation_for(const ValueType& type) {
  const format::LogicalType& t = type.logical;
  if (t.STRING || t.ENUM || t.JSON) return Truncation::kUtf8;
  return Truncation::kBytes;
}

std::unique_ptr<StatisticsBuilder> make_for_order(const ColumnDescriptor& column, size_t max_bound_bytes,
                                                  bool float_total_order) {
  const ValueType& type = column.type;
  const bool floating = type.physical == Type::FLOAT || type.physical == Type::DOUBLE ||
                        (type.physical == Type::FIXED_LEN_BYTE_ARRAY && type.logical.FLOAT16);
  // INT96 has no order of its own (its TYPE_ORDER statistics mean nothing),
  // so its bounds are written under INT96_TIMESTAMP_ORDER, which the file
  // writer names in column_orders.
  if (type.physical == Type::INT96) return detail::make_number_statistics(column, true);
  if (auto geo = detail::make_geo_statistics(column)) return geo;
  if (column.sort_order == SortOrder::kUnknown) {
    // NaNs are still counted, for the column index's nan_counts.
    if (floating) return detail::make_number_statistics(column, false);
    return std::make_unique<CountingStatistics>();
  }
  if (auto numbers = detail::make_number_statistics(column, true, float_total_order)) return numbers;
  const bool is_unsigned = column.sort_order == SortOrder::kUnsigned;
  const bool decimal = type.logical.DECIMAL.has_value();
  switch (type.physical) {
    case Type::BYTE_ARRAY:
      if (is_unsigned)
        return std::make_unique<BytesStatistics<UnsignedBytes>>(0, truncation_for(type), max_bound_bytes);
      if (decimal) return std::make_unique<BytesStatistics<DecimalBytes>>(0, Truncation::kNone, 0);
      break;
    case Type::FIXED_LEN_BYTE_ARRAY: {
      const auto width = static_cast<size_t>(type.type_length);
      if (is_unsigned) return std::make_unique<BytesStatistics<UnsignedBytes>>(width, Truncation::kNone, 0);
      if (decimal) return std::make_unique<BytesStatistics<DecimalBytes>>(width, Truncation::kNone, 0);
      break;
    }
    default:
      break;
  }
  // A signed order on byte arrays other than decimals has no definition.
  return std::make_unique<CountingStatistics>();
}

}  // namespace

namespace detail {

void wrong_statistics_input(const char* what, const char* column_kind) {
  throw Error(std::string("statistics: ") + what + " given to the builder of a " + column_kind + " column",
              ErrorKind::kInvalidArgument);
}

}  // namespace detail

std::unique_ptr<StatisticsBuilder> StatisticsBuilder::make(const ColumnDescriptor& column, size_t max_bound_bytes,
                                                           bool float_total_order) {
  std::unique_ptr<StatisticsBuilder> builder = make_for_order(column, max_bound_bytes, float_total_order);
  const Type physical = column.type.physical;
  builder->reports_nans_ = physical == Type::FLOAT || physical == Type::DOUBLE ||
                           (physical == Type::FIXED_LEN_BYTE_ARRAY && column.type.logical.FLOAT16.has_value());
  // The deprecated fields were compared as signed numbers: right for signed
  // numeric columns, and for booleans (false < true either way).
  const bool signed_number =
      physical == Type::INT32 || physical == Type::INT64 || physical == Type::FLOAT || physical == Type::DOUBLE;
  // Not under total order, whose NaN bounds the old fields never knew.
  builder->legacy_bounds_ =
      (physical == Type::BOOLEAN && column.sort_order != SortOrder::kUnknown) ||
      (signed_number && column.sort_order == SortOrder::kSigned && !(float_total_order && builder->reports_nans_));
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
