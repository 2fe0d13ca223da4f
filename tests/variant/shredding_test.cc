// Shredded VARIANT columns put back together: every case the spec's test
// data lists (../shared/parquet-testing/shredded_variant/cases.json) gives
// its expected value per row, or an error where the case expects one; and
// the writer's encodings (ids and offsets ordered by name, the narrowest
// widths, values left where they were written) read back as they were made.
#include "parq/variant/shredding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>

#include "parq/error.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_reader.h"
#include "parq/file/file_writer.h"
#include "parq/io/output.h"
#include "parq/schema/schema_text.h"
#include "parq/text/row_text.h"
#include "parq/text/text_input.h"
#include "parq/text/variant_text.h"
#include "parq/variant/variant.h"
#include "parq/variant/variant_writer.h"
#include "test_paths.h"

namespace parq {
namespace {

using variant::Metadata;
using variant::Type;
using variant::Value;

// A value's type and content, recursively: "int8 34", "object{a:int32 1}",
// so that values of the same JSON text but other types differ.
std::string describe(const Value& v) {
  std::string out = variant::to_string(v.type());
  if (v.type() == Type::kObject) {
    out += '{';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out += ',';
      out += std::string(v.field_name(i)) + ":" + describe(v.field_value(i));
    }
    return out + '}';
  }
  if (v.type() == Type::kArray) {
    out += '[';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out += ',';
      out += describe(v.element(i));
    }
    return out + ']';
  }
  out += ' ';
  text::append_variant_json(out, v);
  return out;
}

// The expected rows of a case file: metadata then value, back to back.
std::string describe_expected(const std::vector<uint8_t>& bytes) {
  const Metadata m = Metadata::parse(bytes);
  const std::span<const uint8_t> rest = std::span(bytes).subspan(m.encoded_size());
  const Value v = Value::parse(m, rest);
  EXPECT_EQ(v.encoded_size(), rest.size());
  return describe(v);
}

// Every row of the file's `var` column, unshredded; nullopt for null rows.
std::vector<std::optional<std::string>> read_unshredded(const std::filesystem::path& path) {
  auto file = FileReader::open(path.string());
  auto source = read_batches(*file, {});
  std::vector<std::optional<std::string>> rows;
  RecordBatch batch;
  while (source->next(batch)) {
    variant::unshred_variants(batch);
    const Array* var = nullptr;
    for (const Array& c : batch.columns)
      if (c.name == "var") var = &c;
    if (var == nullptr) throw std::runtime_error("no var column");
    EXPECT_EQ(var->children.size(), 2u);
    const Array& metadata = var->children[0];
    const Array& value = var->children[1];
    for (int64_t i = 0; i < batch.num_rows; ++i) {
      if (!var->is_valid(i)) {
        rows.emplace_back();
        continue;
      }
      auto at = [&](const Array& a) {
        const int32_t* o = a.offsets_data();
        return std::span<const uint8_t>(a.values.data() + o[i], static_cast<size_t>(o[i + 1] - o[i]));
      };
      const Metadata m = Metadata::parse(at(metadata));
      const Value v = Value::parse(m, at(value));
      EXPECT_EQ(v.encoded_size(), at(value).size());
      rows.push_back(describe(v));
    }
  }
  return rows;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

struct Case {
  int number = 0;
  std::string file;
  std::vector<std::optional<std::string>> variant_files;  // per row; nullopt: a null row
  std::string error;
};

std::vector<Case> load_cases() {
  const auto dir = testing::corpus_dir() / "shredded_variant";
  const auto bytes = testing::read_file_bytes(dir / "cases.json");
  const std::string json = "{\"cases\":" + std::string(bytes.begin(), bytes.end()) + "}";
  text::TextRow row;
  text::parse_json(json, row);
  std::vector<Case> cases;
  const auto& nodes = row.nodes;
  size_t at = 2;  // nodes[1] is the array
  for (uint32_t c = 0; c < nodes[1].size; ++c) {
    const text::TextNode& object = nodes[at];
    Case k;
    size_t member = at + 1;
    for (uint32_t m = 0; m < object.size; ++m) {
      const text::TextNode& n = nodes[member];
      if (n.key == "case_number") k.number = std::stoi(std::string(n.text));
      if (n.key == "parquet_file") k.file = n.text;
      if (n.key == "error_message") k.error = n.text;
      if (n.key == "variant_file") k.variant_files.emplace_back(std::string(n.text));
      if (n.key == "variant_files")
        for (uint32_t e = 0; e < n.size; ++e) {
          const text::TextNode& f = nodes[member + 1 + e];
          if (f.kind == text::NodeKind::kNull) {
            k.variant_files.emplace_back();
          } else {
            k.variant_files.emplace_back(std::string(f.text));
          }
        }
      member += n.span + 1;
    }
    cases.push_back(std::move(k));
    at += object.span + 1;
  }
  return cases;
}

// The spec lets a reader refuse these files or read them; parq refuses a
// field both shredded and in `value` (which to believe is a guess) and
// reads optional field groups (a null group is plainly a missing field).
const std::map<int, std::string> kRefusedInvalid = {
    {43, "is both shredded and in value"},
    {125, "is both shredded and in value"},
};

TEST(VariantShredding, EveryCaseOfTheSpecsTestDataGivesItsValuesOrItsError) {
  const auto dir = testing::corpus_dir() / "shredded_variant";
  const std::vector<Case> cases = load_cases();
  ASSERT_GE(cases.size(), 100u);
  int values = 0, errors = 0, empty = 0, read = 0;
  for (const Case& k : cases) {
    SCOPED_TRACE("case " + std::to_string(k.number) + " " + k.file);
    if (k.file.empty()) {  // numbers the spec's generator left out
      ++empty;
      continue;
    }
    std::string expected_error = k.error;
    if (auto it = kRefusedInvalid.find(k.number); it != kRefusedInvalid.end()) expected_error = it->second;
    if (!expected_error.empty()) {
      try {
        read_unshredded(dir / k.file);
        ADD_FAILURE() << "read without error; expected '" << expected_error << "'";
      } catch (const Error& e) {
        // The spec's messages are Java's; ours name the same fault.
        std::string want = lower(expected_error);
        if (want.rfind("invalid variant, ", 0) == 0) want = want.substr(17);
        if (want.rfind("unsupported shredded value type", 0) == 0) want = "unsupported shredded value type";
        EXPECT_NE(lower(e.what()).find(want), std::string::npos) << e.what();
        ++errors;
      }
      continue;
    }
    const auto rows = read_unshredded(dir / k.file);
    ++read;
    ASSERT_EQ(rows.size(), k.variant_files.size());
    for (size_t r = 0; r < rows.size(); ++r) {
      SCOPED_TRACE("row " + std::to_string(r));
      if (!k.variant_files[r]) {
        EXPECT_FALSE(rows[r].has_value());
        continue;
      }
      ASSERT_TRUE(rows[r].has_value());
      EXPECT_EQ(*rows[r], describe_expected(testing::read_file_bytes(dir / *k.variant_files[r])));
      ++values;
    }
  }
  // Counted so that a case silently dropped would show.
  EXPECT_EQ(read + errors + empty, static_cast<int>(cases.size()));
  EXPECT_LE(empty, 1);
  EXPECT_GE(values, read);
}

// Shredding is unshredding's inverse: every readable case, rebuilt whole and
// written again into the case file's own shredded layout, reads back as the
// same values; integers may come back in the width of the typed column that
// took them (case 138's int16 in an INT32 column), as Spark's writer does.
std::vector<std::optional<std::string>> integer_widths_as_one(std::vector<std::optional<std::string>> rows) {
  for (auto& r : rows) {
    if (!r) continue;
    for (const char* width : {"int8 ", "int16 ", "int32 ", "int64 "})
      for (size_t at = r->find(width); at != std::string::npos; at = r->find(width, at))
        r->replace(at, std::strlen(width), "int ");
  }
  return rows;
}

TEST(VariantShredding, EveryCaseShreddedAgainIntoItsLayoutReadsBackTheSame) {
  const auto dir = testing::corpus_dir() / "shredded_variant";
  int files = 0;
  for (const Case& k : load_cases()) {
    if (k.file.empty() || !k.error.empty() || kRefusedInvalid.count(k.number)) continue;
    SCOPED_TRACE("case " + std::to_string(k.number));
    const std::string path = (dir / k.file).string();
    auto file = FileReader::open(path);
    ReadOptions options;
    options.unshred_variants = true;
    auto source = read_batches(*file, options);
    auto out = std::make_unique<io::BufferOutput>();
    io::BufferOutput* sink = out.get();
    auto writer = FileWriter::open(std::move(out), file->schema(), {});
    RecordBatch batch;
    while (source->next(batch)) writer->write(batch);
    writer->close();
    const Buffer written = sink->take();
    const auto again = testing::TempDir("shred");
    const std::string copy = again / "copy.parquet";
    {
      std::ofstream f(copy, std::ios::binary);
      f.write(reinterpret_cast<const char*>(written.data()), static_cast<std::streamsize>(written.size()));
    }
    // The copy keeps the layout: typed_value columns and all.
    EXPECT_EQ(FileReader::open(copy)->schema().to_string(), file->schema().to_string());
    EXPECT_EQ(integer_widths_as_one(read_unshredded(copy)), integer_widths_as_one(read_unshredded(path)));
    ++files;
  }
  EXPECT_GE(files, 90);
}

// The writer's objects read back with ids and offsets in name order,
// whatever order the fields were written in, and dropped fields gone.
TEST(VariantWriter, ObjectsAreOrderedByNameAndDroppedFieldsAreGone) {
  // Metadata with keys b, a, c (unsorted): ids 0, 1, 2.
  const std::vector<uint8_t> metadata = {0x01, 3, 0, 1, 2, 3, 'b', 'a', 'c'};
  const Metadata m = Metadata::parse(metadata);
  Buffer out;
  variant::ValueWriter w(out);
  w.begin_object();
  w.field(2, "c");
  w.int8(3);
  w.field(0, "b");
  w.begin_array();
  w.element();
  w.string("x");
  w.element();
  w.null();
  w.end_array();
  w.field(1, "a");
  w.boolean(true);
  w.field(1, "a");  // taken back below
  w.int64(7);
  w.drop_field();
  w.end_object();
  EXPECT_TRUE(w.complete());
  const Value v = Value::parse(m, out.span());
  EXPECT_EQ(v.encoded_size(), out.size());
  EXPECT_EQ(describe(v), "object{a:boolean true,b:array[string \"x\",null null],c:int8 3}");
}

TEST(VariantWriter, WidthsGrowWithWhatTheyHold) {
  std::vector<uint8_t> metadata = {0x01, 0, 0};
  const Metadata m = Metadata::parse(metadata);
  Buffer out;
  variant::ValueWriter w(out);
  w.begin_array();
  for (int i = 0; i < 300; ++i) {  // more than 255 elements: a 4-byte count
    w.element();
    w.string(std::string(300, 'a'));  // past 64 bytes: a long string
  }
  w.end_array();
  const Value v = Value::parse(m, out.span());
  ASSERT_EQ(v.size(), 300u);
  EXPECT_EQ(v.element(299).string(), std::string(300, 'a'));
  EXPECT_EQ(out.data()[0] & 3, 3);         // an array
  EXPECT_EQ((out.data()[0] >> 2) & 3, 2);  // three-byte offsets (91,500 bytes of elements)
  EXPECT_EQ((out.data()[0] >> 4) & 1, 1);  // large: a four-byte count
  EXPECT_EQ(out.size(), 1 + 4 + 301 * 3 + 300 * 305u);
}

TEST(VariantWriter, AnObjectWithTheSameFieldTwiceIsAnError) {
  Buffer out;
  variant::ValueWriter w(out);
  w.begin_object();
  w.field(0, "a");
  w.null();
  w.field(0, "a");
  w.null();
  EXPECT_THROW(w.end_object(), Error);
}

// Hand-made arrays: a required VARIANT shredded as int64 with the spec's
// example series, rebuilt; and a slot whose metadata is corrupt named.
TEST(VariantShredding, TheSpecsMeasurementExampleRebuilds) {
  auto binary = [](std::string name, const std::vector<std::optional<std::vector<uint8_t>>>& rows) {
    Array a;
    a.name = std::move(name);
    a.type.physical = format::Type::BYTE_ARRAY;
    a.length = static_cast<int64_t>(rows.size());
    a.offsets.resize((rows.size() + 1) * 4);
    a.validity.resize(1);
    a.validity.data()[0] = 0;
    int32_t* o = a.offsets.data_as<int32_t>();
    o[0] = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i]) {
        a.values.append(rows[i]->data(), rows[i]->size());
        a.validity.data()[0] |= static_cast<uint8_t>(1 << i);
      } else {
        ++a.null_count;
      }
      o[i + 1] = static_cast<int32_t>(a.values.size());
    }
    return a;
  };
  const std::vector<uint8_t> empty_metadata = {0x01, 0x00, 0x00};
  Array group;
  group.kind = ArrayKind::kStruct;
  group.name = "measurement";
  group.type.logical.VARIANT.emplace();
  group.length = 4;
  group.children.push_back(binary("metadata", {empty_metadata, empty_metadata, empty_metadata, empty_metadata}));
  group.children.push_back(binary(
      "value", {std::nullopt, std::vector<uint8_t>{0x00}, std::vector<uint8_t>{0x0D, 'n', '/', 'a'}, std::nullopt}));
  Array typed;
  typed.name = "typed_value";
  typed.type.physical = format::Type::INT64;
  typed.length = 4;
  typed.validity.resize(1);
  typed.validity.data()[0] = 0b1001;
  typed.null_count = 2;
  for (int64_t v : {34, 0, 0, 100}) typed.values.append_value(v);
  group.children.push_back(std::move(typed));

  const Array out = variant::unshred(group);
  ASSERT_EQ(out.children.size(), 2u);
  const Metadata m = Metadata::parse(empty_metadata);
  std::vector<std::string> got;
  for (int64_t i = 0; i < 4; ++i) {
    const int32_t* o = out.children[1].offsets_data();
    got.push_back(describe(
        Value::parse(m, std::span(out.children[1].values.data() + o[i], static_cast<size_t>(o[i + 1] - o[i])))));
  }
  EXPECT_EQ(got, (std::vector<std::string>{"int64 34", "null null", "string \"n/a\"", "int64 100"}));

  // A value and a typed value in one slot of a primitive: an error naming
  // the path and the slot.
  group.children[2].validity.data()[0] = 0b1011;
  try {
    variant::unshred(group);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "measurement, row 1 of the batch: invalid shredding: conflicting value and typed_value"),
              std::string::npos)
        << e.what();
  }
  // Without its metadata column the group cannot be rebuilt.
  group.children.erase(group.children.begin());
  try {
    variant::unshred(group);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument);
  }
}

// Shredding refuses what it cannot write: a layout whose typed column has a
// type the spec (and so the reader) does not allow, and a value the layout
// has no place for.
TEST(VariantShredding, ShreddingRefusesLayoutsTheReaderWouldRefuseAndValuesWithoutAPlace) {
  const Schema plain = parse_schema_text(
      "message m { optional group v (VARIANT(1)) { required binary metadata; optional binary value; } }");
  text::TextRow row;
  text::parse_json(R"({"v":{"a":7}})", row);
  text::BatchBuilder builder(text::type_of(plain));
  builder.add(row);
  const RecordBatch batch = builder.finish();
  auto shred_into = [&](const std::string& layout) {
    const Schema s = parse_schema_text(layout);
    return variant::shred(batch.columns[0], s, s.root().child(0));
  };
  try {
    shred_into(
        "message m { optional group v (VARIANT(1)) { required binary metadata; optional binary value;"
        " optional int32 typed_value (INTEGER(32,false)); } }");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("unsupported shredded value type: INT32 INTEGER(32,false)"), std::string::npos)
        << e.what();
  }
  try {  // an object shredded without a value column for its other fields
    shred_into(
        "message m { optional group v (VARIANT(1)) { required binary metadata; optional group typed_value {"
        " required group b { optional binary value; } } } }");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("no value column to keep them"), std::string::npos) << e.what();
  }
  // The same value into a layout that has room: field a in its typed column.
  const Array out = shred_into(
      "message m { optional group v (VARIANT(1)) { required binary metadata; optional binary value;"
      " optional group typed_value { required group a { optional binary value; optional int64 typed_value; } } } }");
  const Array& a = out.children[2].children[0].children[1];
  EXPECT_EQ(a.null_count, 0);
  EXPECT_EQ(a.values.data_as<int64_t>()[0], 7);
}

// The text layer rebuilds a shredded column itself when the reader did
// not; a column that already holds whole values is rendered as it is.
TEST(VariantShredding, TextRebuildsShreddedColumnsTheReaderLeftShredded) {
  const auto path = (testing::corpus_dir() / "shredded_variant" / "case-083.parquet").string();
  auto file = FileReader::open(path);
  for (bool reader_unshreds : {false, true}) {
    ReadOptions options;
    options.unshred_variants = reader_unshreds;
    auto source = read_batches(*file, options);
    RecordBatch batch;
    ASSERT_TRUE(source->next(batch));
    EXPECT_EQ(variant::holds_whole_values(batch.columns[1]), reader_unshreds);
    std::string text;
    text::RowJsonWriter(batch, {.variants_as_json = true}).append_rows(text, 0, batch.num_rows);
    EXPECT_EQ(text,
              "{\"id\":0,\"var\":null}\n"
              "{\"id\":1,\"var\":{\"c\":{\"b\":\"iceberg\"}}}\n"
              "{\"id\":2,\"var\":{\"c\":8,\"d\":-0.0}}\n"
              "{\"id\":3,\"var\":{\"c\":{\"a\":34,\"b\":\"\"},\"d\":0}}\n");
  }
}

}  // namespace
}  // namespace parq
