// Filters on variant-encoded values; see variant_predicate.h.
#include "variant_predicate.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "parq/error.h"
#include "parq/filter/literal.h"

namespace parq::filter {
namespace {

// Primitive type ids of the variant encoding (VariantEncoding.md).
enum : uint8_t {
  kNullId = 0,
  kTrueId = 1,
  kFalseId = 2,
  kInt8Id = 3,
  kInt16Id = 4,
  kInt32Id = 5,
  kInt64Id = 6,
  kDoubleId = 7,
  kDecimal4Id = 8,
  kDecimal8Id = 9,
  kDecimal16Id = 10,
  kDateId = 11,
  kTimestampId = 12,
  kTimestampNtzId = 13,
  kFloatId = 14,
  kBinaryId = 15,
  kStringId = 16,
  kTimeNtzId = 17,
  kTimestampNanosId = 18,
  kTimestampNtzNanosId = 19,
};

constexpr int kIncomparable = 2;

template <class T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

int three_way(long double a, long double b) {
  // NaN above every number and equal to itself, as the filter orders floats.
  const bool an = std::isnan(a), bn = std::isnan(b);
  if (an || bn) return an == bn ? 0 : an ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

template <class T>
int three_way_int(T a, T b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

ColumnDescriptor synthetic(const std::string& path, format::Type physical) {
  ColumnDescriptor d;
  d.path = {path};
  d.type.physical = physical;
  return d;
}

format::TimeUnit unit(bool nanos) {
  format::TimeUnit u;
  if (nanos) {
    u.NANOS.emplace();
  } else {
    u.MICROS.emplace();
  }
  return u;
}

}  // namespace

bool compare_holds(CompareOp op, int c) {
  switch (op) {
    case CompareOp::kEqual:
      return c == 0;
    case CompareOp::kNotEqual:
      return c != 0;
    case CompareOp::kLess:
      return c < 0;
    case CompareOp::kLessEqual:
      return c <= 0;
    case CompareOp::kGreater:
      return c > 0;
    case CompareOp::kGreaterEqual:
      return c >= 0;
  }
  return false;
}

VariantPredicate::VariantPredicate(Kind kind, CompareOp op, const std::vector<Literal>& literals,
                                   const std::string& path)
    : kind_(kind), op_(op) {
  for (const Literal& l : literals) {
    Operand o;
    o.kind = l.kind;
    switch (l.kind) {
      case Literal::Kind::kNumber: {
        char* end = nullptr;
        o.number = std::strtold(l.text.c_str(), &end);
        if (end == l.text.c_str() || *end != '\0')
          throw Error("filter: " + path + ": '" + l.text + "' is not a number", ErrorKind::kInvalidArgument);
        break;
      }
      case Literal::Kind::kString:
      case Literal::Kind::kBinary:
        o.bytes = l.text;
        break;
      case Literal::Kind::kBoolean:
        o.boolean = l.text == "true";
        break;
      case Literal::Kind::kDate: {
        ColumnDescriptor d = synthetic(path, format::Type::INT32);
        d.type.logical.DATE.emplace();
        o.days = static_cast<int32_t>(bind_literal(d, l).integer);
        break;
      }
      case Literal::Kind::kTime: {
        ColumnDescriptor d = synthetic(path, format::Type::INT64);
        d.type.logical.TIME = format::TimeType{false, unit(false)};
        o.micros = bind_literal(d, l).integer;
        break;
      }
      case Literal::Kind::kTimestamp: {
        // In UTC for values adjusted to UTC; as written for local ones (a
        // literal naming a zone has no local reading: those never compare).
        ColumnDescriptor d = synthetic(path, format::Type::INT64);
        d.type.logical.TIMESTAMP = format::TimestampType{true, unit(false)};
        o.micros = bind_literal(d, l).integer;
        d.type.logical.TIMESTAMP = format::TimestampType{true, unit(true)};
        try {
          o.nanos = bind_literal(d, l).integer;
        } catch (const Error&) {
          o.nanos_fit = false;  // outside the nanosecond range: compare by micros
        }
        d.type.logical.TIMESTAMP = format::TimestampType{false, unit(false)};
        try {
          o.local_micros = bind_literal(d, l).integer;
          d.type.logical.TIMESTAMP = format::TimestampType{false, unit(true)};
          if (o.nanos_fit) o.local_nanos = bind_literal(d, l).integer;
        } catch (const Error&) {
          o.zoned = true;
        }
        break;
      }
      case Literal::Kind::kNull:
        break;
    }
    operands_.push_back(std::move(o));
  }
}

int VariantPredicate::compare(std::span<const uint8_t> v, const Operand& o) {
  if (v.empty()) return kIncomparable;
  const uint8_t header = v[0];
  const uint8_t basic = header & 3, id = header >> 2;
  if (basic == 1) {  // short string
    if (o.kind != Literal::Kind::kString || v.size() < 1u + id) return kIncomparable;
    const std::string_view s(reinterpret_cast<const char*>(v.data()) + 1, id);
    const int c = s.compare(o.bytes);
    return c < 0 ? -1 : c > 0 ? 1 : 0;
  }
  if (basic != 0) return kIncomparable;  // objects and arrays
  auto need = [&](size_t n) { return v.size() >= 1 + n; };
  switch (id) {
    case kTrueId:
    case kFalseId:
      if (o.kind != Literal::Kind::kBoolean) return kIncomparable;
      return three_way_int<int>(id == kTrueId, o.boolean);
    case kInt8Id:
    case kInt16Id:
    case kInt32Id:
    case kInt64Id: {
      if (o.kind != Literal::Kind::kNumber) return kIncomparable;
      const size_t width = id == kInt8Id ? 1 : id == kInt16Id ? 2 : id == kInt32Id ? 4 : 8;
      if (!need(width)) return kIncomparable;
      const int64_t x = width == 1   ? static_cast<int8_t>(v[1])
                        : width == 2 ? load<int16_t>(v.data() + 1)
                        : width == 4 ? load<int32_t>(v.data() + 1)
                                     : load<int64_t>(v.data() + 1);
      return three_way(static_cast<long double>(x), o.number);
    }
    case kFloatId:
      if (o.kind != Literal::Kind::kNumber || !need(4)) return kIncomparable;
      return three_way(load<float>(v.data() + 1), o.number);
    case kDoubleId:
      if (o.kind != Literal::Kind::kNumber || !need(8)) return kIncomparable;
      return three_way(load<double>(v.data() + 1), o.number);
    case kDecimal4Id:
    case kDecimal8Id:
    case kDecimal16Id: {
      if (o.kind != Literal::Kind::kNumber) return kIncomparable;
      const size_t width = id == kDecimal4Id ? 4 : id == kDecimal8Id ? 8 : 16;
      if (!need(1 + width) || v[1] > 38) return kIncomparable;
      __int128 unscaled = 0;
      if (width == 4) {
        unscaled = load<int32_t>(v.data() + 2);
      } else if (width == 8) {
        unscaled = load<int64_t>(v.data() + 2);
      } else {
        unscaled = load<__int128>(v.data() + 2);
      }
      return three_way(static_cast<long double>(unscaled) / std::pow(10.0L, v[1]), o.number);
    }
    case kDateId:
      if (o.kind != Literal::Kind::kDate || !need(4)) return kIncomparable;
      return three_way_int(load<int32_t>(v.data() + 1), o.days);
    case kTimeNtzId:
      if (o.kind != Literal::Kind::kTime || !need(8)) return kIncomparable;
      return three_way_int(load<int64_t>(v.data() + 1), o.micros);
    case kTimestampId:
    case kTimestampNtzId:
    case kTimestampNanosId:
    case kTimestampNtzNanosId: {
      if (o.kind != Literal::Kind::kTimestamp || !need(8)) return kIncomparable;
      const bool utc = id == kTimestampId || id == kTimestampNanosId;
      const bool nanos = id == kTimestampNanosId || id == kTimestampNtzNanosId;
      if (!utc && o.zoned) return kIncomparable;
      const int64_t x = load<int64_t>(v.data() + 1);
      if (nanos && !o.nanos_fit) return o.micros < 0 ? 1 : -1;  // the literal is beyond every nanosecond count
      const int64_t lit = nanos ? (utc ? o.nanos : o.local_nanos) : (utc ? o.micros : o.local_micros);
      return three_way_int(x, lit);
    }
    case kStringId:
    case kBinaryId: {
      const bool text = id == kStringId;
      if (o.kind != (text ? Literal::Kind::kString : Literal::Kind::kBinary) || !need(4)) return kIncomparable;
      const uint32_t n = load<uint32_t>(v.data() + 1);
      if (v.size() - 5 < n) return kIncomparable;
      const std::string_view s(reinterpret_cast<const char*>(v.data()) + 5, n);
      const int c = s.compare(o.bytes);
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    default:
      return kIncomparable;  // null, UUID and types without literals
  }
}

bool VariantPredicate::holds(std::span<const uint8_t> value) const {
  const bool is_null = !value.empty() && value[0] == 0;  // primitive 0: the variant null
  switch (kind_) {
    case Kind::kIsNull:
      return is_null;
    case Kind::kIsNotNull:
      return !value.empty() && !is_null;
    case Kind::kCompare: {
      const int c = compare(value, operands_[0]);
      return c != kIncomparable && compare_holds(op_, c);
    }
    case Kind::kIn:
    case Kind::kNotIn: {
      bool comparable = false, found = false;
      for (const Operand& o : operands_) {
        const int c = compare(value, o);
        if (c == kIncomparable) continue;
        comparable = true;
        found = found || c == 0;
      }
      return comparable && found == (kind_ == Kind::kIn);
    }
    case Kind::kStartsWith:
    case Kind::kNotStartsWith: {
      // Only strings compare with a prefix.
      Operand whole = operands_[0];
      if (compare(value, whole) == kIncomparable) return false;
      std::string_view s;
      if ((value[0] & 3) == 1) {
        s = {reinterpret_cast<const char*>(value.data()) + 1, static_cast<size_t>(value[0] >> 2)};
      } else {
        s = {reinterpret_cast<const char*>(value.data()) + 5, load<uint32_t>(value.data() + 1)};
      }
      const bool starts = s.size() >= whole.bytes.size() && s.compare(0, whole.bytes.size(), whole.bytes) == 0;
      return starts == (kind_ == Kind::kStartsWith);
    }
  }
  return false;
}

std::string VariantPredicate::to_string() const {
  switch (kind_) {
    case Kind::kCompare:
      return std::string("variant ") + filter::to_string(op_) + " <value>";
    case Kind::kIn:
      return "variant IN (" + std::to_string(operands_.size()) + " values)";
    case Kind::kNotIn:
      return "variant NOT IN (" + std::to_string(operands_.size()) + " values)";
    case Kind::kStartsWith:
      return "variant LIKE <prefix>";
    case Kind::kNotStartsWith:
      return "variant NOT LIKE <prefix>";
    case Kind::kIsNull:
      return "variant IS VARIANT NULL";
    case Kind::kIsNotNull:
      return "variant IS NOT VARIANT NULL";
  }
  return "variant";
}

}  // namespace parq::filter
