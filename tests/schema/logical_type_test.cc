// Tests of logical type resolution (LogicalType and the ConvertedType
// backward-compatibility rules), applicability, printing and sort orders.
#include "parq/schema/logical_type.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

namespace parq {
namespace {

using format::ConvertedType;
using format::LogicalType;
using format::SchemaElement;
using format::Type;

format::TimeUnit millis() { return {.MILLIS = format::MilliSeconds{}}; }
format::TimeUnit micros() { return {.MICROS = format::MicroSeconds{}}; }
format::TimeUnit nanos() { return {.NANOS = format::NanoSeconds{}}; }

LogicalType string_type() { return {.STRING = format::StringType{}}; }
LogicalType integer(int8_t bits, bool is_signed) { return {.INTEGER = format::IntType{bits, is_signed}}; }
LogicalType decimal(int32_t precision, int32_t scale) { return {.DECIMAL = format::DecimalType{scale, precision}}; }
LogicalType time_of(bool utc, format::TimeUnit unit) { return {.TIME = format::TimeType{utc, unit}}; }
LogicalType timestamp(bool utc, format::TimeUnit unit) { return {.TIMESTAMP = format::TimestampType{utc, unit}}; }

SchemaElement with_converted(ConvertedType c) {
  SchemaElement e;
  e.name = "x";
  e.converted_type = c;
  return e;
}

struct ConvertedCase {
  ConvertedType converted;
  LogicalType expected;
};

TEST(LogicalTypeTest, EveryConvertedTypeMapsPerLogicalTypesMd) {
  const std::vector<ConvertedCase> cases = {
      {ConvertedType::UTF8, string_type()},
      {ConvertedType::MAP, {.MAP = format::MapType{}}},
      {ConvertedType::MAP_KEY_VALUE, {}},
      {ConvertedType::LIST, {.LIST = format::ListType{}}},
      {ConvertedType::ENUM, {.ENUM = format::EnumType{}}},
      {ConvertedType::DECIMAL, decimal(0, 0)},
      {ConvertedType::DATE, {.DATE = format::DateType{}}},
      {ConvertedType::TIME_MILLIS, time_of(true, millis())},
      {ConvertedType::TIME_MICROS, time_of(true, micros())},
      {ConvertedType::TIMESTAMP_MILLIS, timestamp(true, millis())},
      {ConvertedType::TIMESTAMP_MICROS, timestamp(true, micros())},
      {ConvertedType::UINT_8, integer(8, false)},
      {ConvertedType::UINT_16, integer(16, false)},
      {ConvertedType::UINT_32, integer(32, false)},
      {ConvertedType::UINT_64, integer(64, false)},
      {ConvertedType::INT_8, integer(8, true)},
      {ConvertedType::INT_16, integer(16, true)},
      {ConvertedType::INT_32, integer(32, true)},
      {ConvertedType::INT_64, integer(64, true)},
      {ConvertedType::JSON, {.JSON = format::JsonType{}}},
      {ConvertedType::BSON, {.BSON = format::BsonType{}}},
      {ConvertedType::INTERVAL, {}},
  };
  ASSERT_EQ(cases.size(), 22u);  // every ConvertedType
  for (const ConvertedCase& c : cases) {
    EXPECT_EQ(resolve_logical_type(with_converted(c.converted)), c.expected) << format::to_string(c.converted);
  }
}

TEST(LogicalTypeTest, ConvertedDecimalTakesTheElementsPrecisionAndScale) {
  SchemaElement e = with_converted(ConvertedType::DECIMAL);
  e.precision = 10;
  e.scale = 2;
  EXPECT_EQ(resolve_logical_type(e), decimal(10, 2));
  e.scale.reset();  // the spec's default scale
  EXPECT_EQ(resolve_logical_type(e), decimal(10, 0));
}

TEST(LogicalTypeTest, LogicalTypeWinsOverConvertedType) {
  SchemaElement e = with_converted(ConvertedType::UTF8);
  e.logical_type = LogicalType{.JSON = format::JsonType{}};
  EXPECT_TRUE(resolve_logical_type(e).JSON.has_value());
  EXPECT_FALSE(resolve_logical_type(e).STRING.has_value());
}

TEST(LogicalTypeTest, LogicalDecimalWinsOverElementFields) {
  SchemaElement e = with_converted(ConvertedType::DECIMAL);
  e.precision = 5;
  e.scale = 1;
  e.logical_type = decimal(12, 4);
  EXPECT_EQ(resolve_logical_type(e), decimal(12, 4));
}

TEST(LogicalTypeTest, UnknownLogicalTypeFallsBackToConvertedType) {
  SchemaElement e = with_converted(ConvertedType::UTF8);
  e.logical_type = LogicalType{};  // a member from a newer writer
  EXPECT_EQ(resolve_logical_type(e), string_type());
  e.converted_type.reset();
  EXPECT_FALSE(has_logical_type(resolve_logical_type(e)));
}

TEST(LogicalTypeTest, ConvertedTypeOutsideTheEnumResolvesToNothing) {
  SchemaElement e = with_converted(static_cast<ConvertedType>(99));
  EXPECT_FALSE(has_logical_type(resolve_logical_type(e)));
  SchemaElement none;
  EXPECT_FALSE(has_logical_type(resolve_logical_type(none)));
}

TEST(LogicalTypeTest, HasLogicalTypeSeesEveryMember) {
  const std::vector<LogicalType> all = {
      string_type(),
      {.MAP = format::MapType{}},
      {.LIST = format::ListType{}},
      {.ENUM = format::EnumType{}},
      decimal(1, 0),
      {.DATE = format::DateType{}},
      time_of(true, millis()),
      timestamp(true, micros()),
      integer(8, true),
      {.UNKNOWN = format::NullType{}},
      {.JSON = format::JsonType{}},
      {.BSON = format::BsonType{}},
      {.UUID = format::UUIDType{}},
      {.FLOAT16 = format::Float16Type{}},
      {.VARIANT = format::VariantType{}},
      {.GEOMETRY = format::GeometryType{}},
      {.GEOGRAPHY = format::GeographyType{}},
      {.FILE = format::FileType{}},
  };
  for (const LogicalType& t : all) EXPECT_TRUE(has_logical_type(t)) << logical_type_to_string(t);
  EXPECT_FALSE(has_logical_type(LogicalType{}));
}

struct PrintCase {
  LogicalType type;
  std::string text;
};

TEST(LogicalTypeTest, PrintsParquetJavaNotation) {
  const std::vector<PrintCase> cases = {
      {string_type(), "STRING"},
      {{.MAP = format::MapType{}}, "MAP"},
      {{.LIST = format::ListType{}}, "LIST"},
      {{.ENUM = format::EnumType{}}, "ENUM"},
      {decimal(10, 2), "DECIMAL(10,2)"},
      {{.DATE = format::DateType{}}, "DATE"},
      {time_of(true, millis()), "TIME(MILLIS,true)"},
      {time_of(false, nanos()), "TIME(NANOS,false)"},
      {timestamp(true, micros()), "TIMESTAMP(MICROS,true)"},
      {timestamp(false, format::TimeUnit{}), "TIMESTAMP(?,false)"},
      {integer(8, false), "INTEGER(8,false)"},
      {integer(64, true), "INTEGER(64,true)"},
      {{.UNKNOWN = format::NullType{}}, "UNKNOWN"},
      {{.JSON = format::JsonType{}}, "JSON"},
      {{.BSON = format::BsonType{}}, "BSON"},
      {{.UUID = format::UUIDType{}}, "UUID"},
      {{.FLOAT16 = format::Float16Type{}}, "FLOAT16"},
      {{.VARIANT = format::VariantType{}}, "VARIANT"},
      {{.VARIANT = format::VariantType{int8_t{1}}}, "VARIANT(1)"},
      {{.GEOMETRY = format::GeometryType{}}, "GEOMETRY"},
      {{.GEOMETRY = format::GeometryType{"OGC:CRS83"}}, "GEOMETRY(OGC:CRS83)"},
      {{.GEOGRAPHY = format::GeographyType{}}, "GEOGRAPHY"},
      {{.GEOGRAPHY = format::GeographyType{std::nullopt, format::EdgeInterpolationAlgorithm::KARNEY}},
       "GEOGRAPHY(OGC:CRS84,KARNEY)"},
      {{.GEOGRAPHY = format::GeographyType{"EPSG:4326", std::nullopt}}, "GEOGRAPHY(EPSG:4326,SPHERICAL)"},
      {{.FILE = format::FileType{}}, "FILE"},
      {{}, ""},
  };
  for (const PrintCase& c : cases) EXPECT_EQ(logical_type_to_string(c.type), c.text);
}

struct AppliesCase {
  LogicalType type;
  Type physical;
  int32_t length;
  bool applies;
};

TEST(LogicalTypeTest, AppliesToPrimitiveFollowsLogicalTypesMd) {
  const LogicalType uuid{.UUID = format::UUIDType{}};
  const LogicalType f16{.FLOAT16 = format::Float16Type{}};
  const LogicalType date{.DATE = format::DateType{}};
  const std::vector<AppliesCase> cases = {
      {string_type(), Type::BYTE_ARRAY, 0, true},
      {string_type(), Type::INT32, 0, false},
      {string_type(), Type::FIXED_LEN_BYTE_ARRAY, 4, false},
      {{.JSON = format::JsonType{}}, Type::BYTE_ARRAY, 0, true},
      {{.GEOMETRY = format::GeometryType{}}, Type::INT64, 0, false},
      {uuid, Type::FIXED_LEN_BYTE_ARRAY, 16, true},
      {uuid, Type::FIXED_LEN_BYTE_ARRAY, 8, false},
      {uuid, Type::BYTE_ARRAY, 0, false},
      {f16, Type::FIXED_LEN_BYTE_ARRAY, 2, true},
      {f16, Type::FIXED_LEN_BYTE_ARRAY, 4, false},
      {date, Type::INT32, 0, true},
      {date, Type::BYTE_ARRAY, 0, false},
      {time_of(true, millis()), Type::INT32, 0, true},
      {time_of(true, millis()), Type::INT64, 0, false},
      {time_of(true, micros()), Type::INT64, 0, true},
      {time_of(true, nanos()), Type::INT64, 0, true},
      {time_of(true, format::TimeUnit{}), Type::INT64, 0, false},
      {timestamp(true, millis()), Type::INT64, 0, true},
      {timestamp(true, millis()), Type::INT96, 0, false},
      {integer(8, true), Type::INT32, 0, true},
      {integer(32, false), Type::INT32, 0, true},
      {integer(64, true), Type::INT32, 0, false},
      {integer(64, false), Type::INT64, 0, true},
      {integer(16, true), Type::INT64, 0, false},
      {integer(7, true), Type::INT32, 0, false},
      {decimal(5, 2), Type::INT32, 0, true},
      {decimal(5, 2), Type::BYTE_ARRAY, 0, true},
      {decimal(5, 2), Type::FIXED_LEN_BYTE_ARRAY, 4, true},
      {decimal(5, 2), Type::DOUBLE, 0, false},
      {{.UNKNOWN = format::NullType{}}, Type::BOOLEAN, 0, true},
      {{.LIST = format::ListType{}}, Type::INT32, 0, false},
      {{.VARIANT = format::VariantType{}}, Type::BYTE_ARRAY, 0, false},
      {{}, Type::INT96, 0, true},
  };
  for (const AppliesCase& c : cases) {
    EXPECT_EQ(logical_type_applies_to_primitive(c.type, c.physical, c.length), c.applies)
        << logical_type_to_string(c.type) << " on " << format::to_string(c.physical) << "(" << c.length << ")";
  }
}

TEST(LogicalTypeTest, AppliesToGroupOnlyForNestedAnnotations) {
  EXPECT_TRUE(logical_type_applies_to_group({.LIST = format::ListType{}}));
  EXPECT_TRUE(logical_type_applies_to_group({.MAP = format::MapType{}}));
  EXPECT_TRUE(logical_type_applies_to_group({.VARIANT = format::VariantType{}}));
  EXPECT_TRUE(logical_type_applies_to_group({.FILE = format::FileType{}}));
  EXPECT_TRUE(logical_type_applies_to_group({}));
  EXPECT_FALSE(logical_type_applies_to_group(string_type()));
  EXPECT_FALSE(logical_type_applies_to_group(decimal(5, 2)));
}

TEST(LogicalTypeTest, MaxDecimalPrecisionPerPhysicalType) {
  EXPECT_EQ(max_decimal_precision(Type::INT32, 0), 9);
  EXPECT_EQ(max_decimal_precision(Type::INT64, 0), 18);
  EXPECT_EQ(max_decimal_precision(Type::BYTE_ARRAY, 0), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(max_decimal_precision(Type::DOUBLE, 0), 0);
  EXPECT_EQ(max_decimal_precision(Type::BOOLEAN, 0), 0);
  EXPECT_EQ(max_decimal_precision(Type::FIXED_LEN_BYTE_ARRAY, 0), 0);
  // floor(log10(2^(8n-1) - 1)) for n = 1..16.
  const int32_t expected[] = {2, 4, 6, 9, 11, 14, 16, 18, 21, 23, 26, 28, 31, 33, 35, 38};
  for (int32_t n = 1; n <= 16; ++n)
    EXPECT_EQ(max_decimal_precision(Type::FIXED_LEN_BYTE_ARRAY, n), expected[n - 1]) << "n=" << n;
  EXPECT_EQ(max_decimal_precision(Type::FIXED_LEN_BYTE_ARRAY, std::numeric_limits<int32_t>::max()),
            std::numeric_limits<int32_t>::max());
}

ValueType physical(Type t) { return ValueType{t, t == Type::FIXED_LEN_BYTE_ARRAY ? 16 : 0, {}, std::nullopt}; }

ValueType annotated(Type t, LogicalType logical) {
  ValueType v = physical(t);
  v.logical = std::move(logical);
  return v;
}

TEST(SortOrderTest, PhysicalTypesWithoutAnnotation) {
  EXPECT_EQ(sort_order(physical(Type::BOOLEAN)), SortOrder::kUnsigned);
  EXPECT_EQ(sort_order(physical(Type::INT32)), SortOrder::kSigned);
  EXPECT_EQ(sort_order(physical(Type::INT64)), SortOrder::kSigned);
  EXPECT_EQ(sort_order(physical(Type::INT96)), SortOrder::kUnknown);
  EXPECT_EQ(sort_order(physical(Type::FLOAT)), SortOrder::kSigned);
  EXPECT_EQ(sort_order(physical(Type::DOUBLE)), SortOrder::kSigned);
  EXPECT_EQ(sort_order(physical(Type::BYTE_ARRAY)), SortOrder::kUnsigned);
  EXPECT_EQ(sort_order(physical(Type::FIXED_LEN_BYTE_ARRAY)), SortOrder::kUnsigned);
  EXPECT_EQ(sort_order(physical(static_cast<Type>(42))), SortOrder::kUnknown);
}

TEST(SortOrderTest, LogicalTypesDecide) {
  EXPECT_EQ(sort_order(annotated(Type::BYTE_ARRAY, string_type())), SortOrder::kUnsigned);
  EXPECT_EQ(sort_order(annotated(Type::BYTE_ARRAY, {.ENUM = format::EnumType{}})), SortOrder::kUnsigned);
  EXPECT_EQ(sort_order(annotated(Type::BYTE_ARRAY, {.JSON = format::JsonType{}})), SortOrder::kUnsigned);
  EXPECT_EQ(sort_order(annotated(Type::BYTE_ARRAY, {.BSON = format::BsonType{}})), SortOrder::kUnsigned);
  EXPECT_EQ(sort_order(annotated(Type::FIXED_LEN_BYTE_ARRAY, {.UUID = format::UUIDType{}})), SortOrder::kUnsigned);
  EXPECT_EQ(sort_order(annotated(Type::INT32, integer(8, false))), SortOrder::kUnsigned);
  EXPECT_EQ(sort_order(annotated(Type::INT64, integer(64, false))), SortOrder::kUnsigned);
  EXPECT_EQ(sort_order(annotated(Type::INT32, integer(16, true))), SortOrder::kSigned);
  EXPECT_EQ(sort_order(annotated(Type::FIXED_LEN_BYTE_ARRAY, decimal(20, 2))), SortOrder::kSigned);
  EXPECT_EQ(sort_order(annotated(Type::BYTE_ARRAY, decimal(20, 2))), SortOrder::kSigned);
  EXPECT_EQ(sort_order(annotated(Type::INT32, {.DATE = format::DateType{}})), SortOrder::kSigned);
  EXPECT_EQ(sort_order(annotated(Type::INT64, time_of(false, nanos()))), SortOrder::kSigned);
  EXPECT_EQ(sort_order(annotated(Type::INT64, timestamp(true, millis()))), SortOrder::kSigned);
  EXPECT_EQ(sort_order(annotated(Type::FIXED_LEN_BYTE_ARRAY, {.FLOAT16 = format::Float16Type{}})), SortOrder::kSigned);
  EXPECT_EQ(sort_order(annotated(Type::BYTE_ARRAY, {.GEOMETRY = format::GeometryType{}})), SortOrder::kUnknown);
  EXPECT_EQ(sort_order(annotated(Type::BYTE_ARRAY, {.GEOGRAPHY = format::GeographyType{}})), SortOrder::kUnknown);
  EXPECT_EQ(sort_order(annotated(Type::BYTE_ARRAY, {.VARIANT = format::VariantType{}})), SortOrder::kUnknown);
  EXPECT_EQ(sort_order(annotated(Type::INT32, {.UNKNOWN = format::NullType{}})), SortOrder::kUnknown);
}

TEST(SortOrderTest, ConvertedTypeAloneDecides) {
  ValueType interval = physical(Type::FIXED_LEN_BYTE_ARRAY);
  interval.type_length = 12;
  interval.converted = ConvertedType::INTERVAL;
  EXPECT_EQ(sort_order(interval), SortOrder::kUnknown);

  ValueType uint = physical(Type::INT32);
  uint.converted = ConvertedType::UINT_32;
  EXPECT_EQ(sort_order(uint), SortOrder::kUnsigned);

  ValueType utf8 = physical(Type::BYTE_ARRAY);
  utf8.converted = ConvertedType::UTF8;
  EXPECT_EQ(sort_order(utf8), SortOrder::kUnsigned);
}

TEST(SortOrderTest, LogicalTypeWinsOverConverted) {
  ValueType v = annotated(Type::INT32, integer(32, true));
  v.converted = ConvertedType::UINT_32;
  EXPECT_EQ(sort_order(v), SortOrder::kSigned);
}

TEST(SortOrderTest, Names) {
  EXPECT_STREQ(to_string(SortOrder::kSigned), "SIGNED");
  EXPECT_STREQ(to_string(SortOrder::kUnsigned), "UNSIGNED");
  EXPECT_STREQ(to_string(SortOrder::kUnknown), "UNKNOWN");
}

}  // namespace
}  // namespace parq
