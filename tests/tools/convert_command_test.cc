// `parq convert`: CSV and JSON Lines to Parquet and back, with inferred or
// given schemas; errors name the line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "test_paths.h"

namespace parq::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class ConvertCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("parq-convert-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& content) {
    const auto p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(ConvertCommand, CsvInfersTypesAndRoundTrips) {
  const std::string csv =
      "id,name,score,ok,day,at\n"
      "1,\"Smith, J\",1.5,true,2024-01-02,2024-01-02T03:04:05\n"
      "2,,2,false,,\n"
      "3,\"say \"\"hi\"\"\",-0.25,true,2024-12-31,2024-12-31 23:59:59.5\n";
  const std::string in = file("in.csv", csv);
  CommandResult r = run_tool({"convert", in, path("out.parquet")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CommandResult schema = run_tool({"schema", path("out.parquet")});
  EXPECT_THAT(schema.out, HasSubstr("optional int64 id;"));
  EXPECT_THAT(schema.out, HasSubstr("optional binary name (STRING);"));
  EXPECT_THAT(schema.out, HasSubstr("optional double score;"));
  EXPECT_THAT(schema.out, HasSubstr("optional boolean ok;"));
  EXPECT_THAT(schema.out, HasSubstr("optional int32 day (DATE);"));
  EXPECT_THAT(schema.out, HasSubstr("optional int64 at (TIMESTAMP(MICROS,false));"));
  ASSERT_EQ(run_tool({"convert", path("out.parquet"), path("back.jsonl")}).exit_code, 0);
  std::ifstream back(path("back.jsonl"));
  std::string first;
  std::getline(back, first);
  EXPECT_EQ(first,
            "{\"id\":1,\"name\":\"Smith, J\",\"score\":1.5,\"ok\":true,\"day\":\"2024-01-02\","
            "\"at\":\"2024-01-02T03:04:05.000000\"}");
  ASSERT_EQ(run_tool({"convert", path("out.parquet"), path("back.csv")}).exit_code, 0);
  std::ifstream back_csv(path("back.csv"));
  EXPECT_EQ(run_tool({"cat", path("out.parquet"), "--format", "csv"}).out,
            std::string((std::istreambuf_iterator<char>(back_csv)), {}));
}

TEST_F(ConvertCommand, NestedJsonLinesRoundTrip) {
  const std::string jsonl =
      "{\"id\":1,\"tags\":[\"a\",\"b\"],\"pos\":{\"x\":1.5,\"y\":2},\"events\":[{\"t\":\"2024-01-01T00:00:00Z\"}]}\n"
      "{\"id\":2,\"tags\":[],\"pos\":null}\n"
      "\n"
      "{\"id\":3,\"tags\":null,\"pos\":{\"x\":null,\"y\":-1},\"events\":[]}\n";
  const std::string in = file("in.jsonl", jsonl);
  CommandResult r = run_tool({"convert", in, path("out.parquet"), "--codec", "zstd", "--page-version", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(run_tool({"cat", path("out.parquet")}).out,
            "{\"id\":1,\"tags\":[\"a\",\"b\"],\"pos\":{\"x\":1.5,\"y\":2},\"events\":[{\"t\":\"2024-01-01T00:00:00."
            "000000Z\"}]}\n"
            "{\"id\":2,\"tags\":[],\"pos\":null,\"events\":null}\n"
            "{\"id\":3,\"tags\":null,\"pos\":{\"x\":null,\"y\":-1},\"events\":[]}\n");
  EXPECT_THAT(run_tool({"schema", path("out.parquet")}).out, HasSubstr("optional group tags (LIST)"));
}

TEST_F(ConvertCommand, SchemaOverride) {
  const std::string in = file("in.csv", "a,b,c\n1,2.50,x\n3,,y\n");
  const std::string schema =
      file("s.txt", "message m { required int32 a; optional int64 b (DECIMAL(10,2)); optional binary c (STRING); }");
  CommandResult r = run_tool({"convert", in, path("out.parquet"), "--schema", schema});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(run_tool({"cat", path("out.parquet")}).out,
            "{\"a\":1,\"b\":\"2.50\",\"c\":\"x\"}\n{\"a\":3,\"b\":null,\"c\":\"y\"}\n");
  const std::string bad = file("bad.csv", "a,b,c\n1,2.5,x\nseven,1,y\n");
  CommandResult e = run_tool({"convert", bad, path("bad.parquet"), "--schema", schema});
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_THAT(e.err, HasSubstr("line 3: column a: 'seven' is not an integer"));
  EXPECT_FALSE(fs::exists(path("bad.parquet")));
}

// A VARIANT column takes any JSON value; `parq cat --variant=json` prints
// each back as the same document (integers of every width, wider ones as
// decimals, unicode, nesting, keys in the encoding's order).
TEST_F(ConvertCommand, VariantsFromJson) {
  const std::string in = file("v.jsonl",
                              "{\"id\":1,\"v\":{\"user\":{\"name\":\"ann\",\"age\":31},\"tags\":[\"a\",\"b\"],"
                              "\"score\":1.5}}\n"
                              "{\"id\":2,\"v\":[1,300,70000,5000000000,123456789012345678901234567890,null,true]}\n"
                              "{\"id\":3,\"v\":null}\n"
                              "{\"id\":4}\n"
                              "{\"id\":5,\"v\":\"\\u00fc \\\"q\\\"\"}\n");
  const std::string schema = file("s.txt",
                                  "message m { required int64 id; optional group v (VARIANT(1)) { required binary "
                                  "metadata; optional binary value; } }");
  CommandResult r = run_tool({"convert", in, path("v.parquet"), "--schema", schema});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(run_tool({"cat", "--variant=json", path("v.parquet")}).out,
            "{\"id\":1,\"v\":{\"score\":1.5,\"tags\":[\"a\",\"b\"],\"user\":{\"age\":31,\"name\":\"ann\"}}}\n"
            "{\"id\":2,\"v\":[1,300,70000,5000000000,\"123456789012345678901234567890\",null,true]}\n"
            "{\"id\":3,\"v\":null}\n"
            "{\"id\":4,\"v\":null}\n"
            "{\"id\":5,\"v\":\"\u00fc \\\"q\\\"\"}\n");
  EXPECT_THAT(run_tool({"schema", path("v.parquet")}).out, HasSubstr("optional group v (VARIANT(1))"));

  const std::string twice = file("twice.jsonl", "{\"id\":1,\"v\":{\"a\":1,\"a\":2}}\n");
  CommandResult e = run_tool({"convert", twice, path("twice.parquet"), "--schema", schema});
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_THAT(e.err, HasSubstr("object has field 'a' twice"));
  // A schema that shreds: the values go to the typed columns that fit them
  // and read back the same.
  const std::string shredded =
      file("shredded.txt",
           "message m { required int64 id; optional group v (VARIANT(1)) { required binary metadata;"
           " optional binary value; optional group typed_value {"
           " required group score { optional binary value; optional double typed_value; }"
           " required group user { optional binary value; optional group typed_value {"
           " required group age { optional binary value; optional int64 typed_value; } } } } } }");
  r = run_tool({"convert", in, path("s.parquet"), "--schema", shredded});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(run_tool({"cat", "--variant=json", path("s.parquet")}).out,
            run_tool({"cat", "--variant=json", path("v.parquet")}).out);
  const std::string parts = run_tool({"cat", "--limit", "1", path("s.parquet")}).out;
  EXPECT_THAT(parts, HasSubstr("\"score\":{\"value\":null,\"typed_value\":1.5}"));
  EXPECT_THAT(parts, HasSubstr("\"age\":{\"value\":null,\"typed_value\":31}"));
  EXPECT_EQ(run_tool({"cat", "--columns", "id", "--where", "v.user.age >= 31", path("s.parquet")}).out, "{\"id\":1}\n");
}

// --variant COL makes an inferred column a VARIANT; --shred-variants shreds
// it in a layout taken from the first batch: the fields most objects have,
// typed as most of their values are; what does not fit stays in `value`.
TEST_F(ConvertCommand, VariantsShreddedInAnInferredLayout) {
  std::string jsonl;
  for (int i = 0; i < 200; ++i) {
    const std::string age = i % 50 == 7 ? "\"old\"" : std::to_string(i % 90);
    jsonl += "{\"id\":" + std::to_string(i) + ",\"v\":{\"user\":{\"age\":" + age + ",\"name\":\"n" + std::to_string(i) +
             "\"},\"tags\":[\"a\",\"b\"]" + (i % 3 == 0 ? ",\"rare\":1" : "") + "}}\n";
  }
  jsonl += "{\"id\":200,\"v\":[1,2,3]}\n";
  const std::string in = file("in.jsonl", jsonl);
  CommandResult r = run_tool({"convert", in, path("i.parquet"), "--variant", "v", "--shred-variants"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string schema = run_tool({"schema", path("i.parquet")}).out;
  EXPECT_THAT(schema, HasSubstr("optional group v (VARIANT(1))"));
  EXPECT_THAT(
      schema,
      HasSubstr("required group age {\n            optional binary value;\n            optional int64 typed_value;"));
  EXPECT_THAT(schema, HasSubstr("optional binary typed_value (STRING);"));
  EXPECT_THAT(schema, HasSubstr("required group rare"));  // a third of the objects have it
  EXPECT_THAT(schema, HasSubstr("optional group typed_value (LIST)"));
  // The values read back as written (keys in the encoding's order).
  r = run_tool({"cat", "--variant=json", "--limit", "8", path("i.parquet")});
  EXPECT_THAT(r.out,
              HasSubstr("{\"id\":0,\"v\":{\"rare\":1,\"tags\":[\"a\",\"b\"],\"user\":{\"age\":0,\"name\":\"n0\"}}}\n"));
  EXPECT_THAT(r.out,
              HasSubstr("{\"id\":7,\"v\":{\"tags\":[\"a\",\"b\"],\"user\":{\"age\":\"old\",\"name\":\"n7\"}}}\n"));
  EXPECT_EQ(run_tool({"cat", "--variant=json", "--columns", "v", "--where", "id = 200", path("i.parquet")}).out,
            "{\"v\":[1,2,3]}\n");
  EXPECT_EQ(run_tool({"count", path("i.parquet"), "--where", "v.user.age > 85"}).out, "8\n");

  CommandResult e = run_tool({"convert", in, path("x.parquet"), "--variant", "nope"});
  EXPECT_EQ(e.exit_code, 2);
  EXPECT_THAT(e.err, HasSubstr("--variant nope: the input has no such column"));
  const std::string schema_file = file("s.txt", "message m { optional int64 id; }");
  e = run_tool({"convert", in, path("y.parquet"), "--variant", "v", "--schema", schema_file});
  EXPECT_EQ(e.exit_code, 2);
  EXPECT_THAT(e.err, HasSubstr("--variant applies to inferred schemas"));
}

TEST_F(ConvertCommand, MapsFromASchema) {
  // A map is filled from a JSON object (member names parsed as keys of the
  // key's type) or from what `parq cat` prints, an array of key/value
  // entries; the latter round-trips.
  const std::string schema = file("s.txt",
                                  "message m { required int32 id;"
                                  " optional group attrs (MAP) { repeated group key_value {"
                                  " required binary key (STRING); optional double value; } }"
                                  " optional group codes (MAP) { repeated group key_value {"
                                  " required int32 key; optional binary value (STRING); } } }");
  const std::string in =
      file("in.jsonl",
           "{\"id\":1,\"attrs\":{\"a\":1.5,\"b\":null},\"codes\":{\"7\":\"seven\",\"-2\":\"minus\"}}\n"
           "{\"id\":2,\"attrs\":[{\"key\":\"x\",\"value\":2.25},{\"key\":\"y\"}],\"codes\":[]}\n"
           "{\"id\":3,\"attrs\":null,\"codes\":{}}\n"
           "{\"id\":4}\n");
  CommandResult r = run_tool({"convert", in, path("out.parquet"), "--schema", schema});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string expected =
      "{\"id\":1,\"attrs\":[{\"key\":\"a\",\"value\":1.5},{\"key\":\"b\",\"value\":null}],"
      "\"codes\":[{\"key\":7,\"value\":\"seven\"},{\"key\":-2,\"value\":\"minus\"}]}\n"
      "{\"id\":2,\"attrs\":[{\"key\":\"x\",\"value\":2.25},{\"key\":\"y\",\"value\":null}],\"codes\":[]}\n"
      "{\"id\":3,\"attrs\":null,\"codes\":[]}\n"
      "{\"id\":4,\"attrs\":null,\"codes\":null}\n";
  EXPECT_EQ(run_tool({"cat", path("out.parquet")}).out, expected);
  EXPECT_THAT(run_tool({"schema", path("out.parquet")}).out, HasSubstr("optional group codes (MAP)"));

  const std::string back = file("back.jsonl", expected);
  ASSERT_EQ(run_tool({"convert", back, path("back.parquet"), "--schema", schema}).exit_code, 0);
  EXPECT_EQ(run_tool({"cat", path("back.parquet")}).out, expected);

  CommandResult bad_key = run_tool(
      {"convert", file("k.jsonl", "{\"id\":5,\"codes\":{\"x\":\"bad\"}}\n"), path("k.parquet"), "--schema", schema});
  EXPECT_EQ(bad_key.exit_code, 1);
  EXPECT_THAT(bad_key.err, HasSubstr("line 1: column codes.key: 'x' is not an integer"));
  CommandResult no_key = run_tool(
      {"convert", file("n.jsonl", "{\"id\":5,\"attrs\":[{\"value\":1}]}\n"), path("n.parquet"), "--schema", schema});
  EXPECT_EQ(no_key.exit_code, 1);
  EXPECT_THAT(no_key.err, HasSubstr("column attrs: a map entry has no key"));
  CommandResult scalar =
      run_tool({"convert", file("s.jsonl", "{\"id\":5,\"attrs\":3}\n"), path("s.parquet"), "--schema", schema});
  EXPECT_EQ(scalar.exit_code, 1);
  EXPECT_THAT(scalar.err, HasSubstr("column attrs: '3' is not a map"));
  CommandResult bare_entry =
      run_tool({"convert", file("e.jsonl", "{\"id\":5,\"attrs\":[1]}\n"), path("e.parquet"), "--schema", schema});
  EXPECT_EQ(bare_entry.exit_code, 1);
  EXPECT_THAT(bare_entry.err, HasSubstr("column attrs: '1' is not a map entry"));

  const std::string keys_only = file("keys.txt",
                                     "message m { optional group tags (MAP) { repeated group key_value {"
                                     " required binary key (STRING); } } }");
  CommandResult no_values =
      run_tool({"convert", file("t.jsonl", "{\"tags\":{\"a\":1}}\n"), path("t.parquet"), "--schema", keys_only});
  EXPECT_EQ(no_values.exit_code, 2);
  EXPECT_THAT(no_values.err, HasSubstr("schema field \"tags\": a map without values cannot be filled from text"));
  EXPECT_FALSE(fs::exists(path("t.parquet")));

  const std::string no_group = file("group.txt", "message m { optional group tags (MAP) { required int32 key; } }");
  CommandResult flat =
      run_tool({"convert", file("g.jsonl", "{\"tags\":{\"1\":1}}\n"), path("g.parquet"), "--schema", no_group});
  EXPECT_EQ(flat.exit_code, 2);
  EXPECT_THAT(flat.err, HasSubstr("a map without a key-value group"));
}

TEST_F(ConvertCommand, MalformedInputsAndUsage) {
  CommandResult json = run_tool({"convert", file("a.jsonl", "{\"a\":1}\n{\"a\":\n"), path("o.parquet")});
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_THAT(json.err, HasSubstr("line 2"));
  CommandResult csv = run_tool({"convert", file("b.csv", "a,b\n1,2\n3\n"), path("o.parquet")});
  EXPECT_EQ(csv.exit_code, 1);
  EXPECT_THAT(csv.err, HasSubstr("line 3: 1 fields where the header has 2"));
  EXPECT_EQ(run_tool({"convert", file("c.txt", "x"), path("o.parquet")}).exit_code, 2);
  EXPECT_EQ(run_tool({"convert", file("d.csv", "a\n1\n"), path("o.csv")}).exit_code, 2);
  EXPECT_FALSE(fs::exists(path("o.parquet")));
}

}  // namespace
}  // namespace parq::testing
