// The generic struct codec on a small described struct: presence, required
// fields, unions, integer widths, unknown fields, wire-type mismatches.
#include "thrift/struct_codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace parq::thrift {
namespace {

struct Inner {
  int32_t a = 0;
  std::optional<std::string> b;
  bool operator==(const Inner&) const = default;
};

enum class Color : int32_t { kRed = 0, kBlue = 1 };

struct Outer {
  int64_t id = 0;
  std::optional<bool> flag;
  std::vector<Inner> items;
  std::optional<std::vector<bool>> bits;
  std::optional<Color> color;
  std::optional<double> score;
  std::optional<int8_t> tiny;
  int16_t defaulted = 0;
  bool operator==(const Outer&) const = default;
};

struct Choice {
  std::optional<Inner> first;
  std::optional<int32_t> second;
  bool operator==(const Choice&) const = default;
};

}  // namespace

template <>
struct StructInfo<Inner> {
  static constexpr const char* name = "Inner";
  static constexpr bool is_union = false;
  using fields = FieldList<Field<"a", 1, &Inner::a>, Field<"b", 2, &Inner::b>>;
};
template <>
struct StructInfo<Outer> {
  static constexpr const char* name = "Outer";
  static constexpr bool is_union = false;
  using fields =
      FieldList<Field<"id", 1, &Outer::id>, Field<"flag", 2, &Outer::flag>, Field<"items", 3, &Outer::items>,
                Field<"bits", 4, &Outer::bits>, Field<"color", 5, &Outer::color>, Field<"score", 6, &Outer::score>,
                Field<"tiny", 7, &Outer::tiny>, Field<"defaulted", 40, &Outer::defaulted, false>>;
};
template <>
struct StructInfo<Choice> {
  static constexpr const char* name = "Choice";
  static constexpr bool is_union = true;
  using fields = FieldList<Field<"first", 1, &Choice::first>, Field<"second", 2, &Choice::second>>;
};

namespace {

using ::testing::HasSubstr;

template <class T>
std::string encode(const T& v) {
  std::string out;
  CompactWriter w(out);
  write_struct(w, v);
  return out;
}

template <class T>
T decode(const std::string& s) {
  CompactReader r(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  T v{};
  read_struct(r, v);
  EXPECT_EQ(r.remaining(), 0u);
  return v;
}

template <class T>
std::string decode_error(const std::string& s) {
  try {
    decode<T>(s);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

Outer sample() {
  Outer o;
  o.id = -42;
  o.flag = false;
  o.items = {Inner{1, "x"}, Inner{2, std::nullopt}};
  o.bits = std::vector<bool>{true, false, true};
  o.color = Color::kBlue;
  o.score = 0.25;
  o.tiny = -5;
  o.defaulted = 9;
  return o;
}

TEST(StructCodec, RoundTrip) {
  Outer o = sample();
  EXPECT_EQ(decode<Outer>(encode(o)), o);
  Outer minimal;
  EXPECT_EQ(decode<Outer>(encode(minimal)), minimal);
}

TEST(StructCodec, ExactBytesOfASmallStruct) {
  Inner in{3, "hi"};
  // field 1 i32 (0x15) zigzag(3)=6; field 2 binary (0x18) len 2 "hi"; stop.
  EXPECT_EQ(encode(in), std::string("\x15\x06\x18\x02hi\x00", 7));
}

TEST(StructCodec, BoolTravelsInTheFieldHeader) {
  Outer o;
  o.flag = true;
  std::string s = encode(o);
  // id (0x16, 0x00), flag true in one byte: delta 1, type 1.
  EXPECT_NE(s.find("\x11"), std::string::npos);
  EXPECT_EQ(decode<Outer>(s).flag, std::optional<bool>(true));
}

TEST(StructCodec, MissingRequiredFieldIsNamed) {
  // An Outer with only field 2 (no id, no items).
  std::string s("\x21\x00", 2);
  EXPECT_THAT(decode_error<Outer>(s), HasSubstr("Outer: required field 'id' is missing"));
}

TEST(StructCodec, DefaultedFieldMayBeAbsent) {
  Outer o = sample();
  o.defaulted = 0;
  std::string s = encode(o);
  // Remove field 40 (long form: 0x04, zigzag(40)=80, value 0).
  auto pos = s.find(std::string("\x04\x50\x00", 3));
  ASSERT_NE(pos, std::string::npos);
  s.erase(pos, 3);
  EXPECT_EQ(decode<Outer>(s), o);
}

TEST(StructCodec, UnknownFieldsOfEveryTypeAreSkipped) {
  std::string s;
  CompactWriter w(s);
  int16_t last = 0;
  w.write_field_header(CompactType::kI64, 1, last);
  w.write_i64(7);
  w.write_field_header(CompactType::kList, 3, last);
  w.write_collection_header(CompactType::kStruct, 0);
  w.write_field_header(CompactType::kBoolTrue, 20, last);  // unknown bool
  w.write_field_header(CompactType::kBinary, 21, last);
  w.write_binary("future");
  w.write_field_header(CompactType::kStruct, 22, last);
  {
    int16_t inner = 0;
    w.write_field_header(CompactType::kMap, 1, inner);
    w.write_map_header(CompactType::kI32, CompactType::kDouble, 1);
    w.write_i32(1);
    w.write_double(1.5);
    w.write_stop();
  }
  w.write_field_header(CompactType::kDouble, 23, last);
  w.write_double(3.0);
  w.write_stop();
  Outer o = decode<Outer>(s);
  EXPECT_EQ(o.id, 7);
  EXPECT_TRUE(o.items.empty());
}

TEST(StructCodec, IntegerWidthsAreInterchangeableButRangeChecked) {
  // tiny (i8 member) sent as an i32 varint.
  std::string s;
  CompactWriter w(s);
  int16_t last = 0;
  w.write_field_header(CompactType::kI16, 1, last);  // id as i16
  w.write_i16(12);
  w.write_field_header(CompactType::kList, 3, last);
  w.write_collection_header(CompactType::kStruct, 0);
  w.write_field_header(CompactType::kI32, 7, last);
  w.write_i32(100);
  w.write_stop();
  Outer o = decode<Outer>(s);
  EXPECT_EQ(o.id, 12);
  EXPECT_EQ(o.tiny, std::optional<int8_t>(100));

  std::string bad;
  CompactWriter wb(bad);
  last = 0;
  wb.write_field_header(CompactType::kI64, 1, last);
  wb.write_i64(1);
  wb.write_field_header(CompactType::kList, 3, last);
  wb.write_collection_header(CompactType::kStruct, 0);
  wb.write_field_header(CompactType::kI32, 7, last);
  wb.write_i32(200);  // too big for the i8 member
  wb.write_stop();
  EXPECT_THAT(decode_error<Outer>(bad), HasSubstr("out of range"));
}

TEST(StructCodec, WireTypeMismatchIsSkipped) {
  std::string s;
  CompactWriter w(s);
  int16_t last = 0;
  w.write_field_header(CompactType::kBinary, 1, last);  // id must be an integer
  w.write_binary("x");
  w.write_stop();
  // Skipped like an unknown field, so the required id is then missing.
  EXPECT_THAT(decode_error<Outer>(s), HasSubstr("Outer: required field 'id' is missing"));
  Outer o = sample();
  std::string good = encode(o);
  // An optional field of the wrong type is dropped and the rest still read.
  std::string appended = good.substr(0, good.size() - 1);
  appended += std::string("\x09\x0c\x25\x02\x04", 5);  // long-form field 6 list<i32>[1, 2]
  appended += '\0';
  Outer back = decode<Outer>(appended);
  EXPECT_EQ(back, o);
}

TEST(StructCodec, UnionWithTwoMembersIsAnError) {
  Choice c;
  c.first = Inner{1, std::nullopt};
  c.second = 5;
  EXPECT_THAT(decode_error<Choice>(encode(c)), HasSubstr("Choice: union has 2 members set"));
  Choice one;
  one.second = 5;
  EXPECT_EQ(decode<Choice>(encode(one)), one);
}

TEST(StructCodec, UnionWithUnknownMemberReadsAsNoneSet) {
  std::string s;
  CompactWriter w(s);
  int16_t last = 0;
  w.write_field_header(CompactType::kStruct, 9, last);
  w.write_stop();
  w.write_stop();
  Choice c = decode<Choice>(s);
  EXPECT_FALSE(c.first.has_value());
  EXPECT_FALSE(c.second.has_value());
}

TEST(StructCodec, ListElementTypeMismatchIsAnError) {
  std::string s;
  CompactWriter w(s);
  int16_t last = 0;
  w.write_field_header(CompactType::kI64, 1, last);
  w.write_i64(1);
  w.write_field_header(CompactType::kList, 3, last);
  w.write_collection_header(CompactType::kI32, 1);  // items must be structs
  w.write_i32(1);
  w.write_stop();
  EXPECT_THAT(decode_error<Outer>(s), HasSubstr("expected struct, found i32"));
}

TEST(StructCodec, DuplicateListFieldReplacesRatherThanAppends) {
  Outer o = sample();
  std::string once = encode(o);
  // Append a second copy of field 3 (an empty list) before the stop byte:
  // long form so the id order does not matter.
  std::string dup = once.substr(0, once.size() - 1);
  dup += std::string("\x09\x06\x0c", 3);  // field type list, id zigzag(3)=6, list of 0 structs
  dup += '\0';
  EXPECT_TRUE(decode<Outer>(dup).items.empty());
}

}  // namespace
}  // namespace parq::thrift

namespace parq::thrift {
namespace {

// Lists whose header gives element type 0 (not a type; some writers put it
// there): typed reads take the elements as the declared type, as
// parquet-java's and DuckDB's readers do; skipping such a list (an unknown
// field) cannot know their size and refuses it unless it is empty.
TEST(StructCodec, ListElementTypeZeroReadsAsTheDeclaredType) {
  Outer o;
  o.items = {Inner{1, "x"}, Inner{2, std::nullopt}};
  o.bits = std::vector<bool>{true, false, true};
  std::string bytes = encode(o);
  const size_t items = bytes.find("\x29\x2c");  // field 3 (delta 2), list of 2 structs
  ASSERT_NE(items, std::string::npos);
  bytes[items + 1] = 0x20;
  const size_t bits = bytes.find("\x19\x31", items);  // field 4 (delta 1), list of 3 bools
  ASSERT_NE(bits, std::string::npos);
  bytes[bits + 1] = 0x30;
  EXPECT_EQ(decode<Outer>(bytes), o);

  // Field 9 is unknown to Inner: a list of type 0 is skipped only when empty.
  auto inner_with_unknown_list = [](uint8_t header, std::string elements) {
    std::string s;
    s += '\x15';  // field 1, i32
    s += '\x02';  // a = 1
    s += '\x89';  // field 9 (delta 8), list
    s += static_cast<char>(header);
    s += elements;
    s += '\x00';  // stop
    return s;
  };
  EXPECT_EQ(decode<Inner>(inner_with_unknown_list(0x00, "")).a, 1);
  EXPECT_THAT(decode_error<Inner>(inner_with_unknown_list(0x10, "\x02")), HasSubstr("element type"));
}

}  // namespace
}  // namespace parq::thrift
