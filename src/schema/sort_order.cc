// Sort orders of column values for statistics, from the ColumnOrder comment
// of parquet.thrift and the per-type rules of LogicalTypes.md.
#include "parq/schema/logical_type.h"

namespace parq {
namespace {

using format::LogicalType;
using format::Type;

SortOrder logical_order(const LogicalType& t) {
  if (t.STRING || t.ENUM || t.JSON || t.BSON || t.UUID) return SortOrder::kUnsigned;
  if (t.INTEGER) return t.INTEGER->is_signed ? SortOrder::kSigned : SortOrder::kUnsigned;
  if (t.DECIMAL || t.DATE || t.TIME || t.TIMESTAMP || t.FLOAT16) return SortOrder::kSigned;
  // LIST, MAP, VARIANT, GEOMETRY, GEOGRAPHY, FILE are undefined by the spec;
  // UNKNOWN columns are all null, so their statistics mean nothing.
  return SortOrder::kUnknown;
}

SortOrder physical_order(Type physical) {
  switch (physical) {
    case Type::BOOLEAN:  // false < true under either order; Java and Arrow say unsigned
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      return SortOrder::kUnsigned;
    case Type::INT32:
    case Type::INT64:
    case Type::FLOAT:
    case Type::DOUBLE:
      return SortOrder::kSigned;
    case Type::INT96:  // TYPE_ORDER statistics of INT96 must be ignored
      break;
  }
  return SortOrder::kUnknown;
}

}  // namespace

const char* to_string(SortOrder order) {
  switch (order) {
    case SortOrder::kSigned:
      return "SIGNED";
    case SortOrder::kUnsigned:
      return "UNSIGNED";
    case SortOrder::kUnknown:
      break;
  }
  return "UNKNOWN";
}

SortOrder sort_order(const ValueType& type) {
  if (has_logical_type(type.logical)) return logical_order(type.logical);
  if (type.converted) {
    if (*type.converted == format::ConvertedType::INTERVAL) return SortOrder::kUnknown;
    // A hand-built ValueType may carry only the legacy annotation. Decimal
    // parameters do not affect the order.
    LogicalType mapped = logical_type_from_converted(*type.converted, 0, 1);
    if (has_logical_type(mapped)) return logical_order(mapped);
  }
  return physical_order(type.physical);
}

}  // namespace parq
