// The shredded-type table and array checks; see shredded_columns.h.
#include "shredded_columns.h"

#include "parq/error.h"
#include "parq/schema/logical_type.h"

namespace parq::variant {

using P = format::Type;

std::optional<ShreddedPrimitive> shredded_primitive(const ValueType& t) {
  const format::LogicalType& l = t.logical;
  const bool annotated = has_logical_type(l);
  ShreddedPrimitive p;
  auto decimal = [&](variant::Type width) -> std::optional<ShreddedPrimitive> {
    if (l.DECIMAL->scale < 0 || l.DECIMAL->scale > 38) return std::nullopt;
    p.type = width;
    p.scale = static_cast<uint8_t>(l.DECIMAL->scale);
    p.precision = l.DECIMAL->precision;
    return p;
  };
  auto is = [&](variant::Type v) -> std::optional<ShreddedPrimitive> {
    p.type = v;
    return p;
  };
  switch (t.physical) {
    case P::BOOLEAN:
      if (!annotated) return is(variant::Type::kBoolean);
      break;
    case P::INT32:
      if (!annotated) return is(variant::Type::kInt32);
      if (l.INTEGER && l.INTEGER->is_signed && l.INTEGER->bit_width <= 32)
        return is(l.INTEGER->bit_width == 8    ? variant::Type::kInt8
                  : l.INTEGER->bit_width == 16 ? variant::Type::kInt16
                                               : variant::Type::kInt32);
      if (l.DECIMAL) return decimal(variant::Type::kDecimal4);
      if (l.DATE) return is(variant::Type::kDate);
      break;
    case P::INT64:
      if (!annotated || (l.INTEGER && l.INTEGER->is_signed && l.INTEGER->bit_width == 64))
        return is(variant::Type::kInt64);
      if (l.DECIMAL) return decimal(variant::Type::kDecimal8);
      if (l.TIME && !l.TIME->is_adjusted_to_utc && l.TIME->unit.MICROS) return is(variant::Type::kTimeNtzMicros);
      if (l.TIMESTAMP && l.TIMESTAMP->unit.MICROS)
        return is(l.TIMESTAMP->is_adjusted_to_utc ? variant::Type::kTimestampMicros
                                                  : variant::Type::kTimestampNtzMicros);
      if (l.TIMESTAMP && l.TIMESTAMP->unit.NANOS)
        return is(l.TIMESTAMP->is_adjusted_to_utc ? variant::Type::kTimestampNanos : variant::Type::kTimestampNtzNanos);
      break;
    case P::FLOAT:
      if (!annotated) return is(variant::Type::kFloat);
      break;
    case P::DOUBLE:
      if (!annotated) return is(variant::Type::kDouble);
      break;
    case P::BYTE_ARRAY:
      if (!annotated) return is(variant::Type::kBinary);
      if (l.STRING) return is(variant::Type::kString);
      if (l.DECIMAL) return decimal(variant::Type::kDecimal16);
      break;
    case P::FIXED_LEN_BYTE_ARRAY:
      if (l.UUID && t.type_length == 16) return is(variant::Type::kUuid);
      if (l.DECIMAL && t.type_length >= 1 && t.type_length <= 16) return decimal(variant::Type::kDecimal16);
      break;
    case P::INT96:
      break;
  }
  return std::nullopt;
}

std::string type_text(const ValueType& type) {
  std::string text = format::to_string(type.physical);
  if (type.physical == P::FIXED_LEN_BYTE_ARRAY) text += "(" + std::to_string(type.type_length) + ")";
  if (has_logical_type(type.logical)) text += " " + logical_type_to_string(type.logical);
  return text;
}

namespace {

[[noreturn]] void malformed(const std::string& path, const std::string& what) {
  throw Error("variant " + path + ": array " + what, ErrorKind::kInvalidArgument);
}

}  // namespace

int64_t check_array(const Array& a, int64_t slots, const std::string& path) {
  if (a.length < slots) malformed(path, "is shorter than its parent");
  if (!a.validity.empty() && a.validity.size() * 8 < static_cast<uint64_t>(slots))
    malformed(path, "validity holds fewer bits than slots");
  const bool offsets = a.kind == ArrayKind::kList || a.kind == ArrayKind::kMap ||
                       (a.kind == ArrayKind::kLeaf && a.type.physical == P::BYTE_ARRAY);
  if (offsets) {
    if (slots == 0) return 0;
    if (a.offsets.size() / sizeof(int32_t) < static_cast<uint64_t>(slots) + 1)
      malformed(path, "offsets hold fewer than length + 1 entries");
    const int32_t* o = a.offsets_data();
    if (o[0] < 0) malformed(path, "first offset is negative");
    for (int64_t i = 0; i < slots; ++i)
      if (o[i + 1] < o[i]) malformed(path, "offsets decrease at slot " + std::to_string(i));
    if (a.kind == ArrayKind::kLeaf && static_cast<uint64_t>(o[slots]) > a.values.size())
      malformed(path, "offsets point past the values");
    return o[slots];
  }
  if (a.kind == ArrayKind::kLeaf) {
    const uint64_t bits = a.type.physical == P::BOOLEAN ? 1 : 8 * static_cast<uint64_t>(a.value_width());
    if (a.values.size() * 8 < bits * static_cast<uint64_t>(slots)) malformed(path, "values hold fewer than its slots");
  }
  return slots;
}

}  // namespace parq::variant
