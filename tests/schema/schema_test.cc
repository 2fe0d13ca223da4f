// Tests of Schema::from_elements: the tree, levels, paths, annotations and
// the leniency rules for files from the wild.
#include "parq/schema/schema.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parq/error.h"
#include "schema/schema_elements.h"

namespace parq {
namespace {

using namespace format;  // the tests speak in the spec's names
using testing::kOptional;
using testing::kRepeated;
using testing::kRequired;

using testing::group;
using testing::leaf;
using testing::root;

SchemaElement fixed(std::string name, FieldRepetitionType rep, int32_t length) {
  SchemaElement e = leaf(std::move(name), rep, Type::FIXED_LEN_BYTE_ARRAY);
  e.type_length = length;
  return e;
}

SchemaElement with_logical(SchemaElement e, LogicalType logical) {
  e.logical_type = std::move(logical);
  return e;
}

SchemaElement with_decimal(SchemaElement e, int32_t precision, int32_t scale) {
  e.converted_type = ConvertedType::DECIMAL;
  e.precision = precision;
  e.scale = scale;
  return e;
}

struct Levels {
  int16_t def;
  int16_t rep;
};

void expect_levels(const Schema& s, std::string_view path, Levels want) {
  int i = s.find_column(path);
  ASSERT_GE(i, 0) << path;
  EXPECT_EQ(s.column(i).max_definition_level, want.def) << path;
  EXPECT_EQ(s.column(i).max_repetition_level, want.rep) << path;
}

TEST(SchemaTest, FlatSchema) {
  Schema s = Schema::from_elements({root(3), leaf("id", kRequired, Type::INT64),
                                    leaf("name", kOptional, Type::BYTE_ARRAY, ConvertedType::UTF8),
                                    leaf("flags", kRepeated, Type::BOOLEAN)});
  ASSERT_EQ(s.num_columns(), 3u);
  EXPECT_EQ(s.root().name(), "schema");
  EXPECT_TRUE(s.root().is_root());
  EXPECT_TRUE(s.root().is_group());
  EXPECT_EQ(s.root().num_children(), 3u);
  EXPECT_EQ(s.root().column_index(), -1);
  EXPECT_EQ(s.num_nodes(), 4u);

  const ColumnDescriptor& name = s.column(1);
  EXPECT_EQ(name.column_index, 1);
  EXPECT_EQ(name.path, std::vector<std::string>{"name"});
  EXPECT_EQ(name.dotted_path(), "name");
  EXPECT_EQ(name.type.physical, Type::BYTE_ARRAY);
  EXPECT_TRUE(name.type.logical.STRING.has_value());
  EXPECT_EQ(name.type.converted, ConvertedType::UTF8);
  EXPECT_EQ(name.repetition, kOptional);
  EXPECT_EQ(name.sort_order, SortOrder::kUnsigned);
  EXPECT_EQ(name.node, &s.node(2));
  EXPECT_EQ(name.node->parent(), &s.root());
  EXPECT_EQ(name.node->element_index(), 2u);
  EXPECT_EQ(name.node->column_index(), 1);
  EXPECT_TRUE(name.node->is_leaf());
  EXPECT_EQ(name.node->physical_type(), Type::BYTE_ARRAY);

  expect_levels(s, "id", {0, 0});
  expect_levels(s, "name", {1, 0});
  expect_levels(s, "flags", {1, 1});
  EXPECT_EQ(s.column(0).sort_order, SortOrder::kSigned);
}

TEST(SchemaTest, NestedStructsGivePathsAndLevels) {
  Schema s = Schema::from_elements({root(2), group("a", kOptional, 2), leaf("x", kRequired, Type::INT32),
                                    group("b", kRequired, 1), leaf("y", kOptional, Type::DOUBLE),
                                    leaf("z", kRequired, Type::FLOAT)});
  ASSERT_EQ(s.num_columns(), 3u);
  EXPECT_EQ(s.column(0).dotted_path(), "a.x");
  EXPECT_EQ(s.column(1).path, (std::vector<std::string>{"a", "b", "y"}));
  EXPECT_EQ(s.column(1).dotted_path(), "a.b.y");
  EXPECT_EQ(s.column(2).dotted_path(), "z");
  expect_levels(s, "a.x", {1, 0});
  expect_levels(s, "a.b.y", {2, 0});
  expect_levels(s, "z", {0, 0});

  const SchemaNode& b = s.node(3);
  EXPECT_EQ(b.name(), "b");
  EXPECT_EQ(b.parent(), &s.node(1));
  EXPECT_EQ(b.path(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(b.max_definition_level(), 1);
  EXPECT_EQ(&s.node(1).child(1), &b);
  EXPECT_FALSE(b.physical_type().has_value());
  EXPECT_TRUE(s.root().path().empty());
}

TEST(SchemaTest, ThreeLevelList) {
  Schema s =
      Schema::from_elements({root(1), group("tags", kOptional, 1, ConvertedType::LIST), group("list", kRepeated, 1),
                             leaf("element", kOptional, Type::BYTE_ARRAY, ConvertedType::UTF8)});
  ASSERT_EQ(s.num_columns(), 1u);
  EXPECT_EQ(s.column(0).dotted_path(), "tags.list.element");
  expect_levels(s, "tags.list.element", {3, 1});
  EXPECT_TRUE(s.node(1).logical_type().LIST.has_value());
  EXPECT_EQ(s.node(1).converted_type(), ConvertedType::LIST);
  EXPECT_EQ(s.node(2).max_repetition_level(), 1);
  EXPECT_EQ(s.node(2).max_definition_level(), 2);
}

TEST(SchemaTest, Map) {
  Schema s = Schema::from_elements(
      {root(1), group("m", kOptional, 1, ConvertedType::MAP), group("key_value", kRepeated, 2),
       leaf("key", kRequired, Type::BYTE_ARRAY, ConvertedType::UTF8), leaf("value", kOptional, Type::INT32)});
  ASSERT_EQ(s.num_columns(), 2u);
  EXPECT_TRUE(s.node(1).logical_type().MAP.has_value());
  expect_levels(s, "m.key_value.key", {2, 1});
  expect_levels(s, "m.key_value.value", {3, 1});
}

TEST(SchemaTest, ListOfListsCountsBothRepetitions) {
  Schema s = Schema::from_elements({root(1), group("outer", kOptional, 1, ConvertedType::LIST),
                                    group("list", kRepeated, 1), group("element", kRequired, 1, ConvertedType::LIST),
                                    group("list", kRepeated, 1), leaf("element", kOptional, Type::INT32)});
  expect_levels(s, "outer.list.element.list.element", {4, 2});
}

TEST(SchemaTest, LegacyTwoLevelListAndRepeatedPrimitive) {
  Schema s = Schema::from_elements({root(3), group("l", kOptional, 1, ConvertedType::LIST),
                                    leaf("element", kRepeated, Type::INT32), leaf("r", kRepeated, Type::INT64),
                                    group("g", kRepeated, 2), leaf("a", kRequired, Type::INT32),
                                    leaf("b", kOptional, Type::BYTE_ARRAY)});
  expect_levels(s, "l.element", {2, 1});
  expect_levels(s, "r", {1, 1});
  expect_levels(s, "g.a", {1, 1});
  expect_levels(s, "g.b", {2, 1});
  EXPECT_EQ(s.column(1).repetition, kRepeated);
}

TEST(SchemaTest, EmptyGroupIsKeptWithoutLeaves) {
  Schema s = Schema::from_elements(
      {root(3), leaf("a", kRequired, Type::INT32), group("empty", kOptional, 0), leaf("b", kRequired, Type::INT32)});
  ASSERT_EQ(s.num_columns(), 2u);
  EXPECT_EQ(s.column(1).dotted_path(), "b");
  EXPECT_EQ(s.column(1).node->element_index(), 3u);
  EXPECT_TRUE(s.node(2).is_group());
  EXPECT_EQ(s.node(2).num_children(), 0u);
}

TEST(SchemaTest, RootOnlyHasNoColumns) {
  Schema s = Schema::from_elements({root(0)});
  EXPECT_EQ(s.num_columns(), 0u);
  SchemaElement no_children;
  no_children.name = "m";
  EXPECT_EQ(Schema::from_elements({no_children}).root().num_children(), 0u);
}

TEST(SchemaTest, RootRepetitionRequiredOrOptionalAddsNoLevel) {
  for (auto rep : {kRequired, kOptional}) {
    SchemaElement r = root(1);
    r.repetition_type = rep;
    Schema s = Schema::from_elements({r, leaf("x", kOptional, Type::INT32)});
    expect_levels(s, "x", {1, 0});
    EXPECT_EQ(s.root().repetition(), kRequired);
  }
}

TEST(SchemaTest, MissingRepetitionIsRequired) {
  SchemaElement x = leaf("x", kOptional, Type::INT32);
  x.repetition_type.reset();
  SchemaElement g = group("g", kOptional, 1);
  g.repetition_type.reset();
  Schema s = Schema::from_elements({root(2), x, g, leaf("y", kOptional, Type::INT32)});
  EXPECT_EQ(s.column(0).repetition, kRequired);
  expect_levels(s, "x", {0, 0});
  expect_levels(s, "g.y", {1, 0});
}

TEST(SchemaTest, FindColumn) {
  Schema s = Schema::from_elements(
      {root(2), group("a", kOptional, 1), leaf("b", kRequired, Type::INT32), leaf("c", kRequired, Type::INT32)});
  EXPECT_EQ(s.find_column("a.b"), 0);
  EXPECT_EQ(s.find_column("c"), 1);
  EXPECT_EQ(s.find_column("a"), -1);
  EXPECT_EQ(s.find_column("b"), -1);
  EXPECT_EQ(s.find_column(""), -1);
}

TEST(SchemaTest, DuplicatePathsFindTheFirst) {
  Schema s = Schema::from_elements({root(3), leaf("a.b", kRequired, Type::INT32), group("a", kRequired, 1),
                                    leaf("b", kRequired, Type::INT64), leaf("a.b", kRequired, Type::INT32)});
  ASSERT_EQ(s.num_columns(), 3u);
  EXPECT_EQ(s.column(1).dotted_path(), "a.b");
  EXPECT_EQ(s.find_column("a.b"), 0);
}

TEST(SchemaTest, ElementsAreKeptVerbatim) {
  std::vector<SchemaElement> elements = {root(2), with_decimal(leaf("d", kOptional, Type::INT32), 9, 2),
                                         fixed("f", kRequired, 3)};
  elements[1].field_id = 7;
  Schema s = Schema::from_elements(elements);
  EXPECT_EQ(s.elements(), elements);
  EXPECT_EQ(s.element(1), elements[1]);
  EXPECT_EQ(s.node(1).field_id(), 7);
  EXPECT_FALSE(s.node(2).field_id().has_value());
}

TEST(SchemaTest, CopiesPointIntoThemselvesAndMovesKeepPointers) {
  Schema original = Schema::from_elements({root(1), group("g", kOptional, 1), leaf("x", kOptional, Type::INT32)});
  Schema copy = original;
  EXPECT_EQ(copy.column(0).node, &copy.node(2));
  EXPECT_EQ(copy.node(2).parent(), &copy.node(1));
  EXPECT_NE(copy.column(0).node, original.column(0).node);
  EXPECT_EQ(copy.to_string(), original.to_string());

  const SchemaNode* leaf_node = original.column(0).node;
  Schema moved = std::move(original);
  EXPECT_EQ(moved.column(0).node, leaf_node);
  EXPECT_EQ(&moved.node(2), leaf_node);
  EXPECT_EQ(leaf_node->parent()->parent(), &moved.root());

  Schema assigned;
  assigned = copy;
  EXPECT_EQ(assigned.column(0).node, &assigned.node(2));
  EXPECT_EQ(assigned.find_column("g.x"), 0);
}

TEST(SchemaTest, DefaultIsAnEmptyMessage) {
  Schema s;
  EXPECT_EQ(s.num_columns(), 0u);
  EXPECT_EQ(s.root().name(), "schema");
  EXPECT_EQ(s.to_string(), "message schema {\n}\n");
}

TEST(SchemaTest, IndexesOutOfRangeThrowError) {
  Schema s = Schema::from_elements({root(1), leaf("x", kRequired, Type::INT32)});
  EXPECT_NO_THROW(s.column(0));
  EXPECT_THROW(s.column(1), Error);
  EXPECT_NO_THROW(s.node(1));
  EXPECT_THROW(s.node(2), Error);
  EXPECT_NO_THROW(s.element(1));
  EXPECT_THROW(s.element(2), Error);
  EXPECT_NO_THROW(s.root().child(0));
  EXPECT_THROW(s.root().child(1), Error);
}

TEST(SchemaTest, FixedLenTypeLengthAndIgnoredLengthElsewhere) {
  SchemaElement i = leaf("i", kRequired, Type::INT32);
  i.type_length = 99;  // meaningless on INT32; some writers set it
  Schema s = Schema::from_elements({root(2), fixed("f", kRequired, 7), i});
  EXPECT_EQ(s.column(0).type.type_length, 7);
  EXPECT_EQ(s.column(0).node->type_length(), 7);
  EXPECT_EQ(s.column(1).type.type_length, 0);
}

TEST(SchemaTest, DecimalFromConvertedAndLogical) {
  SchemaElement logical = with_decimal(fixed("l", kRequired, 16), 5, 1);
  logical.logical_type = LogicalType{.DECIMAL = format::DecimalType{4, 38}};
  Schema s = Schema::from_elements(
      {root(3), with_decimal(leaf("c", kRequired, Type::INT64), 18, 3), logical,
       with_logical(leaf("b", kRequired, Type::BYTE_ARRAY), {.DECIMAL = format::DecimalType{0, 100}})});
  EXPECT_EQ(s.column(0).type.logical.DECIMAL, (format::DecimalType{3, 18}));
  EXPECT_EQ(s.column(1).type.logical.DECIMAL, (format::DecimalType{4, 38}));
  EXPECT_EQ(s.column(2).type.logical.DECIMAL, (format::DecimalType{0, 100}));
  EXPECT_EQ(s.column(0).sort_order, SortOrder::kSigned);
}

TEST(SchemaTest, ConvertedTypesBecomeLogicalTypesOnColumns) {
  Schema s = Schema::from_elements({root(4), leaf("u", kRequired, Type::INT32, ConvertedType::UINT_16),
                                    leaf("t", kRequired, Type::INT64, ConvertedType::TIMESTAMP_MILLIS),
                                    leaf("d", kRequired, Type::INT32, ConvertedType::DATE),
                                    leaf("j", kRequired, Type::BYTE_ARRAY, ConvertedType::JSON)});
  EXPECT_EQ(s.column(0).type.logical.INTEGER, (format::IntType{16, false}));
  EXPECT_EQ(s.column(0).sort_order, SortOrder::kUnsigned);
  ASSERT_TRUE(s.column(1).type.logical.TIMESTAMP.has_value());
  EXPECT_TRUE(s.column(1).type.logical.TIMESTAMP->is_adjusted_to_utc);
  EXPECT_TRUE(s.column(1).type.logical.TIMESTAMP->unit.MILLIS.has_value());
  EXPECT_TRUE(s.column(2).type.logical.DATE.has_value());
  EXPECT_TRUE(s.column(3).type.logical.JSON.has_value());
  EXPECT_EQ(s.column(3).type.converted, ConvertedType::JSON);
}

// An annotation that does not fit is dropped: physical reading, sort order
// unknown, the node still reporting the element's converted type.
void expect_dropped(const SchemaElement& e) {
  Schema s = Schema::from_elements({root(1), e});
  const ColumnDescriptor& c = s.column(0);
  EXPECT_FALSE(has_logical_type(c.type.logical)) << s.to_string();
  EXPECT_FALSE(c.type.converted.has_value()) << s.to_string();
  EXPECT_EQ(c.sort_order, SortOrder::kUnknown) << s.to_string();
  EXPECT_FALSE(has_logical_type(c.node->logical_type()));
  EXPECT_EQ(c.node->converted_type(), e.converted_type);
}

TEST(SchemaTest, AnnotationsThatDoNotFitAreDropped) {
  expect_dropped(leaf("s", kRequired, Type::INT32, ConvertedType::UTF8));
  expect_dropped(leaf("d", kRequired, Type::BYTE_ARRAY, ConvertedType::DATE));
  expect_dropped(leaf("t", kRequired, Type::INT32, ConvertedType::TIMESTAMP_MICROS));
  expect_dropped(leaf("u", kRequired, Type::INT32, ConvertedType::UINT_64));
  expect_dropped(leaf("i", kRequired, Type::INT64, ConvertedType::INT_8));
  expect_dropped(with_logical(fixed("uuid", kRequired, 8), {.UUID = format::UUIDType{}}));
  expect_dropped(with_logical(fixed("h", kRequired, 4), {.FLOAT16 = format::Float16Type{}}));
  expect_dropped(with_logical(leaf("w", kRequired, Type::INT32), {.INTEGER = format::IntType{7, true}}));
  expect_dropped(leaf("l", kRepeated, Type::INT32, ConvertedType::LIST));
  expect_dropped(leaf("mkv", kRequired, Type::INT32, ConvertedType::MAP_KEY_VALUE));
  SchemaElement interval = fixed("iv", kRequired, 8);
  interval.converted_type = ConvertedType::INTERVAL;
  expect_dropped(interval);
  expect_dropped(with_logical(leaf("tu", kRequired, Type::INT64), {.TIME = format::TimeType{true, {}}}));
  expect_dropped(with_logical(leaf("v", kRequired, Type::BYTE_ARRAY), {.VARIANT = format::VariantType{}}));
}

TEST(SchemaTest, UnannotatedColumnKeepsPhysicalSortOrder) {
  Schema s = Schema::from_elements({root(1), fixed("f", kRequired, 8)});
  EXPECT_EQ(s.column(0).sort_order, SortOrder::kUnsigned);
}

TEST(SchemaTest, IntervalOnTwelveBytesIsKept) {
  SchemaElement e = fixed("iv", kRequired, 12);
  e.converted_type = ConvertedType::INTERVAL;
  Schema s = Schema::from_elements({root(1), e});
  EXPECT_EQ(s.column(0).type.converted, ConvertedType::INTERVAL);
  EXPECT_FALSE(has_logical_type(s.column(0).type.logical));
  EXPECT_EQ(s.column(0).sort_order, SortOrder::kUnknown);
}

TEST(SchemaTest, ConvertedTypeContradictingTheLogicalTypeIsNotPassedOn) {
  SchemaElement e = with_logical(leaf("s", kRequired, Type::BYTE_ARRAY), {.STRING = format::StringType{}});
  e.converted_type = ConvertedType::INTERVAL;
  SchemaElement legacy_time = with_logical(leaf("t", kRequired, Type::INT32),
                                           {.TIME = format::TimeType{false, {.MILLIS = format::MilliSeconds{}}}});
  legacy_time.converted_type = ConvertedType::TIME_MILLIS;  // what writers must add for local times
  Schema s = Schema::from_elements({root(2), e, legacy_time});
  EXPECT_TRUE(s.column(0).type.logical.STRING.has_value());
  EXPECT_FALSE(s.column(0).type.converted.has_value());
  EXPECT_EQ(s.column(0).node->converted_type(), ConvertedType::INTERVAL);
  EXPECT_EQ(s.column(0).sort_order, SortOrder::kUnsigned);
  EXPECT_EQ(s.column(1).type.converted, ConvertedType::TIME_MILLIS);
  EXPECT_FALSE(s.column(1).type.logical.TIME->is_adjusted_to_utc);
}

TEST(SchemaTest, GroupAnnotations) {
  SchemaElement str_group = group("s", kOptional, 1, ConvertedType::UTF8);
  Schema s = Schema::from_elements(
      {root(3), str_group, leaf("x", kRequired, Type::INT32), group("kv", kOptional, 1, ConvertedType::MAP_KEY_VALUE),
       leaf("y", kRequired, Type::INT32),
       with_logical(group("v", kOptional, 2), {.VARIANT = format::VariantType{int8_t{1}}}),
       leaf("metadata", kRequired, Type::BYTE_ARRAY), leaf("value", kRequired, Type::BYTE_ARRAY)});
  EXPECT_FALSE(has_logical_type(s.node(1).logical_type()));
  EXPECT_EQ(s.node(1).converted_type(), ConvertedType::UTF8);
  EXPECT_FALSE(has_logical_type(s.node(3).logical_type()));
  EXPECT_EQ(s.node(3).converted_type(), ConvertedType::MAP_KEY_VALUE);
  EXPECT_TRUE(s.node(5).logical_type().VARIANT.has_value());
}

TEST(SchemaTest, UnknownLogicalTypeFallsBackToConvertedOrPhysical) {
  SchemaElement with_legacy = leaf("a", kOptional, Type::BYTE_ARRAY, ConvertedType::UTF8);
  with_legacy.logical_type = LogicalType{};  // a member this version does not know
  SchemaElement bare = leaf("b", kOptional, Type::BYTE_ARRAY);
  bare.logical_type = LogicalType{};
  Schema s = Schema::from_elements({root(2), with_legacy, bare});
  EXPECT_TRUE(s.column(0).type.logical.STRING.has_value());
  EXPECT_EQ(s.column(0).sort_order, SortOrder::kUnsigned);
  EXPECT_FALSE(has_logical_type(s.column(1).type.logical));
  EXPECT_EQ(s.column(1).sort_order, SortOrder::kUnknown);
}

TEST(SchemaTest, ConvertedTypeOutsideTheEnumIsIgnored) {
  SchemaElement e = leaf("x", kRequired, Type::INT32);
  e.converted_type = static_cast<ConvertedType>(77);
  Schema s = Schema::from_elements({root(1), e});
  EXPECT_FALSE(s.column(0).type.converted.has_value());
  EXPECT_FALSE(s.node(1).converted_type().has_value());
  EXPECT_EQ(s.column(0).sort_order, SortOrder::kSigned);
}

TEST(SchemaPrinterTest, RepresentativeSchema) {
  SchemaElement id = leaf("id", kRequired, Type::INT64);
  id.field_id = 1;
  SchemaElement tags = group("tags", kOptional, 1, ConvertedType::LIST);
  tags.field_id = 2;
  SchemaElement interval = fixed("span", kOptional, 12);
  interval.converted_type = ConvertedType::INTERVAL;
  LogicalType ts{.TIMESTAMP = format::TimestampType{true, {.MICROS = format::MicroSeconds{}}}};
  std::vector<SchemaElement> elements = {
      root(12),
      id,
      leaf("name", kOptional, Type::BYTE_ARRAY, ConvertedType::UTF8),
      tags,
      group("list", kRepeated, 1),
      leaf("element", kOptional, Type::BYTE_ARRAY, ConvertedType::UTF8),
      with_logical(fixed("u", kRequired, 16), {.UUID = format::UUIDType{}}),
      with_decimal(leaf("d", kOptional, Type::INT32), 9, 2),
      with_logical(leaf("ts", kOptional, Type::INT64), ts),
      group("m", kRequired, 1, ConvertedType::MAP_KEY_VALUE),
      group("map", kRepeated, 2),
      leaf("key", kRequired, Type::INT32, ConvertedType::UINT_8),
      leaf("value", kOptional, Type::DOUBLE),
      interval,
      leaf("legacy", kRequired, Type::INT96),
      leaf("flag", kRequired, Type::BOOLEAN),
      leaf("odd", kRequired, Type::FLOAT, ConvertedType::UTF8),  // dropped, so not shown
      group("nothing", kOptional, 0),
  };
  elements[0].name = "spark_schema";
  const std::string expected =
      "message spark_schema {\n"
      "  required int64 id = 1;\n"
      "  optional binary name (STRING);\n"
      "  optional group tags (LIST) = 2 {\n"
      "    repeated group list {\n"
      "      optional binary element (STRING);\n"
      "    }\n"
      "  }\n"
      "  required fixed_len_byte_array(16) u (UUID);\n"
      "  optional int32 d (DECIMAL(9,2));\n"
      "  optional int64 ts (TIMESTAMP(MICROS,true));\n"
      "  required group m (MAP_KEY_VALUE) {\n"
      "    repeated group map {\n"
      "      required int32 key (INTEGER(8,false));\n"
      "      optional double value;\n"
      "    }\n"
      "  }\n"
      "  optional fixed_len_byte_array(12) span (INTERVAL);\n"
      "  required int96 legacy;\n"
      "  required boolean flag;\n"
      "  required float odd;\n"
      "  optional group nothing {\n"
      "  }\n"
      "}\n";
  EXPECT_EQ(Schema::from_elements(elements).to_string(), expected);
}

}  // namespace
}  // namespace parq
