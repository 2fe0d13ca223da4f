// The message notation parser reads back what Schema::to_string prints for
// every schema of the corpus, and names the line of a mistake.
#include "parq/schema/schema_text.h"

#include <gtest/gtest.h>

#include "parq/error.h"
#include "parq/file/file_reader.h"
#include "test_paths.h"

namespace parq {
namespace {

TEST(SchemaText, EveryCorpusSchemaRoundTrips) {
  size_t checked = 0;
  for (const auto& path : testing::parquet_files(testing::corpus_dir())) {
    std::unique_ptr<FileReader> file;
    try {
      file = FileReader::open(path.string());
    } catch (const Error&) {
      continue;  // encrypted footers: no schema to print
    }
    const std::string text = file->schema().to_string();
    // Names the notation cannot carry (spaces, none at all) are out of scope.
    bool plain_names = true;
    for (const auto& e : file->schema().elements())
      plain_names = plain_names && !e.name.empty() && e.name.find_first_of(" \t;{}()") == std::string::npos;
    if (!plain_names) continue;
    SCOPED_TRACE(path.string() + "\n" + text);
    try {
      EXPECT_EQ(parse_schema_text(text).to_string(), text);
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
    ++checked;
  }
  EXPECT_GT(checked, 50u);
}

TEST(SchemaText, HandWrittenWithCommentsAndIds) {
  Schema s = parse_schema_text(R"(
    message m {  // a comment
      required int64 id = 7;
      optional fixed_len_byte_array(16) price (DECIMAL(30,2));
      optional group tags (LIST) {
        repeated group list { optional binary element (UTF8); }
      }
      optional int64 at (TIMESTAMP(NANOS,false));
    })");
  ASSERT_EQ(s.num_columns(), 4u);
  EXPECT_EQ(s.column(0).node->field_id().value_or(0), 7);
  EXPECT_EQ(s.column(1).type.logical.DECIMAL->precision, 30);
  EXPECT_TRUE(s.column(2).type.logical.STRING.has_value());
  EXPECT_EQ(s.column(2).max_repetition_level, 1);
  EXPECT_TRUE(s.column(3).type.logical.TIMESTAMP->unit.NANOS.has_value());
}

TEST(SchemaText, LeafTypesAlone) {
  EXPECT_EQ(parse_leaf_type("int32").physical, format::Type::INT32);
  EXPECT_FALSE(parse_leaf_type("int32").logical.DATE);
  const ValueType date = parse_leaf_type(" date ");
  EXPECT_EQ(date.physical, format::Type::INT32);
  EXPECT_TRUE(date.logical.DATE);
  EXPECT_EQ(date, parse_leaf_type("int32 (DATE)"));
  EXPECT_EQ(parse_leaf_type("string"), parse_leaf_type("binary (STRING)"));
  EXPECT_TRUE(parse_leaf_type("string").logical.STRING);
  const ValueType ts = parse_leaf_type("int64 (TIMESTAMP(MILLIS,true))");
  ASSERT_TRUE(ts.logical.TIMESTAMP);
  EXPECT_TRUE(ts.logical.TIMESTAMP->is_adjusted_to_utc);
  const ValueType uuid = parse_leaf_type("fixed_len_byte_array(16) (UUID)");
  EXPECT_EQ(uuid.type_length, 16);
  EXPECT_TRUE(uuid.logical.UUID);
  for (const char* bad : {"", "int33", "group", "int32 (DATE", "int32 x", "int32; optional int64"}) {
    try {
      parse_leaf_type(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument) << bad;
      EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "' is not a column type"), std::string::npos)
          << e.what();
    }
  }
}

TEST(SchemaText, MistakesNameTheLine) {
  for (const char* bad : {"message m {\n required int64 id\n}", "message m {\n sometimes int64 id;\n}",
                          "message m {\n optional int65 id;\n}", "message m {\n optional int64 id (NOPE);\n}",
                          "message m {\n optional int32 d (DECIMAL(x,2));\n}", "message m {"}) {
    try {
      parse_schema_text(bad);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("schema text"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace parq
