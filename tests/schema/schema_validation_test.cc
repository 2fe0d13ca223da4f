// Tests of what Schema::from_elements rejects (each error names the element),
// of hostile schemas (depth, path budget), and of every schema in the shared
// corpus.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/file/footer.h"
#include "parq/io/input.h"
#include "parq/schema/schema.h"
#include "schema/schema_elements.h"
#include "test_paths.h"

namespace parq {
namespace {

using namespace format;  // the tests speak in the spec's names
using testing::kOptional;
using testing::kRequired;

using testing::root;

SchemaElement group(std::string name, int32_t children) { return testing::group(std::move(name), kOptional, children); }
SchemaElement leaf(std::string name, Type type) { return testing::leaf(std::move(name), kRequired, type); }

SchemaElement decimal(Type type, int32_t length, int32_t precision, int32_t scale) {
  SchemaElement e = leaf("dec", type);
  if (type == Type::FIXED_LEN_BYTE_ARRAY) e.type_length = length;
  e.converted_type = ConvertedType::DECIMAL;
  e.precision = precision;
  e.scale = scale;
  return e;
}

// Builds `elements`, expecting an Error whose message contains every piece.
void expect_error(const std::vector<SchemaElement>& elements, const std::vector<std::string>& pieces) {
  try {
    Schema::from_elements(elements);
    ADD_FAILURE() << "no error; expected one mentioning " << pieces.front();
  } catch (const Error& e) {
    std::string what = e.what();
    for (const std::string& piece : pieces) EXPECT_NE(what.find(piece), std::string::npos) << what;
  }
}

TEST(SchemaValidationTest, EmptyList) { expect_error({}, {"empty"}); }

// Files from the wild: a root with a physical type beside its children, or
// marked REPEATED, is the root group (no level, a plain group in
// elements()); a root with a type and no children is no group at all.
TEST(SchemaValidationTest, RootWithATypeBesideItsChildrenIsTheRootGroup) {
  SchemaElement r = root(1);
  r.type = Type::INT32;
  const Schema s = Schema::from_elements({r, leaf("x", Type::INT32)});
  ASSERT_EQ(s.num_columns(), 1u);
  EXPECT_EQ(s.column(0).max_definition_level, 0);
  EXPECT_FALSE(s.elements()[0].type.has_value());
  SchemaElement bare = root(0);
  bare.num_children.reset();
  bare.type = Type::INT32;
  expect_error({bare}, {"schema element 0", "\"schema\"", "root", "INT32", "no children"});
}

TEST(SchemaValidationTest, RepeatedRootIsTheRootGroup) {
  SchemaElement r = root(1);
  r.repetition_type = FieldRepetitionType::REPEATED;
  const Schema s = Schema::from_elements({r, leaf("x", Type::INT32)});
  ASSERT_EQ(s.num_columns(), 1u);
  EXPECT_EQ(s.column(0).max_definition_level, 0);
  EXPECT_EQ(s.column(0).max_repetition_level, 0);
  EXPECT_FALSE(s.elements()[0].repetition_type.has_value());
}

TEST(SchemaValidationTest, NegativeNumChildren) {
  expect_error({root(-1)}, {"schema element 0", "negative num_children (-1)"});
  expect_error({root(1), group("g", -3)}, {"schema element 1", "\"g\"", "negative num_children (-3)"});
  SchemaElement typed = leaf("t", Type::INT32);
  typed.num_children = -1;
  expect_error({root(1), typed}, {"schema element 1", "\"t\"", "negative"});
}

TEST(SchemaValidationTest, MoreChildrenThanElementsFollow) {
  expect_error({root(3), leaf("a", Type::INT32)}, {"schema element 0", "declares 3 children", "only 1"});
  expect_error({root(1), group("g", 5), leaf("a", Type::INT32)},
               {"schema element 1", "\"g\"", "declares 5 children", "only 1"});
}

TEST(SchemaValidationTest, SubtreeRunsPastTheEnd) {
  // Each count fits what follows it, but together they need one more element.
  expect_error({root(2), group("g", 1), leaf("a", Type::INT32)},
               {"schema element 0", "declares 2 children", "ends after 1"});
}

TEST(SchemaValidationTest, ElementsLeftOver) {
  expect_error({root(1), leaf("a", Type::INT32), leaf("b", Type::INT32)}, {"schema element 2", "\"b\"", "left over"});
}

TEST(SchemaValidationTest, LeafWithoutType) {
  SchemaElement e;
  e.name = "untyped";
  e.repetition_type = kOptional;
  expect_error({root(1), e}, {"schema element 1", "\"untyped\"", "without a physical type"});
}

TEST(SchemaValidationTest, TypeAndChildren) {
  SchemaElement e = group("both", 1);
  e.type = Type::INT64;
  expect_error({root(1), e, leaf("x", Type::INT32)}, {"schema element 1", "\"both\"", "INT64", "1 children"});
}

TEST(SchemaValidationTest, InvalidEnums) {
  SchemaElement rep = leaf("r", Type::INT32);
  rep.repetition_type = static_cast<FieldRepetitionType>(7);
  expect_error({root(1), rep}, {"schema element 1", "\"r\"", "repetition_type", "7"});
  expect_error({root(1), leaf("p", static_cast<Type>(9))}, {"schema element 1", "\"p\"", "physical type", "9"});
}

TEST(SchemaValidationTest, FixedLenWithoutPositiveLength) {
  expect_error({root(1), leaf("f", Type::FIXED_LEN_BYTE_ARRAY)},
               {"schema element 1", "\"f\"", "FIXED_LEN_BYTE_ARRAY", "type_length (none)"});
  for (int32_t bad : {0, -4}) {
    SchemaElement e = leaf("f", Type::FIXED_LEN_BYTE_ARRAY);
    e.type_length = bad;
    expect_error({root(1), e}, {"schema element 1", "type_length (" + std::to_string(bad) + ")"});
  }
}

TEST(SchemaValidationTest, DecimalParameters) {
  expect_error({root(1), decimal(Type::INT32, 0, 0, 0)}, {"schema element 1", "\"dec\"", "at least 1"});
  SchemaElement no_precision = decimal(Type::INT64, 0, 5, 2);
  no_precision.precision.reset();
  expect_error({root(1), no_precision}, {"schema element 1", "DECIMAL(0,2)", "at least 1"});
  expect_error({root(1), decimal(Type::INT32, 0, 5, -1)}, {"schema element 1", "scale"});
  expect_error({root(1), decimal(Type::INT32, 0, 5, 6)}, {"schema element 1", "scale"});
}

TEST(SchemaValidationTest, DecimalPrecisionTooLargeForStorage) {
  EXPECT_NO_THROW(Schema::from_elements({root(1), decimal(Type::INT32, 0, 9, 0)}));
  expect_error({root(1), decimal(Type::INT32, 0, 10, 0)}, {"schema element 1", "INT32 holds at most 9"});
  EXPECT_NO_THROW(Schema::from_elements({root(1), decimal(Type::INT64, 0, 18, 0)}));
  expect_error({root(1), decimal(Type::INT64, 0, 19, 0)}, {"INT64 holds at most 18"});
  EXPECT_NO_THROW(Schema::from_elements({root(1), decimal(Type::FIXED_LEN_BYTE_ARRAY, 4, 9, 0)}));
  expect_error({root(1), decimal(Type::FIXED_LEN_BYTE_ARRAY, 4, 10, 0)}, {"FIXED_LEN_BYTE_ARRAY(4) holds at most 9"});
  EXPECT_NO_THROW(Schema::from_elements({root(1), decimal(Type::FIXED_LEN_BYTE_ARRAY, 16, 38, 10)}));
  expect_error({root(1), decimal(Type::FIXED_LEN_BYTE_ARRAY, 16, 39, 0)}, {"holds at most 38"});
  EXPECT_NO_THROW(Schema::from_elements({root(1), decimal(Type::BYTE_ARRAY, 0, 500, 3)}));
}

TEST(SchemaValidationTest, LogicalDecimalIsCheckedToo) {
  SchemaElement e = leaf("ld", Type::INT32);
  e.logical_type = LogicalType{.DECIMAL = format::DecimalType{2, 12}};
  expect_error({root(1), e}, {"schema element 1", "\"ld\"", "DECIMAL(12,2)", "INT32 holds at most 9"});
}

TEST(SchemaValidationTest, DecimalOnTypesThatCannotHoldIt) {
  for (Type t : {Type::BOOLEAN, Type::FLOAT, Type::DOUBLE, Type::INT96}) {
    expect_error({root(1), decimal(t, 0, 5, 2)}, {"schema element 1", "cannot annotate", format::to_string(t)});
  }
}

std::vector<SchemaElement> nested_chain(size_t depth) {
  std::vector<SchemaElement> elements = {root(1)};
  for (size_t i = 0; i + 1 < depth; ++i) elements.push_back(group("g", 1));
  elements.push_back(leaf("x", Type::INT32));
  return elements;
}

TEST(SchemaValidationTest, DepthAtTheLimitIsAccepted) {
  Schema s = Schema::from_elements(nested_chain(kMaxSchemaDepth));
  ASSERT_EQ(s.num_columns(), 1u);
  EXPECT_EQ(s.column(0).path.size(), static_cast<size_t>(kMaxSchemaDepth));
  EXPECT_EQ(s.column(0).max_definition_level, kMaxSchemaDepth - 1);
  expect_error(nested_chain(kMaxSchemaDepth + 1),
               {"schema element " + std::to_string(kMaxSchemaDepth + 1), "deeper than the limit of 1000"});
}

TEST(SchemaValidationTest, HostileDepthFailsCleanly) {
  // Deep enough to overflow the stack of any recursive builder.
  std::vector<SchemaElement> elements = {root(1)};
  for (int i = 0; i < 100000; ++i) elements.push_back(group("g", 1));
  elements.push_back(leaf("x", Type::INT32));
  expect_error(elements, {"deeper than the limit"});
}

TEST(SchemaValidationTest, HostilePathVolumeFailsCleanly) {
  // A deep chain with many leaves at the bottom: each leaf's path repeats the
  // chain, so the paths would grow as depth x leaves.
  const size_t depth = kMaxSchemaDepth - 1;
  const size_t per_leaf = depth * sizeof(std::string);
  const int32_t leaves = static_cast<int32_t>(kMaxSchemaPathBytes / per_leaf + 2);
  std::vector<SchemaElement> elements = {root(1)};
  for (size_t i = 0; i + 2 < depth; ++i) elements.push_back(group("g", 1));
  elements.push_back(group("bottom", leaves));
  for (int32_t i = 0; i < leaves; ++i) elements.push_back(leaf("x", Type::INT32));
  expect_error(elements, {"limit of " + std::to_string(kMaxSchemaPathBytes) + " bytes"});
}

TEST(SchemaValidationTest, LongNamesAreShortenedInMessages) {
  std::string name(10000, 'n');
  expect_error({root(1), group(name, -1)}, {std::string(64, 'n') + "...\"", "negative"});
  try {
    Schema::from_elements({root(1), group(name, -1)});
  } catch (const Error& e) {
    EXPECT_LT(std::string(e.what()).size(), 300u);
  }
}

format::FileMetaData read_metadata(const std::filesystem::path& path) {
  auto input = io::open_file(path.string());
  return file::read_footer(*input).metadata;
}

bool in_dir(const std::filesystem::path& path, const std::string& dir) {
  for (const auto& part : path) {
    if (part == dir) return true;
  }
  return false;
}

// Every readable footer in the corpus outside bad_data/ has a valid schema,
// and its columns match the chunks of its row groups.
TEST(SchemaValidationTest, EveryCorpusSchemaBuilds) {
  size_t built = 0;
  for (const auto& path : testing::parquet_files(testing::corpus_dir())) {
    if (in_dir(path, "bad_data")) continue;
    format::FileMetaData md;
    try {
      md = read_metadata(path);
    } catch (const Error& e) {
      // Encrypted footers cannot be read without keys; nothing else may fail.
      EXPECT_NE(path.string().find(".encrypted"), std::string::npos) << path << ": " << e.what();
      continue;
    }
    try {
      Schema s = Schema::from_elements(md.schema);
      for (const auto& rg : md.row_groups) EXPECT_EQ(rg.columns.size(), s.num_columns()) << path;
      EXPECT_FALSE(s.to_string().empty());
      ++built;
    } catch (const Error& e) {
      ADD_FAILURE() << path << ": " << e.what();
    }
  }
  EXPECT_GT(built, 100u);
}

TEST(SchemaValidationTest, CorpusUnknownLogicalTypeOpens) {
  auto md = read_metadata(testing::corpus_dir() / "data" / "unknown-logical-type.parquet");
  Schema s = Schema::from_elements(md.schema);
  ASSERT_EQ(s.num_columns(), 2u);
  // The STRING column reads as a string; the unknown one as plain bytes whose
  // statistics are not trusted.
  int known = 0;
  int unknown = 0;
  for (const ColumnDescriptor& c : s.columns()) {
    EXPECT_EQ(c.type.physical, Type::BYTE_ARRAY);
    if (c.type.logical.STRING) ++known;
    if (!has_logical_type(c.type.logical) && c.sort_order == SortOrder::kUnknown) ++unknown;
  }
  EXPECT_EQ(known, 1);
  EXPECT_EQ(unknown, 1);
}

TEST(SchemaValidationTest, CorpusCorruptPhysicalTypeIsRejected) {
  auto md = read_metadata(testing::corpus_dir() / "bad_data" / "PARQUET-1481.parquet");
  expect_error(md.schema, {"schema element", "physical type"});
}

}  // namespace
}  // namespace parq
