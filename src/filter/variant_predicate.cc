// Filters on variant-encoded values; see variant_predicate.h.
#include "variant_predicate.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "parq/error.h"
#include "parq/filter/literal.h"
#include "parq/variant/variant.h"

namespace parq::filter {
namespace {

constexpr int kIncomparable = 2;

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

// The primitive value the bytes hold; nullopt for objects and arrays (no
// comparison applies; their field ids would need the metadata) and for
// bytes that are not a variant value.
std::optional<variant::Value> primitive_of(std::span<const uint8_t> bytes) {
  static const uint8_t kEmpty[] = {0x01, 0x00, 0x00};
  static const variant::Metadata kNoKeys = variant::Metadata::parse(kEmpty);
  if (bytes.empty() || (bytes[0] & 3) >= 2) return std::nullopt;
  try {
    return variant::Value::parse(kNoKeys, bytes);
  } catch (const Error&) {
    return std::nullopt;
  }
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

int VariantPredicate::compare(const variant::Value& v, const Operand& o) {
  using T = variant::Type;
  switch (v.type()) {
    case T::kBoolean:
      if (o.kind != Literal::Kind::kBoolean) return kIncomparable;
      return three_way_int<int>(v.boolean(), o.boolean);
    case T::kInt8:
    case T::kInt16:
    case T::kInt32:
    case T::kInt64:
      if (o.kind != Literal::Kind::kNumber) return kIncomparable;
      return three_way(static_cast<long double>(v.integer()), o.number);
    case T::kFloat:
    case T::kDouble:
      if (o.kind != Literal::Kind::kNumber) return kIncomparable;
      return three_way(v.real(), o.number);
    case T::kDecimal4:
    case T::kDecimal8:
    case T::kDecimal16: {
      if (o.kind != Literal::Kind::kNumber) return kIncomparable;
      const variant::Decimal d = v.decimal();
      __int128 unscaled;
      std::memcpy(&unscaled, d.unscaled.data(), 16);
      return three_way(static_cast<long double>(unscaled) / std::pow(10.0L, d.scale), o.number);
    }
    case T::kDate:
      if (o.kind != Literal::Kind::kDate) return kIncomparable;
      return three_way_int(static_cast<int32_t>(v.integer()), o.days);
    case T::kTimeNtzMicros:
      if (o.kind != Literal::Kind::kTime) return kIncomparable;
      return three_way_int(v.integer(), o.micros);
    case T::kTimestampMicros:
    case T::kTimestampNtzMicros:
    case T::kTimestampNanos:
    case T::kTimestampNtzNanos: {
      if (o.kind != Literal::Kind::kTimestamp) return kIncomparable;
      const bool utc = v.type() == T::kTimestampMicros || v.type() == T::kTimestampNanos;
      const bool nanos = v.type() == T::kTimestampNanos || v.type() == T::kTimestampNtzNanos;
      if (!utc && o.zoned) return kIncomparable;
      if (nanos && !o.nanos_fit) return o.micros < 0 ? 1 : -1;  // the literal is beyond every nanosecond count
      const int64_t lit = nanos ? (utc ? o.nanos : o.local_nanos) : (utc ? o.micros : o.local_micros);
      return three_way_int(v.integer(), lit);
    }
    case T::kString:
    case T::kBinary: {
      if (o.kind != (v.type() == T::kString ? Literal::Kind::kString : Literal::Kind::kBinary)) return kIncomparable;
      const auto b = v.type() == T::kBinary ? v.binary() : std::span<const uint8_t>();
      const std::string_view s =
          v.type() == T::kString ? v.string() : std::string_view(reinterpret_cast<const char*>(b.data()), b.size());
      const int c = s.compare(o.bytes);
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    default:
      return kIncomparable;  // null, UUID and types without literals
  }
}

bool VariantPredicate::holds(std::span<const uint8_t> value) const {
  const bool is_null = !value.empty() && value[0] == 0;  // primitive 0: the variant null
  if (kind_ == Kind::kIsNull) return is_null;
  if (kind_ == Kind::kIsNotNull) return !value.empty() && !is_null;
  const std::optional<variant::Value> v = primitive_of(value);
  return v && holds_value(*v);
}

bool VariantPredicate::holds_at(std::span<const uint8_t> metadata, const std::span<const uint8_t>* value) const {
  // A missing field (or value, or an object expected where there is none)
  // is SQL's NULL: only IS NULL holds for it.
  if (value == nullptr) return kind_ == Kind::kIsNull;
  try {
    const variant::Metadata m = variant::Metadata::parse(metadata);
    std::optional<variant::Value> v = variant::Value::parse(m, *value);
    for (const std::string& name : path_) {
      if (v->type() != variant::Type::kObject) return kind_ == Kind::kIsNull;
      v = v->field(name);
      if (!v) return kind_ == Kind::kIsNull;
    }
    const bool is_null = v->type() == variant::Type::kNull;
    if (kind_ == Kind::kIsNull) return is_null;
    if (kind_ == Kind::kIsNotNull) return !is_null;
    return holds_value(*v);
  } catch (const Error&) {
    return false;  // bytes that are not a variant satisfy nothing, as holds() has it
  }
}

bool VariantPredicate::holds_value(const variant::Value& v) const {
  switch (kind_) {
    case Kind::kCompare: {
      const int c = compare(v, operands_[0]);
      return c != kIncomparable && compare_holds(op_, c);
    }
    case Kind::kIn:
    case Kind::kNotIn: {
      bool comparable = false, found = false;
      for (const Operand& o : operands_) {
        const int c = compare(v, o);
        if (c == kIncomparable) continue;
        comparable = true;
        found = found || c == 0;
      }
      return comparable && found == (kind_ == Kind::kIn);
    }
    case Kind::kStartsWith:
    case Kind::kNotStartsWith: {
      // Only strings compare with a prefix.
      if (v.type() != variant::Type::kString) return false;
      const std::string_view s = v.string(), prefix = operands_[0].bytes;
      const bool starts = s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
      return starts == (kind_ == Kind::kStartsWith);
    }
    default:
      return false;
  }
}

std::string VariantPredicate::to_string() const {
  if (!path_.empty()) {
    std::string where = "variant";
    for (const std::string& name : path_) where += "." + name;
    VariantPredicate plain = *this;
    plain.path_.clear();
    return where + plain.to_string().substr(7);
  }
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
