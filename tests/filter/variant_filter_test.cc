// Filters into shredded VARIANT fields ("v.age > 50"): the field's typed
// column where it holds the row's value, its `value` column (variant
// encoded) elsewhere, null where the field is missing; exact under NOT; and
// the read fetches only those columns (the name field's are never read).
// Fields that are not shredded are found inside the values.
// The file is built here: a shredded layout written with the VARIANT
// annotation (python/tests/test_variant.py checks the same filters against
// DuckDB on DuckDB's files).
#include <gtest/gtest.h>

#include <string>

#include "json_batch.h"
#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/filter/expression.h"
#include "parq/io/output.h"
#include "parq/text/row_text.h"

namespace parq {
namespace {

constexpr int kRows = 1000;

const char* kLayout =
    "message m { required int64 id; optional group v %s { required binary metadata; optional binary value;"
    " optional group typed_value { required group age { optional binary value; optional int64 typed_value; }"
    " required group name { optional binary value; optional binary typed_value (STRING); } } } }";

std::string layout(const char* annotation) {
  char text[512];
  std::snprintf(text, sizeof text, kLayout, annotation);
  return text;
}

// Row i: age i % 100 in the typed column, or (i % 10 == 9) as a variant
// int8 in the value column, or (i % 10 == 8) missing; name "n<i>".
Buffer shredded_file() {
  std::vector<std::string> rows;
  // Metadata: sorted keys "age", "name".
  const std::string metadata = R"(\u0011\u0002\u0000\u0003\u0007agename)";
  for (int i = 0; i < kRows; ++i) {
    std::string age;
    if (i % 10 == 9) {
      char int8[16];
      std::snprintf(int8, sizeof int8, "\\u000c\\u%04x", i % 100);
      age = std::string(R"({"value":")") + int8 + R"("})";
    } else if (i % 10 == 8) {
      age = "{}";
    } else {
      age = R"({"typed_value":)" + std::to_string(i % 100) + "}";
    }
    rows.push_back(R"({"id":)" + std::to_string(i) + R"(,"v":{"metadata":")" + metadata + R"(","typed_value":{"age":)" +
                   age + R"(,"name":{"typed_value":"n)" + std::to_string(i) + R"("}}}})");
  }
  // Filled through the plain layout, written under the VARIANT annotation.
  const RecordBatch batch = testing::batch_from_json(layout(""), rows);
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  WriteOptions options;
  options.row_group_rows = kRows / 4;
  auto writer = FileWriter::open(std::move(out), parse_schema_text(layout("(VARIANT(1))")), options);
  writer->write(batch);
  writer->close();
  return sink->take();
}

std::vector<int64_t> ids(const FileReader& file, const std::string& where, ReadStats* stats = nullptr) {
  ReadOptions options;
  options.columns = {"id"};
  options.filter = filter::parse_filter(where);
  options.stats = stats;
  auto source = read_batches(file, options);
  std::vector<int64_t> out;
  RecordBatch batch;
  while (source->next(batch))
    for (int64_t r = 0; r < batch.num_rows; ++r) out.push_back(batch.columns[0].values.data_as<int64_t>()[r]);
  return out;
}

std::vector<int64_t> expected(bool (*keep)(int age, bool missing)) {
  std::vector<int64_t> out;
  for (int i = 0; i < kRows; ++i)
    if (keep(i % 100, i % 10 == 8)) out.push_back(i);
  return out;
}

TEST(VariantFilter, ShreddedFieldsFilterByTheirValuesWhereverTheyAreStored) {
  const Buffer bytes = shredded_file();
  auto file = FileReader::open(io::memory_input(bytes.span()));
  EXPECT_EQ(ids(*file, "v.age > 50"), expected([](int a, bool m) { return !m && a > 50; }));
  EXPECT_EQ(ids(*file, "NOT (v.age > 50)"), expected([](int a, bool m) { return !m && a <= 50; }));
  EXPECT_EQ(ids(*file, "v.age IS NULL"), expected([](int, bool m) { return m; }));
  EXPECT_EQ(ids(*file, "v.age IS NOT NULL"), expected([](int, bool m) { return !m; }));
  EXPECT_EQ(ids(*file, "v.age IN (9, 19, 20)"),
            expected([](int a, bool m) { return !m && (a == 9 || a == 19 || a == 20); }));
  EXPECT_EQ(ids(*file, "v.age = 'x'"), std::vector<int64_t>{});  // no string ages: nothing, not an error
  EXPECT_EQ(ids(*file, "v.name = 'n77'"), std::vector<int64_t>{77});

  // Only id and the age field's two columns are read and decoded: as much
  // as a filter written on those two columns, less than a read that also
  // takes the name field's column.
  ReadStats by_path, by_columns, with_name;
  ids(*file, "v.age > 50", &by_path);
  const std::string physical = "v.typed_value.age.typed_value > 50 OR v.typed_value.age.value IS NOT NULL";
  ids(*file, physical, &by_columns);
  EXPECT_EQ(by_path.bytes_read, by_columns.bytes_read);
  EXPECT_EQ(by_path.pages_decompressed, by_columns.pages_decompressed);
  ReadOptions options;
  options.columns = {"id", "v.typed_value.name.typed_value"};
  options.filter = filter::parse_filter(physical);
  options.stats = &with_name;
  auto source = read_batches(*file, options);
  RecordBatch batch;
  while (source->next(batch)) {
  }
  EXPECT_LT(by_path.bytes_read, with_name.bytes_read);
  EXPECT_LT(by_path.values_decoded, with_name.values_decoded);
}

// --columns v.age: the variant projected to that field, from the field's
// columns and the metadata alone; rebuilt, each row is {"age": ...}, or {}
// where the field is missing.
TEST(VariantFilter, AProjectionOfAShreddedFieldReadsOnlyItsColumns) {
  const Buffer bytes = shredded_file();
  auto file = FileReader::open(io::memory_input(bytes.span()));
  ReadOptions options;
  options.columns = {"v.age"};
  options.unshred_variants = true;
  ReadStats stats;
  options.stats = &stats;
  auto source = read_batches(*file, options);
  RecordBatch batch;
  std::string text;
  while (source->next(batch))
    text::RowJsonWriter(batch, {.variants_as_json = true}).append_rows(text, 0, batch.num_rows);
  std::string expected;
  for (int i = 0; i < kRows; ++i)
    expected += i % 10 == 8 ? "{\"v\":{}}\n" : "{\"v\":{\"age\":" + std::to_string(i % 100) + "}}\n";
  EXPECT_EQ(text, expected);
  // The name field's columns are not among those read: reading them too
  // reads more.
  ReadOptions with_name = options;
  with_name.columns = {"v.age", "v.name"};
  ReadStats more;
  with_name.stats = &more;
  auto both = read_batches(*file, with_name);
  while (both->next(batch)) {
  }
  EXPECT_LT(stats.bytes_read, more.bytes_read);
  options.columns = {"v.city"};
  EXPECT_THROW(read_batches(*file, options), Error);
}

// Fields that are not shredded are looked up inside the values of the
// deepest shredded field's `value` column (with the variant's metadata): a
// field the shredding lacks, one below a primitive, and every field of
// whole (unshredded) values, which give the rows the shredded file gives.
TEST(VariantFilter, FieldsThatAreNotShreddedAreFoundInsideTheValues) {
  const Buffer bytes = shredded_file();
  auto file = FileReader::open(io::memory_input(bytes.span()));
  std::vector<int64_t> every(kRows);
  for (int i = 0; i < kRows; ++i) every[static_cast<size_t>(i)] = i;
  EXPECT_EQ(ids(*file, "v.city = 'x'"), std::vector<int64_t>{});
  EXPECT_EQ(ids(*file, "v.city IS NULL"), every);
  EXPECT_EQ(ids(*file, "v.age.x IS NULL"), every);  // age is a primitive: it has no fields
  EXPECT_EQ(ids(*file, "v.age.x = 1"), std::vector<int64_t>{});

  // The same documents as whole values.
  ReadOptions whole;
  whole.unshred_variants = true;
  auto source = read_batches(*file, whole);
  const Schema plain = parse_schema_text(
      "message m { required int64 id; optional group v (VARIANT(1)) { required binary metadata; required binary "
      "value; } }");
  auto out = std::make_unique<io::BufferOutput>();
  io::BufferOutput* sink = out.get();
  WriteOptions options;
  options.row_group_rows = kRows / 4;
  auto writer = FileWriter::open(std::move(out), plain, options);
  RecordBatch batch;
  while (source->next(batch)) writer->write(batch);
  writer->close();
  const Buffer unshredded = sink->take();
  auto whole_file = FileReader::open(io::memory_input(unshredded.span()));
  for (const std::string where :
       {"v.age > 50", "NOT (v.age > 50)", "v.age IS NULL", "v.age IS NOT NULL", "v.age IN (9, 19, 20)",
        "v.name = 'n77'", "v.name LIKE 'n9%'", "NOT (v.name LIKE 'n9%') AND v.age < 5", "v.age = 'x'"})
    EXPECT_EQ(ids(*whole_file, where), ids(*file, where)) << where;
  EXPECT_EQ(ids(*whole_file, "v.age > 50"), expected([](int a, bool m) { return !m && a > 50; }));
  EXPECT_EQ(ids(*whole_file, "v.name.first IS NULL"), every);  // a string has no fields

  // Only the metadata and value columns are read beside id.
  ReadStats stats;
  ids(*whole_file, "v.age > 50", &stats);
  EXPECT_GT(stats.rows_filtered, 0);
  EXPECT_EQ(stats.rows_returned + stats.rows_filtered, kRows);
}

}  // namespace
}  // namespace parq
