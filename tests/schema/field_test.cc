// Tests of Field and make_schema: the element list the writer puts in the
// footer (three-level LIST/MAP, legacy converted types beside logical types,
// decimal storage), its printed form, levels, and the fields it refuses.
#include "parq/schema/field.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/schema/logical_type.h"

namespace parq {
namespace {

using format::ConvertedType;
using format::FieldRepetitionType;
using format::SchemaElement;
using format::Type;

std::vector<SchemaElement> elements_of(const Field& f) {
  std::vector<SchemaElement> out;
  f.append_elements(out);
  return out;
}

// The one element of a leaf field.
SchemaElement element_of(const Field& f) {
  std::vector<SchemaElement> e = elements_of(f);
  EXPECT_EQ(e.size(), 1u);
  return e.at(0);
}

std::vector<Field> every_leaf_type() {
  std::vector<Field> f;
  f.push_back(Field::boolean("b").required());
  f.push_back(Field::int32("i32"));
  f.push_back(Field::int64("i64").field_id(7));
  f.push_back(Field::int96("i96"));
  f.push_back(Field::float32("f32"));
  f.push_back(Field::float64("f64"));
  f.push_back(Field::binary("bin"));
  f.push_back(Field::fixed("fix", 5));
  f.push_back(Field::integer("i8", 8, true));
  f.push_back(Field::integer("u8", 8, false));
  f.push_back(Field::integer("i16", 16, true));
  f.push_back(Field::integer("u16", 16, false));
  f.push_back(Field::integer("s32", 32, true));
  f.push_back(Field::integer("u32", 32, false));
  f.push_back(Field::integer("s64", 64, true));
  f.push_back(Field::integer("u64", 64, false));
  f.push_back(Field::string("str"));
  f.push_back(Field::enumeration("enm"));
  f.push_back(Field::json("jsn"));
  f.push_back(Field::bson("bsn"));
  f.push_back(Field::uuid("uid"));
  f.push_back(Field::float16("half"));
  f.push_back(Field::date("day"));
  f.push_back(Field::time("t_ms", TimeUnitKind::kMillis));
  f.push_back(Field::time("t_us", TimeUnitKind::kMicros));
  f.push_back(Field::time("t_ns", TimeUnitKind::kNanos));
  f.push_back(Field::time("t_local", TimeUnitKind::kMillis, false));
  f.push_back(Field::timestamp("ts_ms", TimeUnitKind::kMillis));
  f.push_back(Field::timestamp("ts_us", TimeUnitKind::kMicros));
  f.push_back(Field::timestamp("ts_ns", TimeUnitKind::kNanos));
  f.push_back(Field::timestamp("ts_local", TimeUnitKind::kMicros, false));
  f.push_back(Field::decimal("dec9", 9, 2));
  f.push_back(Field::decimal("dec18", 18, 0));
  f.push_back(Field::decimal("dec38", 38, 10));
  f.push_back(Field::decimal("dec_bin", 50, 5, Type::BYTE_ARRAY));
  f.push_back(Field::interval("span"));
  return f;
}

// A list of maps whose values are structs with a nested list: every kind of
// nesting the writer has to describe, with repetitions that vary per level.
Field nested_field() {
  Field point = Field::group("point", {Field::float64("x").required(), Field::float64("y"),
                                       Field::list("labels", Field::string("element").required()).required()});
  Field map = Field::map("entry", Field::string("key"), std::move(point));
  return Field::list("records", std::move(map).required());
}

TEST(FieldTest, RichSchemaPrintsInParquetJavaNotation) {
  std::vector<Field> fields = every_leaf_type();
  fields.push_back(nested_field());
  fields.push_back(Field::int32("tags").repeated());
  const std::string expected =
      "message root_name {\n"
      "  required boolean b;\n"
      "  optional int32 i32;\n"
      "  optional int64 i64 = 7;\n"
      "  optional int96 i96;\n"
      "  optional float f32;\n"
      "  optional double f64;\n"
      "  optional binary bin;\n"
      "  optional fixed_len_byte_array(5) fix;\n"
      "  optional int32 i8 (INTEGER(8,true));\n"
      "  optional int32 u8 (INTEGER(8,false));\n"
      "  optional int32 i16 (INTEGER(16,true));\n"
      "  optional int32 u16 (INTEGER(16,false));\n"
      "  optional int32 s32 (INTEGER(32,true));\n"
      "  optional int32 u32 (INTEGER(32,false));\n"
      "  optional int64 s64 (INTEGER(64,true));\n"
      "  optional int64 u64 (INTEGER(64,false));\n"
      "  optional binary str (STRING);\n"
      "  optional binary enm (ENUM);\n"
      "  optional binary jsn (JSON);\n"
      "  optional binary bsn (BSON);\n"
      "  optional fixed_len_byte_array(16) uid (UUID);\n"
      "  optional fixed_len_byte_array(2) half (FLOAT16);\n"
      "  optional int32 day (DATE);\n"
      "  optional int32 t_ms (TIME(MILLIS,true));\n"
      "  optional int64 t_us (TIME(MICROS,true));\n"
      "  optional int64 t_ns (TIME(NANOS,true));\n"
      "  optional int32 t_local (TIME(MILLIS,false));\n"
      "  optional int64 ts_ms (TIMESTAMP(MILLIS,true));\n"
      "  optional int64 ts_us (TIMESTAMP(MICROS,true));\n"
      "  optional int64 ts_ns (TIMESTAMP(NANOS,true));\n"
      "  optional int64 ts_local (TIMESTAMP(MICROS,false));\n"
      "  optional int32 dec9 (DECIMAL(9,2));\n"
      "  optional int64 dec18 (DECIMAL(18,0));\n"
      "  optional fixed_len_byte_array(16) dec38 (DECIMAL(38,10));\n"
      "  optional binary dec_bin (DECIMAL(50,5));\n"
      "  optional fixed_len_byte_array(12) span (INTERVAL);\n"
      "  optional group records (LIST) {\n"
      "    repeated group list {\n"
      "      required group entry (MAP) {\n"
      "        repeated group key_value {\n"
      "          required binary key (STRING);\n"
      "          optional group point {\n"
      "            required double x;\n"
      "            optional double y;\n"
      "            required group labels (LIST) {\n"
      "              repeated group list {\n"
      "                required binary element (STRING);\n"
      "              }\n"
      "            }\n"
      "          }\n"
      "        }\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "  repeated int32 tags;\n"
      "}\n";
  EXPECT_EQ(make_schema(fields, "root_name").to_string(), expected);
}

TEST(FieldTest, RootElementCountsTopLevelFields) {
  Schema s = make_schema({Field::int32("a"), nested_field()});
  ASSERT_FALSE(s.elements().empty());
  const SchemaElement& root = s.element(0);
  EXPECT_EQ(root.name, "schema");
  EXPECT_EQ(root.num_children, 2);
  EXPECT_FALSE(root.type.has_value());
  EXPECT_FALSE(root.repetition_type.has_value());
  EXPECT_EQ(make_schema({}).to_string(), "message schema {\n}\n");
}

TEST(FieldTest, ElementsAreDepthFirstWithChildCounts) {
  std::vector<SchemaElement> e = elements_of(nested_field());
  std::vector<std::string> names;
  for (const SchemaElement& x : e) names.push_back(x.name);
  EXPECT_EQ(names, (std::vector<std::string>{"records", "list", "entry", "key_value", "key", "point", "x", "y",
                                             "labels", "list", "element"}));
  std::vector<std::optional<int32_t>> children;
  for (const SchemaElement& x : e) children.push_back(x.num_children);
  EXPECT_EQ(children, (std::vector<std::optional<int32_t>>{1, 1, 1, 2, std::nullopt, 3, std::nullopt, std::nullopt, 1,
                                                           1, std::nullopt}));
  // Groups carry no type; leaves no child count.
  for (const SchemaElement& x : e) EXPECT_NE(x.type.has_value(), x.num_children.has_value()) << x.name;
}

TEST(FieldTest, ListAndMapGroupsCarryLogicalAndConvertedTypes) {
  std::vector<SchemaElement> e = elements_of(nested_field());
  EXPECT_TRUE(e[0].logical_type && e[0].logical_type->LIST);
  EXPECT_EQ(e[0].converted_type, ConvertedType::LIST);
  EXPECT_EQ(e[0].repetition_type, FieldRepetitionType::OPTIONAL);
  EXPECT_EQ(e[1].repetition_type, FieldRepetitionType::REPEATED);
  EXPECT_FALSE(e[1].logical_type.has_value());
  EXPECT_FALSE(e[1].converted_type.has_value());
  EXPECT_TRUE(e[2].logical_type && e[2].logical_type->MAP);
  EXPECT_EQ(e[2].converted_type, ConvertedType::MAP);
  EXPECT_EQ(e[3].repetition_type, FieldRepetitionType::REPEATED);
  // The new form is annotated on the outer group only: MAP_KEY_VALUE is the
  // legacy mistake LogicalTypes.md says writers should not produce.
  EXPECT_FALSE(e[3].converted_type.has_value());
}

TEST(FieldTest, MapKeyIsForcedRequired) {
  Field m = Field::map("m", Field::int32("k").optional(), Field::int32("v").required());
  std::vector<SchemaElement> e = elements_of(m);
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[2].name, "k");
  EXPECT_EQ(e[2].repetition_type, FieldRepetitionType::REQUIRED);
  EXPECT_EQ(e[3].repetition_type, FieldRepetitionType::REQUIRED);  // the value keeps its own
}

struct ConvertedCase {
  Field field;
  std::optional<ConvertedType> converted;
};

TEST(FieldTest, LeafElementsCarryTheLegacyConvertedType) {
  const std::vector<ConvertedCase> cases = {
      {Field::int32("x"), std::nullopt},
      {Field::string("x"), ConvertedType::UTF8},
      {Field::enumeration("x"), ConvertedType::ENUM},
      {Field::json("x"), ConvertedType::JSON},
      {Field::bson("x"), ConvertedType::BSON},
      {Field::uuid("x"), std::nullopt},
      {Field::float16("x"), std::nullopt},
      {Field::date("x"), ConvertedType::DATE},
      {Field::time("x", TimeUnitKind::kMillis), ConvertedType::TIME_MILLIS},
      {Field::time("x", TimeUnitKind::kMicros), ConvertedType::TIME_MICROS},
      {Field::time("x", TimeUnitKind::kNanos), std::nullopt},
      {Field::time("x", TimeUnitKind::kMillis, false), std::nullopt},
      {Field::time("x", TimeUnitKind::kMicros, false), std::nullopt},
      {Field::timestamp("x", TimeUnitKind::kMillis), ConvertedType::TIMESTAMP_MILLIS},
      {Field::timestamp("x", TimeUnitKind::kMicros), ConvertedType::TIMESTAMP_MICROS},
      {Field::timestamp("x", TimeUnitKind::kNanos), std::nullopt},
      {Field::timestamp("x", TimeUnitKind::kMillis, false), std::nullopt},
      {Field::timestamp("x", TimeUnitKind::kMicros, false), std::nullopt},
      {Field::integer("x", 8, true), ConvertedType::INT_8},
      {Field::integer("x", 16, true), ConvertedType::INT_16},
      {Field::integer("x", 32, true), ConvertedType::INT_32},
      {Field::integer("x", 64, true), ConvertedType::INT_64},
      {Field::integer("x", 8, false), ConvertedType::UINT_8},
      {Field::integer("x", 16, false), ConvertedType::UINT_16},
      {Field::integer("x", 32, false), ConvertedType::UINT_32},
      {Field::integer("x", 64, false), ConvertedType::UINT_64},
      {Field::decimal("x", 5, 1), ConvertedType::DECIMAL},
      {Field::interval("x"), ConvertedType::INTERVAL},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    SchemaElement e = element_of(cases[i].field);
    EXPECT_EQ(e.converted_type, cases[i].converted) << "case " << i;
    // The converted type must read back as the same annotation, else old and
    // new readers would disagree about the column.
    if (e.converted_type && e.logical_type && *e.converted_type != ConvertedType::INTERVAL) {
      EXPECT_EQ(logical_type_from_converted(*e.converted_type, e.scale.value_or(0), e.precision.value_or(0)),
                *e.logical_type)
          << "case " << i;
    }
  }
}

TEST(FieldTest, ConvertedTypeForHasNoneWithoutAnEquivalent) {
  format::LogicalType unknown;
  unknown.UNKNOWN.emplace();
  EXPECT_FALSE(converted_type_for(unknown).has_value());
  EXPECT_FALSE(converted_type_for(format::LogicalType{}).has_value());
  format::LogicalType odd;
  odd.INTEGER = format::IntType{7, true};
  EXPECT_FALSE(converted_type_for(odd).has_value());
}

TEST(FieldTest, IntervalHasOnlyTheConvertedType) {
  SchemaElement e = element_of(Field::interval("span"));
  EXPECT_EQ(e.type, Type::FIXED_LEN_BYTE_ARRAY);
  EXPECT_EQ(e.type_length, 12);
  EXPECT_FALSE(e.logical_type.has_value());
  EXPECT_EQ(e.converted_type, ConvertedType::INTERVAL);
  Schema s = make_schema({Field::interval("span")});
  EXPECT_EQ(s.column(0).type.converted, ConvertedType::INTERVAL);
}

TEST(FieldTest, PhysicalTypesOfAnnotatedLeaves) {
  EXPECT_EQ(element_of(Field::time("t", TimeUnitKind::kMillis)).type, Type::INT32);
  EXPECT_EQ(element_of(Field::time("t", TimeUnitKind::kMicros)).type, Type::INT64);
  EXPECT_EQ(element_of(Field::timestamp("t", TimeUnitKind::kMillis)).type, Type::INT64);
  EXPECT_EQ(element_of(Field::integer("i", 64, false)).type, Type::INT64);
  EXPECT_EQ(element_of(Field::integer("i", 16, false)).type, Type::INT32);
  EXPECT_EQ(element_of(Field::date("d")).type, Type::INT32);
  EXPECT_FALSE(element_of(Field::int32("i")).type_length.has_value());
  EXPECT_EQ(element_of(Field::uuid("u")).type_length, 16);
  EXPECT_EQ(element_of(Field::float16("h")).type_length, 2);
}

struct DecimalStorage {
  int32_t precision;
  Type physical;
  int32_t type_length;
};

TEST(FieldTest, DecimalStorageFollowsPrecision) {
  const std::vector<DecimalStorage> cases = {
      {1, Type::INT32, 0},
      {9, Type::INT32, 0},
      {10, Type::INT64, 0},
      {18, Type::INT64, 0},
      {19, Type::FIXED_LEN_BYTE_ARRAY, 9},  // 2^71 ~ 2.4e21: 21 digits
      {21, Type::FIXED_LEN_BYTE_ARRAY, 9},
      {22, Type::FIXED_LEN_BYTE_ARRAY, 10},
      {38, Type::FIXED_LEN_BYTE_ARRAY, 16},
      {39, Type::FIXED_LEN_BYTE_ARRAY, 17},
      {76, Type::FIXED_LEN_BYTE_ARRAY, 32},
      {77, Type::FIXED_LEN_BYTE_ARRAY, 33},
  };
  for (const DecimalStorage& c : cases) {
    SchemaElement e = element_of(Field::decimal("d", c.precision, 0));
    EXPECT_EQ(e.type, c.physical) << c.precision;
    EXPECT_EQ(e.type_length.value_or(0), c.type_length) << c.precision;
    EXPECT_EQ(e.precision, c.precision);
    EXPECT_EQ(e.scale, 0);
    ASSERT_TRUE(e.logical_type && e.logical_type->DECIMAL);
    EXPECT_EQ(e.logical_type->DECIMAL->precision, c.precision);
    // The fewest bytes: one fewer would not hold the precision.
    if (c.type_length > 1) {
      EXPECT_LT(max_decimal_precision(Type::FIXED_LEN_BYTE_ARRAY, c.type_length - 1), c.precision);
    }
    EXPECT_NO_THROW(make_schema({Field::decimal("d", c.precision, 0)}));
  }
}

TEST(FieldTest, DecimalStorageCanBeChosen) {
  SchemaElement bin = element_of(Field::decimal("d", 10, 3, Type::BYTE_ARRAY));
  EXPECT_EQ(bin.type, Type::BYTE_ARRAY);
  EXPECT_FALSE(bin.type_length.has_value());
  EXPECT_EQ(bin.scale, 3);
  EXPECT_EQ(bin.precision, 10);
  SchemaElement wide = element_of(Field::decimal("d", 10, 3, Type::FIXED_LEN_BYTE_ARRAY).with_type_length(16));
  EXPECT_EQ(wide.type_length, 16);
  SchemaElement i64 = element_of(Field::decimal("d", 4, 0, Type::INT64));
  EXPECT_EQ(i64.type, Type::INT64);
  Schema s = make_schema({Field::decimal("d", 10, 3, Type::FIXED_LEN_BYTE_ARRAY).with_type_length(16)});
  EXPECT_EQ(s.column(0).type.type_length, 16);
  EXPECT_EQ(s.column(0).type.logical.DECIMAL->scale, 3);
}

TEST(FieldTest, LogicalTypeReplacesAnnotationAndConvertedType) {
  format::LogicalType ts;
  ts.TIMESTAMP = format::TimestampType{false, {}};
  ts.TIMESTAMP->unit.NANOS.emplace();
  Field f = Field::int64("t");
  f.logical_type(ts);
  SchemaElement e = element_of(f);
  EXPECT_FALSE(e.converted_type.has_value());
  // A decimal re-annotated loses its scale and precision fields too.
  Field d = Field::decimal("d", 12, 2);
  format::LogicalType integer;
  integer.INTEGER = format::IntType{64, true};
  d.logical_type(integer);
  SchemaElement de = element_of(d);
  EXPECT_EQ(de.converted_type, ConvertedType::INT_64);
  EXPECT_FALSE(de.scale.has_value());
  EXPECT_FALSE(de.precision.has_value());
  // An explicit converted type still wins when set last.
  Field j = Field::binary("j");
  j.converted_type(ConvertedType::JSON);
  EXPECT_EQ(element_of(j).converted_type, ConvertedType::JSON);
  EXPECT_FALSE(element_of(j).logical_type.has_value());
}

TEST(FieldTest, LevelsFollowRepetitions) {
  Schema s = make_schema({Field::int64("id").required(), Field::string("name"), nested_field(),
                          Field::int32("tags").repeated(),
                          Field::group("g", {Field::int32("a").required(), Field::int32("b")}).required()});
  struct Want {
    const char* path;
    int16_t def;
    int16_t rep;
  };
  const std::vector<Want> wants = {
      {"id", 0, 0},
      {"name", 1, 0},
      // records(opt) list(rep) entry(req) key_value(rep) key(req)
      {"records.list.entry.key_value.key", 3, 2},
      // ... point(opt) x(req) / y(opt)
      {"records.list.entry.key_value.point.x", 4, 2},
      {"records.list.entry.key_value.point.y", 5, 2},
      // ... point(opt) labels(req) list(rep) element(req)
      {"records.list.entry.key_value.point.labels.list.element", 5, 3},
      {"tags", 1, 1},
      {"g.a", 0, 0},
      {"g.b", 1, 0},
  };
  ASSERT_EQ(s.num_columns(), wants.size());
  for (const Want& w : wants) {
    int i = s.find_column(w.path);
    ASSERT_GE(i, 0) << w.path;
    EXPECT_EQ(s.column(i).max_definition_level, w.def) << w.path;
    EXPECT_EQ(s.column(i).max_repetition_level, w.rep) << w.path;
  }
}

TEST(FieldTest, ColumnsResolveTheAnnotations) {
  Schema s = make_schema(every_leaf_type());
  ASSERT_EQ(s.num_columns(), every_leaf_type().size());
  for (const ColumnDescriptor& c : s.columns()) {
    // Nothing was dropped by validation, so statistics stay trusted; only
    // INT96 and INTERVAL have no defined order.
    if (c.path[0] != "i96" && c.path[0] != "span") {
      EXPECT_NE(c.sort_order, SortOrder::kUnknown) << c.dotted_path();
    }
  }
  EXPECT_TRUE(s.column(s.find_column("u16")).type.logical.INTEGER);
  EXPECT_TRUE(s.column(s.find_column("dec38")).type.logical.DECIMAL);
  EXPECT_EQ(s.column(s.find_column("dec38")).type.type_length, 16);
  EXPECT_EQ(s.column(s.find_column("i64")).node->field_id(), 7);
}

void expect_error(const std::vector<Field>& fields, const std::string& mentions) {
  try {
    make_schema(fields);
    ADD_FAILURE() << "no error; wanted one mentioning " << mentions;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
  }
}

TEST(FieldTest, InvalidFieldsThrow) {
  expect_error({Field::decimal("dec_zero", 0, 0)}, "dec_zero");
  expect_error({Field::decimal("dec_scale", 5, 6)}, "dec_scale");
  expect_error({Field::decimal("dec_neg", 5, -1)}, "dec_neg");
  expect_error({Field::decimal("dec_narrow", 10, 0, Type::INT32)}, "dec_narrow");
  expect_error({Field::decimal("dec_short", 20, 0).with_type_length(8)}, "dec_short");
  expect_error({Field::decimal("dec_bool", 3, 0, Type::BOOLEAN)}, "dec_bool");
  expect_error({Field::fixed("flba0", 0)}, "flba0");
  expect_error({Field::fixed("flba_neg", -3)}, "flba_neg");
  expect_error({Field::integer("int7", 7, true)}, "int7");
  expect_error({Field::integer("int128", 128, false)}, "int128");
  // Annotations that do not fit their storage are refused rather than
  // silently dropped, as reading a file would.
  Field string_on_int = Field::int32("string_on_int");
  format::LogicalType str;
  str.STRING.emplace();
  string_on_int.logical_type(str);
  expect_error({string_on_int}, "string_on_int");
  Field uuid_short = Field::uuid("uuid_short").with_type_length(8);
  expect_error({uuid_short}, "uuid_short");
  Field list_leaf = Field::int32("list_leaf");
  format::LogicalType list;
  list.LIST.emplace();
  list_leaf.logical_type(list);
  expect_error({list_leaf}, "list_leaf");
  Field group_string = Field::group("group_string", {Field::int32("a")});
  group_string.logical_type(str);
  expect_error({group_string}, "group_string");
  // A bad field deep inside nesting is found too.
  expect_error({Field::list("outer", Field::group("inner", {Field::decimal("deep", 0, 0)}))}, "deep");
}

}  // namespace
}  // namespace parq
