// Literals bound to a column: a filter's value in the column's own physical
// storage, and how the column's values order.
//
// Binding types a literal by the column's logical type: "12.50" becomes the
// unscaled 1250 of a DECIMAL(9,2), DATE '2020-01-31' the INT32 day count,
// TIMESTAMP '2020-01-31 10:00:00+02' the INT64 count of the column's unit
// since the epoch in UTC, '0f0e...' a UUID's 16 bytes. A literal that does
// not fit (a fraction for an integer, more digits than the decimal's
// precision, a value outside INTEGER(8, false), a fraction finer than the
// timestamp's unit, a string of the wrong width for a FIXED_LEN_BYTE_ARRAY)
// is an error naming the column, never a silent rounding. FLOAT columns (and
// FLOAT16) take their literal rounded to float, as SQL engines cast it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "parq/filter/expression.h"
#include "parq/schema/schema.h"

namespace parq::filter {

// How a column's values compare, from its physical and logical type.
enum class ValueOrder : uint8_t {
  kBoolean,      // false < true
  kInt32,        // INT32, signed (DATE, TIME(MILLIS), DECIMAL, INT(8/16/32))
  kUInt32,       // INT32 annotated INTEGER(n, false)
  kInt64,        // INT64, signed
  kUInt64,       // INT64 annotated INTEGER(64, false)
  kFloat,        // FLOAT: NaN equal to itself and above every number; -0 = 0
  kDouble,       // DOUBLE, likewise
  kFloat16,      // FIXED_LEN_BYTE_ARRAY(2) FLOAT16 (little-endian), likewise
  kBytes,        // byte arrays, unsigned byte-wise (strings, UUID, binary)
  kSignedBytes,  // DECIMAL in byte arrays: big-endian two's complement
  kInt96,        // INT96 timestamps: by instant
  kUnordered,    // INTERVAL: only = and != apply
};

const char* to_string(ValueOrder order);
ValueOrder value_order(const ColumnDescriptor& column);
// FLOAT, DOUBLE and FLOAT16: the orders that have NaN.
inline bool is_floating(ValueOrder o) {
  return o == ValueOrder::kFloat || o == ValueOrder::kDouble || o == ValueOrder::kFloat16;
}

// One value in a column's physical storage.
struct PhysicalValue {
  int64_t integer = 0;  // BOOLEAN (0, 1), INT32 (sign-extended bits), INT64 (bits)
  double real = 0;      // FLOAT, DOUBLE, FLOAT16 (the float's value)
  std::string bytes;    // BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 (12 bytes)
  bool operator==(const PhysicalValue&) const = default;
};

// `literal` in `column`'s storage; throws parq::Error naming the column when
// it does not fit or cannot apply (kNull is not bindable: callers handle it).
PhysicalValue bind_literal(const ColumnDescriptor& column, const Literal& literal);

// A value written as text the way `parq cat` prints it (no SQL quotes or
// keywords): "2020-01-31" for a DATE, "12.50" for a DECIMAL, a string's
// bytes for a STRING. For tools that take a value on the command line.
PhysicalValue physical_value_from_text(const ColumnDescriptor& column, std::string_view text);

// The value's PLAIN encoding (byte arrays without their length prefix):
// the form statistics bounds hold and bloom filters hash.
std::string plain_bytes(const ColumnDescriptor& column, const PhysicalValue& value);

// A value decoded from PLAIN bytes (a statistics bound); false when the
// bytes do not have the column's width.
bool from_plain_bytes(const ColumnDescriptor& column, std::string_view plain, PhysicalValue& out);

// Three-way comparison of two values of a column of order `order`.
int compare_values(ValueOrder order, const PhysicalValue& a, const PhysicalValue& b);

}  // namespace parq::filter
