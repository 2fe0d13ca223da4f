// Tests of rows as text (parq/text/row_text.h): the canonical JSON Lines form
// against every row kind and every line of FORMAT.md's value table, CSV
// quoting, and the layout of `parq head`'s table. Batches are built by hand
// in the Array layout the reader decodes into.
#include "parq/text/row_text.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "parq/error.h"

namespace parq::text {
namespace {

using format::Type;
using std::nullopt;
using std::optional;

// ---------------------------------------------------------------------------
// Builders

ValueType physical(Type type, int32_t type_length = 0) {
  ValueType t;
  t.physical = type;
  t.type_length = type_length;
  return t;
}

ValueType integer(Type type, int8_t bits, bool is_signed) {
  ValueType t = physical(type);
  t.logical.INTEGER = format::IntType{bits, is_signed};
  return t;
}

ValueType decimal(Type type, int32_t scale, int32_t type_length = 0) {
  ValueType t = physical(type, type_length);
  t.logical.DECIMAL = format::DecimalType{scale, 18};
  return t;
}

ValueType string_type() {
  ValueType t = physical(Type::BYTE_ARRAY);
  t.logical.STRING.emplace();
  return t;
}

format::TimeUnit unit_of(TimeUnit unit) {
  format::TimeUnit u;
  if (unit == TimeUnit::kMillis) u.MILLIS.emplace();
  if (unit == TimeUnit::kMicros) u.MICROS.emplace();
  if (unit == TimeUnit::kNanos) u.NANOS.emplace();
  return u;
}

ValueType time_type(Type type, TimeUnit unit) {
  ValueType t = physical(type);
  t.logical.TIME = format::TimeType{false, unit_of(unit)};
  return t;
}

ValueType timestamp_type(Type type, TimeUnit unit, bool utc) {
  ValueType t = physical(type);
  t.logical.TIMESTAMP = format::TimestampType{utc, unit_of(unit)};
  return t;
}

// Sets the validity bitmap from `valid`, leaving it empty when nothing is null
// (as the reader does), so both forms get exercised.
void set_validity(Array& a, const std::vector<bool>& valid) {
  a.length = static_cast<int64_t>(valid.size());
  a.null_count = std::count(valid.begin(), valid.end(), false);
  a.validity.clear();
  if (a.null_count == 0) return;
  a.validity.resize((valid.size() + 7) / 8);
  std::memset(a.validity.data(), 0, a.validity.size());
  for (size_t i = 0; i < valid.size(); ++i) {
    if (valid[i]) a.validity.data()[i / 8] |= static_cast<uint8_t>(1 << (i % 8));
  }
}

template <typename T>
std::vector<bool> presence(const std::vector<optional<T>>& values) {
  std::vector<bool> valid;
  for (const auto& v : values) valid.push_back(v.has_value());
  return valid;
}

template <typename T>
Array fixed_leaf(std::string name, ValueType type, const std::vector<optional<T>>& values) {
  Array a;
  a.name = std::move(name);
  a.type = type;
  for (const auto& v : values) a.values.append_value(v.value_or(T{}));
  set_validity(a, presence(values));
  return a;
}

Array bool_leaf(std::string name, const std::vector<optional<bool>>& values) {
  Array a;
  a.name = std::move(name);
  a.type = physical(Type::BOOLEAN);
  a.values.resize((values.size() + 7) / 8);
  std::memset(a.values.data(), 0, a.values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].value_or(false)) a.values.data()[i / 8] |= static_cast<uint8_t>(1 << (i % 8));
  }
  set_validity(a, presence(values));
  return a;
}

// BYTE_ARRAY, or FIXED_LEN_BYTE_ARRAY when the type says so (then every
// value must have type_length bytes; nulls are zero-filled).
Array bytes_leaf(std::string name, ValueType type, const std::vector<optional<std::string>>& values) {
  Array a;
  a.name = std::move(name);
  a.type = type;
  if (type.physical == Type::FIXED_LEN_BYTE_ARRAY) {
    for (const auto& v : values) {
      a.values.append(v.value_or(std::string(static_cast<size_t>(type.type_length), '\0')));
    }
  } else {
    a.offsets.append_value(int32_t{0});
    for (const auto& v : values) {
      if (v) a.values.append(*v);
      a.offsets.append_value(static_cast<int32_t>(a.values.size()));
    }
  }
  set_validity(a, presence(values));
  return a;
}

Array strings(std::string name, const std::vector<optional<std::string>>& values) {
  return bytes_leaf(std::move(name), string_type(), values);
}

Array int32s(std::string name, const std::vector<optional<int32_t>>& values) {
  return fixed_leaf<int32_t>(std::move(name), physical(Type::INT32), values);
}

Array int64s(std::string name, const std::vector<optional<int64_t>>& values) {
  return fixed_leaf<int64_t>(std::move(name), physical(Type::INT64), values);
}

// Offsets from the element count of each slot (nullopt: a null slot, which
// adds no elements).
void set_offsets(Array& a, const std::vector<optional<int32_t>>& sizes, int32_t first = 0) {
  int32_t end = first;
  a.offsets.append_value(end);
  for (const auto& n : sizes) {
    end += n.value_or(0);
    a.offsets.append_value(end);
  }
  set_validity(a, presence(sizes));
}

Array list(std::string name, const std::vector<optional<int32_t>>& sizes, Array element) {
  Array a;
  a.kind = ArrayKind::kList;
  a.name = std::move(name);
  set_offsets(a, sizes);
  a.children.push_back(std::move(element));
  return a;
}

Array map(std::string name, const std::vector<optional<int32_t>>& sizes, Array keys, optional<Array> values) {
  Array a;
  a.kind = ArrayKind::kMap;
  a.name = std::move(name);
  set_offsets(a, sizes);
  a.children.push_back(std::move(keys));
  if (values) a.children.push_back(std::move(*values));
  return a;
}

Array structure(std::string name, const std::vector<bool>& valid, std::vector<Array> fields) {
  Array a;
  a.kind = ArrayKind::kStruct;
  a.name = std::move(name);
  set_validity(a, valid);
  a.children = std::move(fields);
  return a;
}

RecordBatch batch_of(std::vector<Array> columns) {
  RecordBatch b;
  b.num_rows = columns.empty() ? 0 : columns[0].length;
  b.columns = std::move(columns);
  return b;
}

std::string row_json(const RecordBatch& batch, int64_t row) {
  std::string out;
  append_row_json(out, batch, row);
  return out;
}

std::vector<std::string> rows_json(const RecordBatch& batch) {
  std::vector<std::string> rows;
  const RowJsonWriter writer(batch);
  for (int64_t r = 0; r < batch.num_rows; ++r) writer.append_row(rows.emplace_back(), r);
  return rows;
}

// One column's values, one JSON text each.
std::vector<std::string> column_json(Array column) {
  RecordBatch batch = batch_of({});
  batch.num_rows = column.length;
  batch.columns.push_back(std::move(column));
  const RowJsonWriter writer(batch);
  std::vector<std::string> values;
  for (int64_t r = 0; r < batch.num_rows; ++r) writer.append_value(values.emplace_back(), 0, r);
  return values;
}

using Texts = std::vector<std::string>;

std::string bytes(std::initializer_list<int> values) {
  std::string s;
  for (const int v : values) s.push_back(static_cast<char>(v));
  return s;
}

std::string le32(uint32_t v) {
  std::string s(4, '\0');
  std::memcpy(s.data(), &v, 4);
  return s;
}

// ---------------------------------------------------------------------------
// Rows

TEST(RowJson, KeysInOrderAndNullsPresent) {
  const RecordBatch batch = batch_of({int32s("id", {1, nullopt}), strings("name", {nullopt, "b"})});
  EXPECT_EQ(rows_json(batch), (Texts{R"({"id":1,"name":null})", R"({"id":null,"name":"b"})"}));
}

TEST(RowJson, KeysAreEscapedAndSanitised) {
  const RecordBatch batch = batch_of({int32s("a\"b\\c\n", {1}), int32s("\xFF", {2})});
  EXPECT_EQ(row_json(batch, 0), "{\"a\\\"b\\\\c\\n\":1,\"\xEF\xBF\xBD\":2}");
}

TEST(RowJson, NoColumnsIsAnEmptyObject) {
  RecordBatch batch;
  batch.num_rows = 2;
  EXPECT_EQ(rows_json(batch), (Texts{"{}", "{}"}));
}

TEST(RowJson, JsonLinesEndEveryRowWithNewline) {
  const RecordBatch batch = batch_of({int64s("x", {1, 2, 3})});
  std::string out = "prefix:";
  append_rows_jsonl(out, batch, 1, 3);
  EXPECT_EQ(out, "prefix:{\"x\":2}\n{\"x\":3}\n");
  std::string empty;
  append_rows_jsonl(empty, batch, 2, 2);
  EXPECT_EQ(empty, "");
}

TEST(RowJson, RowsOutsideTheBatchThrow) {
  const RecordBatch batch = batch_of({int64s("x", {1})});
  std::string out;
  EXPECT_THROW(append_row_json(out, batch, 1), Error);
  EXPECT_THROW(append_row_json(out, batch, -1), Error);
  EXPECT_THROW(append_rows_jsonl(out, batch, 0, 2), Error);
  EXPECT_THROW(append_rows_jsonl(out, batch, 1, 0), Error);
  EXPECT_EQ(out, "");  // a bad range writes nothing
}

TEST(RowJson, WriterMatchesConvenienceAndAppends) {
  const RecordBatch batch = batch_of({int32s("a", {7, 8}), strings("s", {"x", nullopt})});
  const RowJsonWriter writer(batch);
  std::string out = "[";
  writer.append_row(out, 1);
  EXPECT_EQ(out, "[" + row_json(batch, 1));
  EXPECT_EQ(writer.num_columns(), 2u);
}

// ---------------------------------------------------------------------------
// Values, in the order of FORMAT.md's table

TEST(RowJsonValue, Boolean) {
  // More than a byte of slots, so the bit addressing crosses bytes.
  const std::vector<optional<bool>> values = {true, false, nullopt, true, true, false, false, true, false, true};
  EXPECT_EQ(column_json(bool_leaf("b", values)),
            (Texts{"true", "false", "null", "true", "true", "false", "false", "true", "false", "true"}));
}

TEST(RowJsonValue, SignedIntegers) {
  constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
  constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(column_json(int32s("i", {0, -42, kMin32, nullopt, 2147483647})),
            (Texts{"0", "-42", "-2147483648", "null", "2147483647"}));
  EXPECT_EQ(column_json(int64s("i", {kMin64, 9223372036854775807})),
            (Texts{"-9223372036854775808", "9223372036854775807"}));
  // INT(8, signed) keeps its 4-byte storage.
  EXPECT_EQ(column_json(fixed_leaf<int32_t>("i", integer(Type::INT32, 8, true), {-128, 127})), (Texts{"-128", "127"}));
  EXPECT_EQ(column_json(fixed_leaf<int64_t>("i", integer(Type::INT64, 64, true), {-1})), (Texts{"-1"}));
}

TEST(RowJsonValue, UnsignedIntegers) {
  EXPECT_EQ(column_json(fixed_leaf<int32_t>("u", integer(Type::INT32, 32, false), {-1, 0, nullopt})),
            (Texts{"4294967295", "0", "null"}));
  EXPECT_EQ(column_json(fixed_leaf<int32_t>("u", integer(Type::INT32, 8, false), {255})), (Texts{"255"}));
  EXPECT_EQ(column_json(fixed_leaf<int64_t>("u", integer(Type::INT64, 64, false), {-1})),
            (Texts{"18446744073709551615"}));
}

TEST(RowJsonValue, FloatsWidenedToDouble) {
  EXPECT_EQ(column_json(fixed_leaf<float>("f", physical(Type::FLOAT), {1.1f, 0.0f, -0.0f, nullopt, 1e-4f})),
            (Texts{"1.100000023841858", "0", "-0.0", "null", "9.999999747378752e-5"}));
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(column_json(fixed_leaf<double>("d", physical(Type::DOUBLE),
                                           {10.1, 1e21, 5e-324, 0x1p70, std::nan(""), inf, -inf, 1.5e-7})),
            (Texts{"10.1", "1e21", "5e-324", "1180591620717411303424", "\"NaN\"", "\"Infinity\"", "\"-Infinity\"",
                   "1.5e-7"}));
}

TEST(RowJsonValue, Float16IsTwoByteFixed) {
  ValueType type = physical(Type::FIXED_LEN_BYTE_ARRAY, 2);
  type.logical.FLOAT16.emplace();
  EXPECT_EQ(column_json(bytes_leaf("h", type,
                                   {bytes({0x00, 0x3C}), bytes({0x00, 0xC0}), nullopt, bytes({0x00, 0x7E}),
                                    bytes({0x00, 0x80}), bytes({0x01, 0x00})})),
            (Texts{"1", "-2", "null", "\"NaN\"", "-0.0", "5.960464477539063e-8"}));
}

TEST(RowJsonValue, DecimalOnIntegers) {
  EXPECT_EQ(column_json(fixed_leaf<int32_t>("d", decimal(Type::INT32, 2), {-1230, 5, 700, nullopt})),
            (Texts{"\"-12.30\"", "\"0.05\"", "\"7.00\"", "null"}));
  EXPECT_EQ(column_json(fixed_leaf<int32_t>("d", decimal(Type::INT32, 0), {7})), (Texts{"\"7\""}));
  EXPECT_EQ(column_json(fixed_leaf<int64_t>("d", decimal(Type::INT64, 4), {std::numeric_limits<int64_t>::min()})),
            (Texts{"\"-922337203685477.5808\""}));
}

TEST(RowJsonValue, DecimalOnBytesIsBigEndianTwosComplement) {
  EXPECT_EQ(column_json(bytes_leaf("d", decimal(Type::BYTE_ARRAY, 2),
                                   {bytes({0x04, 0xD2}), bytes({0xFF}), nullopt,
                                    bytes({0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})})),
            (Texts{"\"12.34\"", "\"-0.01\"", "null", "\"3402823669209384634633746074317682114.56\""}));
  EXPECT_EQ(column_json(bytes_leaf("d", decimal(Type::FIXED_LEN_BYTE_ARRAY, 1, 4),
                                   {bytes({0xFF, 0xFF, 0xFF, 0xF6}), nullopt, bytes({0, 0, 0, 100})})),
            (Texts{"\"-1.0\"", "null", "\"10.0\""}));
}

// No bytes is zero, as every peer engine reads it.
TEST(RowJsonValue, DecimalWithNoBytesIsZero) {
  const RecordBatch batch = batch_of({bytes_leaf("d", decimal(Type::BYTE_ARRAY, 2), {""})});
  std::string out;
  append_row_json(out, batch, 0);
  EXPECT_EQ(out, "{\"d\":\"0.00\"}");
}

TEST(RowJsonValue, StringsEnumsAndJsonAreSanitisedStrings) {
  EXPECT_EQ(column_json(strings("s", {"plain", "", "q\"b\\/\n\t\x01", "\xC3\xA9\xE2\x82", nullopt})),
            (Texts{R"("plain")", R"("")", R"("q\"b\\/\n\t\u0001")", "\"\xC3\xA9\xEF\xBF\xBD\"", "null"}));
  ValueType enum_type = physical(Type::BYTE_ARRAY);
  enum_type.logical.ENUM.emplace();
  EXPECT_EQ(column_json(bytes_leaf("e", enum_type, {"RED"})), (Texts{R"("RED")"}));
  ValueType json_type = physical(Type::BYTE_ARRAY);
  json_type.logical.JSON.emplace();
  EXPECT_EQ(column_json(bytes_leaf("j", json_type, {R"({"a":1})"})), (Texts{R"("{\"a\":1}")"}));
}

TEST(RowJsonValue, OtherBinaryIsBase64) {
  EXPECT_EQ(column_json(bytes_leaf("b", physical(Type::BYTE_ARRAY), {"03/01/09", "0", "", nullopt, "ab"})),
            (Texts{R"("MDMvMDEvMDk=")", R"("MA==")", R"("")", "null", R"("YWI=")"}));
  EXPECT_EQ(column_json(bytes_leaf("f", physical(Type::FIXED_LEN_BYTE_ARRAY, 3), {"abc", nullopt})),
            (Texts{R"("YWJj")", "null"}));
  ValueType bson = physical(Type::BYTE_ARRAY);
  bson.logical.BSON.emplace();
  EXPECT_EQ(column_json(bytes_leaf("b", bson, {bytes({0xFF, 0x00})})), (Texts{R"("/wA=")"}));
  // UUID on the wrong width does not apply: the bytes read as binary.
  ValueType narrow_uuid = physical(Type::FIXED_LEN_BYTE_ARRAY, 2);
  narrow_uuid.logical.UUID.emplace();
  EXPECT_EQ(column_json(bytes_leaf("u", narrow_uuid, {"ab"})), (Texts{R"("YWI=")"}));
}

TEST(RowJsonValue, Uuid) {
  ValueType type = physical(Type::FIXED_LEN_BYTE_ARRAY, 16);
  type.logical.UUID.emplace();
  EXPECT_EQ(
      column_json(bytes_leaf(
          "u", type,
          {bytes({0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00}),
           nullopt})),
      (Texts{R"("123e4567-e89b-12d3-a456-426614174000")", "null"}));
}

TEST(RowJsonValue, IntervalFromConvertedType) {
  ValueType type = physical(Type::FIXED_LEN_BYTE_ARRAY, 12);
  type.converted = format::ConvertedType::INTERVAL;
  EXPECT_EQ(
      column_json(
          bytes_leaf("i", type, {le32(1) + le32(2) + le32(3), nullopt, le32(4294967295u) + le32(0) + le32(86400000)})),
      (Texts{R"({"months":1,"days":2,"millis":3})", "null", R"({"months":4294967295,"days":0,"millis":86400000})"}));
}

TEST(RowJsonValue, Date) {
  ValueType type = physical(Type::INT32);
  type.logical.DATE.emplace();
  EXPECT_EQ(column_json(fixed_leaf<int32_t>("d", type, {0, -1, 19000, nullopt, 2932897, -719529})),
            (Texts{R"("1970-01-01")", R"("1969-12-31")", R"("2022-01-08")", "null", R"("+10000-01-01")",
                   R"("-0001-12-31")"}));
}

TEST(RowJsonValue, TimeInEveryUnit) {
  EXPECT_EQ(column_json(fixed_leaf<int32_t>("t", time_type(Type::INT32, TimeUnit::kMillis), {45296789, 0, nullopt})),
            (Texts{R"("12:34:56.789")", R"("00:00:00.000")", "null"}));
  EXPECT_EQ(column_json(fixed_leaf<int64_t>("t", time_type(Type::INT64, TimeUnit::kMicros), {45296789012})),
            (Texts{R"("12:34:56.789012")"}));
  EXPECT_EQ(column_json(fixed_leaf<int64_t>("t", time_type(Type::INT64, TimeUnit::kNanos), {86399999999999})),
            (Texts{R"("23:59:59.999999999")"}));
}

TEST(RowJsonValue, TimestampInEveryUnitWithAndWithoutUtc) {
  EXPECT_EQ(column_json(fixed_leaf<int64_t>("t", timestamp_type(Type::INT64, TimeUnit::kMillis, true),
                                            {1235865600000, -1, nullopt})),
            (Texts{R"("2009-03-01T00:00:00.000Z")", R"("1969-12-31T23:59:59.999Z")", "null"}));
  EXPECT_EQ(column_json(fixed_leaf<int64_t>("t", timestamp_type(Type::INT64, TimeUnit::kMicros, false), {1})),
            (Texts{R"("1970-01-01T00:00:00.000001")"}));
  EXPECT_EQ(column_json(fixed_leaf<int64_t>("t", timestamp_type(Type::INT64, TimeUnit::kNanos, true),
                                            {std::numeric_limits<int64_t>::max()})),
            (Texts{R"("2262-04-11T23:47:16.854775807Z")"}));
}

TEST(RowJsonValue, Int96IsExactNanosWithoutZ) {
  auto int96 = [](int64_t nanos, int32_t julian_day) {
    std::string s(12, '\0');
    std::memcpy(s.data(), &nanos, 8);
    std::memcpy(s.data() + 8, &julian_day, 4);
    return s;
  };
  Array column = bytes_leaf(
      "t", physical(Type::FIXED_LEN_BYTE_ARRAY, 12),
      {int96(0, 2454892), int96(60'000'000'000, 2454892), nullopt, int96(86'400'000'000'001, 2440587), int96(0, 0)});
  column.type = physical(Type::INT96);  // same 12-byte storage
  EXPECT_EQ(column_json(column),
            (Texts{R"("2009-03-01T00:00:00.000000000")", R"("2009-03-01T00:01:00.000000000")", "null",
                   R"("1970-01-01T00:00:00.000000001")", R"("-4713-11-24T00:00:00.000000000")"}));
}

// ---------------------------------------------------------------------------
// Nesting

TEST(RowJsonNested, ListsEmptyNullAndWithNullElements) {
  // list_columns.parquet's golden lines.
  const RecordBatch batch = batch_of(
      {list("int64_list", {3, 2, 1}, int64s("element", {1, 2, 3, nullopt, 1, 4})),
       list("utf8_list", {3, nullopt, 4}, strings("element", {"abc", "efg", "hij", "efg", nullopt, "hij", "xyz"}))});
  EXPECT_EQ(rows_json(batch), (Texts{R"({"int64_list":[1,2,3],"utf8_list":["abc","efg","hij"]})",
                                     R"({"int64_list":[null,1],"utf8_list":null})",
                                     R"({"int64_list":[4],"utf8_list":["efg",null,"hij","xyz"]})"}));
  const RecordBatch empty = batch_of({list("l", {0, nullopt}, int32s("e", {}))});
  EXPECT_EQ(rows_json(empty), (Texts{R"({"l":[]})", R"({"l":null})"}));
}

TEST(RowJsonNested, ListOffsetsNeedNotStartAtZero) {
  Array l;
  l.kind = ArrayKind::kList;
  l.name = "l";
  set_offsets(l, {2, 1}, 1);
  l.children.push_back(int32s("e", {9, 1, 2, 3}));
  EXPECT_EQ(rows_json(batch_of({std::move(l)})), (Texts{R"({"l":[1,2]})", R"({"l":[3]})"}));
}

TEST(RowJsonNested, ListsOfLists) {
  // nullable.impala's int_array_Array, rows 1..4.
  Array inner = list("element", {2, 2, 4, 3, 0, nullopt, nullopt},
                     int32s("element", {1, 2, 3, 4, nullopt, 1, 2, nullopt, 3, nullopt, 4}));
  const RecordBatch batch = batch_of({list("a", {2, 4, 1, 0}, std::move(inner))});
  EXPECT_EQ(rows_json(batch), (Texts{R"({"a":[[1,2],[3,4]]})", R"({"a":[[null,1,2,null],[3,null,4],[],null]})",
                                     R"({"a":[null]})", R"({"a":[]})"}));
}

TEST(RowJsonNested, StructsNestedAndNull) {
  Array inner = structure("C", {true, false, true}, {int32s("d", {1, 0, nullopt}), strings("e", {"x", nullopt, "z"})});
  const RecordBatch batch =
      batch_of({structure("s", {true, true, false}, {int64s("A", {1, nullopt, 0}), std::move(inner)})});
  EXPECT_EQ(rows_json(batch),
            (Texts{R"({"s":{"A":1,"C":{"d":1,"e":"x"}}})", R"({"s":{"A":null,"C":null}})", R"({"s":null})"}));
}

TEST(RowJsonNested, EmptyStructIsEmptyObject) {
  const RecordBatch batch = batch_of({structure("s", {true, false}, {}), int32s("i", {1, 2})});
  EXPECT_EQ(rows_json(batch), (Texts{R"({"s":{},"i":1})", R"({"s":null,"i":2})"}));
}

TEST(RowJsonNested, ListOfStructs) {
  Array element =
      structure("element", {true, false, true}, {int32s("E", {10, 0, nullopt}), strings("F", {"aaa", nullopt, "c"})});
  const RecordBatch batch = batch_of({list("d", {2, 1}, std::move(element))});
  EXPECT_EQ(rows_json(batch), (Texts{R"({"d":[{"E":10,"F":"aaa"},null]})", R"({"d":[{"E":null,"F":"c"}]})"}));
}

TEST(RowJsonNested, MapsWithValuesNullValuesEmptyAndNull) {
  // nullable.impala's int_map.
  const RecordBatch batch = batch_of({map("int_map", {2, 2, 0, nullopt}, strings("key", {"k1", "k2", "k1", "k2"}),
                                          int32s("value", {1, 100, 2, nullopt}))});
  EXPECT_EQ(rows_json(batch), (Texts{R"({"int_map":[{"key":"k1","value":1},{"key":"k2","value":100}]})",
                                     R"({"int_map":[{"key":"k1","value":2},{"key":"k2","value":null}]})",
                                     R"({"int_map":[]})", R"({"int_map":null})"}));
}

TEST(RowJsonNested, MapWithoutValueFieldHasNullValues) {
  // map_no_value.parquet's first golden line.
  const RecordBatch batch = batch_of(
      {map("my_map", {3}, int32s("key", {1, 2, 3}), int32s("value", {nullopt, nullopt, nullopt})),
       map("my_map_no_v", {3}, int32s("key", {1, 2, 3}), nullopt), list("my_list", {3}, int32s("element", {1, 2, 3}))});
  EXPECT_EQ(
      row_json(batch, 0),
      R"({"my_map":[{"key":1,"value":null},{"key":2,"value":null},{"key":3,"value":null}],)"
      R"("my_map_no_v":[{"key":1,"value":null},{"key":2,"value":null},{"key":3,"value":null}],"my_list":[1,2,3]})");
}

TEST(RowJsonNested, MapOfStructValuesInsideAStruct) {
  // nullable.impala's nested_struct.g, reduced.
  Array h = structure("H", {true, false, false},
                      {list("i", {1, 0, 0}, fixed_leaf<double>("element", physical(Type::DOUBLE), {2.2}))});
  Array value = structure("value", {true, true, false}, {std::move(h)});
  Array g = map("g", {3}, strings("key", {"g1", "g5", "g3"}), std::move(value));
  const RecordBatch batch = batch_of({structure("nested_struct", {true}, {std::move(g)})});
  EXPECT_EQ(row_json(batch, 0),
            R"({"nested_struct":{"g":[{"key":"g1","value":{"H":{"i":[2.2]}}},{"key":"g5","value":{"H":null}},)"
            R"({"key":"g3","value":null}]}})");
}

// ---------------------------------------------------------------------------
// Single values and text

TEST(RowJsonWriter, ValuesAndTextOfColumns) {
  const RecordBatch batch =
      batch_of({strings("s", {"a\"b\n", nullopt, "\xFF"}), fixed_leaf<int32_t>("d", decimal(Type::INT32, 1), {5, 6, 7}),
                list("l", {1, 0, 0}, strings("e", {"x"}))});
  const RowJsonWriter writer(batch);
  EXPECT_FALSE(writer.is_null(0, 0));
  EXPECT_TRUE(writer.is_null(0, 1));
  std::string json, text;
  writer.append_value(json, 0, 0);
  writer.append_text(text, 0, 0);
  EXPECT_EQ(json, R"("a\"b\n")");
  EXPECT_EQ(text, "a\"b\n");
  json.clear();
  text.clear();
  writer.append_value(json, 0, 1);
  writer.append_text(text, 0, 1);
  EXPECT_EQ(json, "null");
  EXPECT_EQ(text, "");
  text.clear();
  writer.append_text(text, 0, 2);
  EXPECT_EQ(text, "\xEF\xBF\xBD");
  text.clear();
  writer.append_text(text, 1, 0);
  EXPECT_EQ(text, "0.5");
  text.clear();
  writer.append_text(text, 2, 0);
  EXPECT_EQ(text, R"(["x"])");
  EXPECT_THROW(writer.is_null(3, 0), Error);
  EXPECT_THROW(writer.is_null(0, 3), Error);
}

TEST(RowJsonWriter, Utf8TextDecodesEveryEscape) {
  std::string out = ">";
  append_utf8_text(out, std::string("\b\f\n\r\t\x01\x1f\"\\/\xE2\x82\xAC\xC0", 14));
  EXPECT_EQ(out, std::string(">\b\f\n\r\t\x01\x1f\"\\/\xE2\x82\xAC\xEF\xBF\xBD"));
}

// ---------------------------------------------------------------------------
// Malformed batches

TEST(RowJsonMalformed, ShapesThatWouldReadOutOfBoundsThrow) {
  Array short_values = int32s("i", {1, 2});
  short_values.values.resize(4);
  EXPECT_THROW(RowJsonWriter(batch_of({short_values})), Error);

  Array short_column = int32s("i", {1});
  RecordBatch too_many_rows = batch_of({short_column});
  too_many_rows.num_rows = 2;
  EXPECT_THROW(RowJsonWriter{too_many_rows}, Error);

  Array decreasing = strings("s", {"ab", "c"});
  decreasing.offsets.data_as<int32_t>()[1] = 4;
  EXPECT_THROW(RowJsonWriter(batch_of({decreasing})), Error);

  Array past_end = strings("s", {"ab"});
  past_end.offsets.data_as<int32_t>()[1] = 5;
  EXPECT_THROW(RowJsonWriter(batch_of({past_end})), Error);

  Array short_child = list("l", {3}, int32s("e", {1, 2}));
  EXPECT_THROW(RowJsonWriter(batch_of({short_child})), Error);

  Array two_children = list("l", {1}, int32s("e", {1}));
  two_children.children.push_back(int32s("f", {1}));
  EXPECT_THROW(RowJsonWriter(batch_of({two_children})), Error);

  Array short_validity = int32s("i", std::vector<optional<int32_t>>(9, nullopt));
  short_validity.validity.resize(1);
  EXPECT_THROW(RowJsonWriter(batch_of({short_validity})), Error);

  Array short_bits = bool_leaf("b", std::vector<optional<bool>>(9, true));
  short_bits.values.resize(1);
  EXPECT_THROW(RowJsonWriter(batch_of({short_bits})), Error);
}

TEST(RowJsonMalformed, EmptyPrototypeNeedsNoBuffers) {
  Array l;
  l.kind = ArrayKind::kList;
  l.name = "l";
  l.children.push_back(strings("e", {}));
  l.children[0].offsets.clear();
  RecordBatch prototype;
  prototype.columns.push_back(std::move(l));
  std::string out;
  EXPECT_NO_THROW(append_rows_jsonl(out, prototype, 0, 0));
  EXPECT_EQ(out, "");
}

// ---------------------------------------------------------------------------
// CSV

std::string csv(const RecordBatch& batch) {
  CsvWriter writer;
  std::string out;
  writer.append_rows(out, batch, 0, batch.num_rows);
  return out;
}

TEST(Csv, HeaderOnceThenRows) {
  const RecordBatch batch = batch_of({int32s("id", {1, 2, 3}), strings("name", {"a", nullopt, "c"})});
  CsvWriter writer;
  std::string out;
  EXPECT_FALSE(writer.header_written());
  writer.append_rows(out, batch, 0, 1);
  EXPECT_TRUE(writer.header_written());
  writer.append_rows(out, batch, 1, 3);
  EXPECT_EQ(out, "id,name\n1,a\n2,\n3,c\n");
}

TEST(Csv, HeldRowWriterAndBadRanges) {
  const RecordBatch batch = batch_of({int32s("id", {1, 2})});
  const RowJsonWriter rows(batch);
  CsvWriter writer;
  std::string out;
  EXPECT_THROW(writer.append_rows(out, rows, 1, 3), Error);
  EXPECT_EQ(out, "");
  writer.append_rows(out, rows, 1, 2);
  writer.append_rows(out, rows, 0, 1);
  EXPECT_EQ(out, "id\n2\n1\n");
}

TEST(Csv, EmptyBatchStillWritesHeader) {
  RecordBatch prototype;
  prototype.columns.push_back(int32s("a,b", {}));
  prototype.columns.push_back(int32s("c", {}));
  EXPECT_EQ(csv(prototype), "\"a,b\",c\n");
}

TEST(Csv, Rfc4180Quoting) {
  const RecordBatch batch = batch_of(
      {strings("s", {"plain", "a,b", "say \"hi\"", "line\nbreak", "cr\rhere", "", nullopt, " spaced ", "\xFF"})});
  EXPECT_EQ(csv(batch),
            "s\nplain\n\"a,b\"\n\"say \"\"hi\"\"\"\n\"line\nbreak\"\n\"cr\rhere\"\n\"\"\n\n spaced \n\xEF\xBF\xBD\n");
}

TEST(Csv, ValuesAsTheirJsonTextUnquoted) {
  ValueType date = physical(Type::INT32);
  date.logical.DATE.emplace();
  ValueType interval = physical(Type::FIXED_LEN_BYTE_ARRAY, 12);
  interval.converted = format::ConvertedType::INTERVAL;
  const RecordBatch batch =
      batch_of({bool_leaf("b", {true}), fixed_leaf<double>("f", physical(Type::DOUBLE), {std::nan("")}),
                fixed_leaf<int64_t>("d", decimal(Type::INT64, 2), {-1230}), fixed_leaf<int32_t>("day", date, {0}),
                fixed_leaf<int64_t>("ts", timestamp_type(Type::INT64, TimeUnit::kMillis, true), {0}),
                bytes_leaf("bin", physical(Type::BYTE_ARRAY), {"ab"}),
                bytes_leaf("iv", interval, {le32(1) + le32(2) + le32(3)})});
  EXPECT_EQ(csv(batch),
            "b,f,d,day,ts,bin,iv\n"
            "true,NaN,-12.30,1970-01-01,1970-01-01T00:00:00.000Z,YWI=,"
            "\"{\"\"months\"\":1,\"\"days\"\":2,\"\"millis\"\":3}\"\n");
}

TEST(Csv, NestedValuesAsQuotedCompactJson) {
  const RecordBatch batch = batch_of({list("l", {2, 1, nullopt}, strings("e", {"a", "b\"", "c"})),
                                      structure("s", {true, true, false}, {int32s("x", {1, 2, 3})}),
                                      map("m", {1, 0, 0}, strings("key", {"k"}), nullopt)});
  EXPECT_EQ(csv(batch),
            "l,s,m\n"
            "\"[\"\"a\"\",\"\"b\\\"\"\"\"]\",\"{\"\"x\"\":1}\",\"[{\"\"key\"\":\"\"k\"\",\"\"value\"\":null}]\"\n"
            "\"[\"\"c\"\"]\",\"{\"\"x\"\":2}\",[]\n"
            ",,[]\n");
}

// ---------------------------------------------------------------------------
// Table

TEST(Table, AlignedWithNumbersOnTheRight) {
  const RecordBatch batch = batch_of({int32s("id", {1, 100, nullopt}), strings("name", {"alice", nullopt, "bo"}),
                                      fixed_leaf<int64_t>("price", decimal(Type::INT64, 2), {150, -5, 12345})});
  EXPECT_EQ(render_table(batch, 0, 3),
            "  id | name  |  price\n"
            "-----+-------+-------\n"
            "   1 | alice |   1.50\n"
            " 100 | null  |  -0.05\n"
            "null | bo    | 123.45\n");
}

TEST(Table, RangeAndNoTrailingSpaces) {
  const RecordBatch batch = batch_of({strings("name", {"a", "long name", "b"}), strings("x", {"1", "", "333"})});
  EXPECT_EQ(render_table(batch, 1, 3),
            "name      | x\n"
            "----------+----\n"
            "long name |\n"
            "b         | 333\n");
  EXPECT_EQ(render_table(batch, 0, 0), "name | x\n-----+--\n");
  EXPECT_THROW(render_table(batch, 2, 4), Error);
}

TEST(Table, WidthCountsCodePointsAndTruncatesWithEllipsis) {
  const RecordBatch batch = batch_of({strings("s", {"héllo wörld", "日本", "abcdef"}), int32s("n", {1, 2, 3})});
  EXPECT_EQ(render_table(batch, 0, 3, 6),
            "s      | n\n"
            "-------+--\n"
            "héllo… | 1\n"
            "日本     | 2\n"
            "abcdef | 3\n");
}

TEST(Table, ControlCharactersStayOnOneLineAndNestedIsJson) {
  const RecordBatch batch = batch_of({strings("s", {"a\nb\tc\x01"}), list("l", {2}, strings("e", {"x", nullopt}))});
  EXPECT_EQ(render_table(batch, 0, 1),
            "s             | l\n"
            "--------------+-----------\n"
            "a\\nb\\tc\\u0001 | [\"x\",null]\n");
}

TEST(Table, TinyWidthAndNoColumns) {
  const RecordBatch batch = batch_of({strings("column", {"value"})});
  EXPECT_EQ(render_table(batch, 0, 1, 0), "…\n-\n…\n");
  EXPECT_EQ(render_table(RecordBatch{}, 0, 0), "");
}

}  // namespace
}  // namespace parq::text
