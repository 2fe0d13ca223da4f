// VARIANT metadata and values: every case of the spec's test data
// (../shared/parquet-testing/variant) decodes to the value its
// data_dictionary.json gives, written as canonical text; hostile encodings
// are errors naming what is wrong, in time linear in their size.
#include "parq/variant/variant.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "parq/error.h"
#include "parq/text/variant_text.h"
#include "test_paths.h"

namespace parq {
namespace {

using variant::Metadata;
using variant::Type;
using variant::Value;

std::vector<uint8_t> slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + p.string());
  return {std::istreambuf_iterator<char>(f), {}};
}

std::string json_of(const Value& v) {
  std::string out;
  text::append_variant_json(out, v);
  return out;
}

// The dictionary's values in canonical text: decimals exact with their
// scale's digits (the dictionary writes them as floats: 12345678.9 is the
// decimal8 of scale 2), the float as the float it is (the dictionary's
// 1234567940.0 is that float's shortest decimal as a float32), the
// timestamp with its -04:00 offset in UTC, the time with a '.' before its
// microseconds (the dictionary has a ':').
TEST(Variant, EveryCaseOfTheSpecsTestDataDecodesToItsValue) {
  const std::pair<const char*, std::pair<Type, const char*>> cases[] = {
      {"array_empty", {Type::kArray, "[]"}},
      {"array_nested",
       {Type::kArray,
        R"([{"id":1,"thing":{"names":["Contrarian","Spider"]}},null,{"id":2,"names":["Apple","Ray",null],"type":"if"}])"}},
      {"array_primitive", {Type::kArray, "[2,1,5,9]"}},
      {"object_empty", {Type::kObject, "{}"}},
      {"object_nested",
       {Type::kObject,
        R"({"id":1,"observation":{"location":"In the Volcano","time":"12:34:56","value":{"humidity":456,"temperature":123}},"species":{"name":"lava monster","population":6789}})"}},
      {"object_primitive",
       {Type::kObject,
        R"({"boolean_false_field":false,"boolean_true_field":true,"double_field":"1.23456789","int_field":1,"null_field":null,"string_field":"Apache Parquet","timestamp_field":"2025-04-16T12:34:56.78"})"}},
      {"primitive_binary", {Type::kBinary, R"("AxM33q2+78r+")"}},
      {"primitive_boolean_false", {Type::kBoolean, "false"}},
      {"primitive_boolean_true", {Type::kBoolean, "true"}},
      {"primitive_date", {Type::kDate, R"("2025-04-16")"}},
      {"primitive_decimal16", {Type::kDecimal16, R"("12345678912345678.90")"}},
      {"primitive_decimal4", {Type::kDecimal4, R"("12.34")"}},
      {"primitive_decimal8", {Type::kDecimal8, R"("12345678.90")"}},
      {"primitive_double", {Type::kDouble, "1234567890.1234"}},
      {"primitive_float", {Type::kFloat, "1234567936"}},
      {"primitive_int16", {Type::kInt16, "1234"}},
      {"primitive_int32", {Type::kInt32, "123456"}},
      {"primitive_int64", {Type::kInt64, "1234567890123456789"}},
      {"primitive_int8", {Type::kInt8, "42"}},
      {"primitive_null", {Type::kNull, "null"}},
      {"primitive_string",
       {Type::kString,
        "\"This string is longer than 64 bytes and therefore does not fit in a short_string and it also includes "
        "several non ascii characters such as \xF0\x9F\x90\xA2, \xF0\x9F\x92\x96, \xE2\x99\xA5\xEF\xB8\x8F, "
        "\xF0\x9F\x8E\xA3 and \xF0\x9F\xA4\xA6!!\""}},
      {"primitive_time", {Type::kTimeNtzMicros, R"("12:33:54.123456")"}},
      {"primitive_timestamp", {Type::kTimestampMicros, R"("2025-04-16T16:34:56.780000Z")"}},
      {"primitive_timestamp_nanos", {Type::kTimestampNanos, R"("2024-11-07T12:33:54.123456789Z")"}},
      {"primitive_timestampntz", {Type::kTimestampNtzMicros, R"("2025-04-16T12:34:56.780000")"}},
      {"primitive_timestampntz_nanos", {Type::kTimestampNtzNanos, R"("2024-11-07T12:33:54.123456789")"}},
      {"primitive_uuid", {Type::kUuid, R"("f24f9b64-81fa-49d1-b74e-8c09a6e31c56")"}},
      {"short_string", {Type::kString, "\"Less than 64 bytes (\xE2\x9D\xA4\xEF\xB8\x8F with utf8)\""}},
  };
  const auto dir = testing::corpus_dir() / "variant";
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".value") ++files;
  // Every case but long_string is in the dictionary (checked below).
  EXPECT_EQ(files, std::size(cases) + 1);
  for (const auto& [name, expected] : cases) {
    SCOPED_TRACE(name);
    const std::vector<uint8_t> m = slurp(dir / (std::string(name) + ".metadata"));
    const std::vector<uint8_t> v = slurp(dir / (std::string(name) + ".value"));
    const Metadata metadata = Metadata::parse(m);
    const Value value = Value::parse(metadata, v);
    EXPECT_EQ(value.type(), expected.first);
    EXPECT_EQ(value.encoded_size(), v.size());
    EXPECT_EQ(json_of(value), expected.second);
  }
  const std::vector<uint8_t> m = slurp(dir / "long_string.metadata"), v = slurp(dir / "long_string.value");
  const Metadata metadata = Metadata::parse(m);
  const Value long_string = Value::parse(metadata, v);
  EXPECT_EQ(long_string.type(), Type::kString);
  EXPECT_GT(long_string.string().size(), 63u);  // past a short string's reach
}

TEST(Variant, FieldsAreFoundByNameAndValuesReadByType) {
  const auto dir = testing::corpus_dir() / "variant";
  const std::vector<uint8_t> m = slurp(dir / "object_nested.metadata"), v = slurp(dir / "object_nested.value");
  const Metadata metadata = Metadata::parse(m);
  const Value root = Value::parse(metadata, v);
  ASSERT_EQ(root.size(), 3u);
  EXPECT_EQ(root.field_name(0), "id");
  auto humidity = root.field("observation")->field("value")->field("humidity");
  ASSERT_TRUE(humidity);
  EXPECT_EQ(humidity->integer(), 456);
  EXPECT_FALSE(root.field("nope"));
  EXPECT_FALSE(root.field("observation")->field("id"));
  ASSERT_TRUE(metadata.find("species"));
  EXPECT_EQ(metadata.key(*metadata.find("species")), "species");
  EXPECT_FALSE(metadata.find("absent"));
  const std::vector<uint8_t> dm = slurp(dir / "primitive_decimal4.metadata"),
                             dv = slurp(dir / "primitive_decimal4.value");
  const Metadata dmeta = Metadata::parse(dm);
  const variant::Decimal d = Value::parse(dmeta, dv).decimal();
  EXPECT_EQ(d.scale, 2);
  EXPECT_EQ(d.unscaled[0], 1234 & 0xFF);
  EXPECT_EQ(d.unscaled[15], 0);
}

std::string error_of(const std::vector<uint8_t>& metadata, const std::vector<uint8_t>& value) {
  try {
    const Metadata m = Metadata::parse(metadata);
    const Value v = Value::parse(m, value);
    json_of(v);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
    return e.what();
  }
  return "";
}

const std::vector<uint8_t> kEmptyMetadata = {0x01, 0x00, 0x00};
// Keys "a", "b" (sorted) with 1-byte offsets.
const std::vector<uint8_t> kAB = {0x11, 0x02, 0x00, 0x01, 0x02, 'a', 'b'};

TEST(Variant, HostileMetadataIsAnErrorNamingWhatIsWrong) {
  const std::vector<uint8_t> null_value = {0x00};
  EXPECT_NE(error_of({}, null_value).find("metadata is empty"), std::string::npos);
  EXPECT_NE(error_of({0x02, 0x00, 0x00}, null_value).find("version 2"), std::string::npos);
  EXPECT_NE(error_of({0x41, 0x00}, null_value).find("ends inside its dictionary size"), std::string::npos);
  EXPECT_NE(error_of({0xC1, 0xFF, 0xFF, 0xFF, 0xFF}, null_value).find("cannot hold their offsets"), std::string::npos);
  EXPECT_NE(error_of({0x01, 0x01, 0x01, 0x00}, null_value).find("first offset is not 0"), std::string::npos);
  EXPECT_NE(error_of({0x01, 0x02, 0x00, 0x02, 0x01, 'a', 'b'}, null_value).find("goes backwards"), std::string::npos);
  EXPECT_NE(error_of({0x01, 0x01, 0x00, 0x05, 'a'}, null_value).find("keys end at byte 5"), std::string::npos);
  EXPECT_EQ(error_of(kAB, null_value), "");
}

// DuckDB marks dictionaries sorted that are not: they read as unsorted ones,
// whose look-ups search every key.
TEST(Variant, AMetadataWronglyMarkedSortedReadsAsUnsorted) {
  const std::vector<uint8_t> ba = {0x11, 0x02, 0x00, 0x01, 0x02, 'b', 'a'};
  const Metadata m = Metadata::parse(ba);
  EXPECT_FALSE(m.sorted());
  EXPECT_EQ(m.find("a"), 1u);
  EXPECT_EQ(m.find("b"), 0u);
  EXPECT_TRUE(Metadata::parse(kAB).sorted());
}

TEST(Variant, HostileValuesAreErrorsNamingWhatIsWrong) {
  auto fails_with = [](const std::vector<uint8_t>& metadata, const std::vector<uint8_t>& value, const char* what) {
    const std::string e = error_of(metadata, value);
    EXPECT_NE(e.find(what), std::string::npos) << "got '" << e << "' wanting '" << what << "'";
  };
  fails_with(kEmptyMetadata, {}, "a value is empty");
  fails_with(kEmptyMetadata, {21 << 2}, "unknown primitive type 21");
  fails_with(kEmptyMetadata, {6 << 2, 1, 2, 3}, "int64 needs 9 bytes, 4 are left");
  fails_with(kEmptyMetadata, {16 << 2, 0xFF, 0xFF, 0xFF, 0x7F, 'x'}, "string needs");
  fails_with(kEmptyMetadata, {8 << 2, 39, 0, 0, 0, 0}, "decimal scale 39");
  fails_with(kEmptyMetadata, {(5 << 2) | 1, 'a'}, "a short string needs 6 bytes");
  // An object {a: null} whose field id 2 is past the dictionary.
  fails_with(kAB, {0x02, 0x01, 0x02, 0x00, 0x01, 0x00}, "field id 2 is not in the metadata's 2 keys");
  // {b: null, a: null}: keys out of order; {a, a}: twice.
  fails_with(kAB, {0x02, 0x02, 0x01, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00}, "not unique and sorted ('b' then 'a')");
  fails_with(kAB, {0x02, 0x02, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00}, "not unique and sorted ('a' then 'a')");
  // An array whose fields end past its bytes, and one whose element starts
  // at the end.
  fails_with(kEmptyMetadata, {0x03, 0x01, 0x00, 0x05, 0x00}, "fields end at byte 5 of 1");
  fails_with(kEmptyMetadata, {0x03, 0x02, 0x00, 0x01, 0x01, 0x00}, "element 1 starts past the fields' end");
  // Arrays nested deeper than the limit: [[[[...null...]]]].
  std::vector<uint8_t> nested = {0x00};  // null at the bottom
  for (int i = 0; i < 200; ++i) {
    const uint32_t n = static_cast<uint32_t>(nested.size());
    // A large array (4-byte count and offsets) of one element: the rest.
    std::vector<uint8_t> level = {0x1F, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    for (int b = 0; b < 4; ++b) level.push_back(static_cast<uint8_t>(n >> (8 * b)));
    level.insert(level.end(), nested.begin(), nested.end());
    nested = std::move(level);
  }
  fails_with(kEmptyMetadata, nested, "nest deeper than 128");
}

TEST(Variant, ValuesSharingBytesCannotMultiplyTheWork) {
  // Each level is an array of 8 elements that all start at the same
  // offset: the next level. 40 levels would be 8^40 visits; the encoding
  // is refused once it asks for more values than it has bytes.
  std::vector<uint8_t> value = {0x00};
  for (int level = 0; level < 40; ++level) {
    const uint8_t n = static_cast<uint8_t>(std::min<size_t>(value.size(), 255));
    std::vector<uint8_t> outer = {0x03, 0x08};  // small array, 1-byte offsets, 8 elements
    for (int i = 0; i < 8; ++i) outer.push_back(0x00);
    outer.push_back(n);
    outer.insert(outer.end(), value.begin(), value.begin() + n);
    value = std::move(outer);
    if (value.size() > 240) break;
  }
  const std::string e = error_of(kEmptyMetadata, value);
  EXPECT_NE(e.find("values share bytes"), std::string::npos) << e;
}

}  // namespace
}  // namespace parq
