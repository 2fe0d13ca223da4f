// Text input: the JSON parser, the CSV reader, scalar classification through
// inference, and the batch builder's errors.
#include "parq/text/text_input.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/text/row_text.h"

namespace parq::text {
namespace {

TEST(JsonParse, NestedValuesAndEscapes) {
  TextRow row;
  parse_json(R"({"a":1,"b":[true,null,"x\u00e9\n"],"c":{"d":-2.5e3}})", row);
  ASSERT_EQ(row.nodes.size(), 8u);
  EXPECT_EQ(row.nodes[0].size, 3u);
  EXPECT_EQ(row.nodes[0].span, 7u);
  EXPECT_EQ(row.nodes[2].key, "b");
  EXPECT_EQ(row.nodes[2].size, 3u);
  EXPECT_EQ(row.nodes[5].text, "x\xc3\xa9\n");
  EXPECT_EQ(row.nodes[7].text, "-2.5e3");
}

// Escaped strings live in the row's arena: a short arena sits inside the
// string object itself, so copies and moves must re-point the views (the
// fuzzer found moved rows reading the moved-from row's stack).
TEST(JsonParse, RowsCopyAndMoveWithTheirStrings) {
  const std::string line_short = R"({"k\t":"a\nb","plain":"p"})";
  const std::string line_long =
      R"({"key\u00e9 long enough for the heap":"\"a long escaped value well past the inline buffer\""})";
  auto check_short = [&](const TextRow& r) {
    ASSERT_EQ(r.nodes.size(), 3u);
    EXPECT_EQ(r.nodes[1].key, "k\t");
    EXPECT_EQ(r.nodes[1].text, "a\nb");
    EXPECT_EQ(r.nodes[2].text, "p");
    // Strings without escapes stay views of the caller's line.
    EXPECT_EQ(r.nodes[2].text.data(), line_short.data() + line_short.find("\"p\"}") + 1);
    EXPECT_GE(r.nodes[1].text.data(), r.arena.data());
    EXPECT_LE(r.nodes[1].text.data() + r.nodes[1].text.size(), r.arena.data() + r.arena.size());
  };
  auto check_long = [&](const TextRow& r) {
    ASSERT_EQ(r.nodes.size(), 2u);
    EXPECT_EQ(r.nodes[1].key, "key\xc3\xa9 long enough for the heap");
    EXPECT_EQ(r.nodes[1].text, "\"a long escaped value well past the inline buffer\"");
  };
  std::vector<TextRow> rows;
  for (int i = 0; i < 40; ++i) {  // the vector reallocates, moving its rows
    auto row = std::make_unique<TextRow>();
    parse_json(i % 2 ? line_long : line_short, *row);
    rows.push_back(std::move(*row));
    EXPECT_TRUE(row->nodes.empty() && row->arena.empty());
    row.reset();  // the moved-from row's storage is gone
  }
  for (size_t i = 0; i < rows.size(); ++i) i % 2 ? check_long(rows[i]) : check_short(rows[i]);

  auto source = std::make_unique<TextRow>();
  parse_json(line_short, *source);
  TextRow copied(*source);
  TextRow assigned;
  parse_json(line_long, assigned);
  assigned = *source;
  TextRow moved_into;
  moved_into = TextRow(*source);
  source.reset();
  check_short(copied);
  check_short(assigned);
  check_short(moved_into);
  TextRow& self = moved_into;
  moved_into = std::move(self);  // self-move leaves the row as it was
  check_short(moved_into);
  TextRow& alias = copied;
  copied = alias;  // self-copy
  check_short(copied);
  rows[1] = rows[0];
  check_short(rows[1]);
  rows[0] = std::move(rows[3]);
  check_long(rows[0]);
}

TEST(JsonParse, MalformedInputNamesTheByte) {
  TextRow row;
  for (const char* bad : {"{", "{\"a\" 1}", "[1,]", "{\"a\":01}", "\"abc", "{\"a\":tru}", "{} x", "{\"a\":\"\\q\"}"}) {
    try {
      parse_json(bad, row);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("at byte"), std::string::npos) << e.what();
    }
  }
  std::string deep(1000, '[');
  EXPECT_THROW(parse_json(deep, row), Error);
}

TEST(CsvRead, QuotesLineBreaksAndCrlf) {
  CsvReader csv("a,b\r\n\"x,1\",\"he said \"\"hi\"\"\"\r\n\"multi\nline\",\n");
  std::vector<std::string_view> f;
  ASSERT_TRUE(csv.next(f));
  EXPECT_EQ(f, (std::vector<std::string_view>{"a", "b"}));
  ASSERT_TRUE(csv.next(f));
  EXPECT_EQ(f, (std::vector<std::string_view>{"x,1", "he said \"hi\""}));
  ASSERT_TRUE(csv.next(f));
  EXPECT_EQ(csv.line(), 3);
  EXPECT_EQ(f, (std::vector<std::string_view>{"multi\nline", ""}));
  EXPECT_FALSE(csv.next(f));
  CsvReader open("a\n\"never closed\n");
  ASSERT_TRUE(open.next(f));
  EXPECT_THROW(open.next(f), Error);
}

TextType infer(const std::vector<std::string>& lines) {
  TypeInference inference;
  TextRow row;
  for (const auto& l : lines) {
    parse_json(l, row);
    inference.add(row);
  }
  return inference.result();
}

TEST(Inference, ScalarsMixesAndNesting) {
  TextType t = infer(
      {R"({"i":1,"f":1,"b":true,"d":"2024-02-29","ts":"2024-01-01T10:00:00Z","s":"x","o":{"k":[1,2]}})",
       R"({"i":2,"f":2.5,"b":false,"d":"2024-03-01","ts":"2024-01-01 10:00:00.123456789+02:00","s":5,"n":null})"});
  ASSERT_EQ(t.children.size(), 8u);
  EXPECT_EQ(t.children[0].kind, TextType::kInt64);
  EXPECT_EQ(t.children[1].kind, TextType::kDouble);
  EXPECT_EQ(t.children[2].kind, TextType::kBool);
  EXPECT_EQ(t.children[3].kind, TextType::kDate);
  EXPECT_EQ(t.children[4].kind, TextType::kTimestamp);
  EXPECT_EQ(t.children[4].unit, 2);  // nanosecond digits
  EXPECT_TRUE(t.children[4].utc);
  EXPECT_EQ(t.children[5].kind, TextType::kString);  // "x" then 5
  EXPECT_EQ(t.children[6].kind, TextType::kStruct);
  EXPECT_EQ(t.children[6].children[0].kind, TextType::kList);
  EXPECT_EQ(t.children[7].kind, TextType::kString);  // only nulls
  EXPECT_NE(schema_of(t).to_string().find("optional int64 ts (TIMESTAMP(NANOS,true));"), std::string::npos);
}

TEST(Builder, RowsBecomeBatchesAndMismatchesAreErrors) {
  TextType t = infer({R"({"a":1,"l":[1,null],"s":{"x":"y"}})"});
  BatchBuilder builder(t);
  TextRow row;
  for (const char* line : {R"({"a":1,"l":[1,null],"s":{"x":"y"}})", R"({"l":[],"s":null})", R"({"a":null})"}) {
    parse_json(line, row);
    builder.add(row);
  }
  RecordBatch b = builder.finish();
  std::string out;
  RowJsonWriter(b).append_rows(out, 0, b.num_rows);
  EXPECT_EQ(out,
            "{\"a\":1,\"l\":[1,null],\"s\":{\"x\":\"y\"}}\n{\"a\":null,\"l\":[],\"s\":null}\n"
            "{\"a\":null,\"l\":null,\"s\":null}\n");
  parse_json(R"({"a":"nope"})", row);
  try {
    builder.add(row);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("column a: 'nope' is not an integer"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace parq::text
