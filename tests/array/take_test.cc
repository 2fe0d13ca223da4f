// take(): rows of flat and nested arrays by index, with their nulls.
#include "parq/array/take.h"

#include <gtest/gtest.h>

#include "json_batch.h"
#include "parq/error.h"
#include "parq/text/row_text.h"

namespace parq {
namespace {

std::string jsonl(const RecordBatch& b) {
  std::string out;
  text::RowJsonWriter(b).append_rows(out, 0, b.num_rows);
  return out;
}

TEST(Take, RowsOfEveryKindInAnyOrderWithRepeats) {
  const std::string schema =
      "message m { required int32 i; optional boolean b; optional binary s (STRING); "
      "optional group l (LIST) { repeated group list { optional int64 element; } } optional group st { optional "
      "double d; optional group inner (LIST) { repeated group list { required binary element (STRING); } } } }";
  std::vector<std::string> rows = {
      R"({"i": 0, "b": true, "s": "zero", "l": [1, null, 3], "st": {"d": 0.5, "inner": ["a"]}})",
      R"({"i": 1, "b": null, "s": null, "l": null, "st": null})",
      R"({"i": 2, "b": false, "s": "", "l": [], "st": {"d": null, "inner": []}})",
      R"({"i": 3, "b": true, "s": "three", "l": [4], "st": {"d": 3.5, "inner": ["b", "c"]}})",
  };
  RecordBatch all = testing::batch_from_json(schema, rows);
  std::vector<std::string> lines;
  {
    std::string text = jsonl(all);
    size_t start = 0;
    for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
      lines.push_back(text.substr(start, nl - start + 1));
  }
  ASSERT_EQ(lines.size(), 4u);
  std::vector<int64_t> pick = {3, 1, 1, 0, 2};
  RecordBatch taken = take(all, pick);
  EXPECT_EQ(taken.num_rows, 5);
  EXPECT_EQ(jsonl(taken), lines[3] + lines[1] + lines[1] + lines[0] + lines[2]);
  EXPECT_EQ(taken.columns[1].null_count, 2);
  // No rows, and rows without nulls (validity dropped).
  EXPECT_EQ(take(all, std::vector<int64_t>{}).num_rows, 0);
  RecordBatch clean = take(all, std::vector<int64_t>{0, 3});
  EXPECT_TRUE(clean.columns[2].validity.empty());
  EXPECT_EQ(jsonl(clean), lines[0] + lines[3]);
  EXPECT_THROW(take(all, std::vector<int64_t>{4}), Error);
  // Fixed-width bytes (not made from text).
  Array flba;
  flba.type.physical = format::Type::FIXED_LEN_BYTE_ARRAY;
  flba.type.type_length = 3;
  flba.length = 3;
  flba.values.append(std::string_view("abcdefghi"));
  Array t = take(flba, std::vector<int64_t>{2, 0});
  EXPECT_EQ(t.values.view(), "ghiabc");
  EXPECT_THROW(take(all, std::vector<int64_t>{-1}), Error);
}

}  // namespace
}  // namespace parq
