// The compact protocol primitives, byte for byte, and their failure modes.
#include "parq/thrift/compact_protocol.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace parq::thrift {
namespace {

using ::testing::HasSubstr;

std::vector<uint8_t> bytes(std::initializer_list<int> v) { return {v.begin(), v.end()}; }

CompactReader reader_of(const std::vector<uint8_t>& b, uint64_t base = 0, DecodeLimits limits = {}) {
  return CompactReader(b.data(), b.size(), base, limits);
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(CompactVarint, KnownEncodings) {
  struct Case {
    uint64_t value;
    std::vector<uint8_t> enc;
  } cases[] = {
      {0, {0x00}},         {1, {0x01}},
      {127, {0x7f}},       {128, {0x80, 0x01}},
      {300, {0xac, 0x02}}, {UINT64_MAX, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
  };
  for (const auto& c : cases) {
    std::string out;
    CompactWriter(out).write_varint(c.value);
    EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), c.enc) << c.value;
    auto r = reader_of(c.enc);
    EXPECT_EQ(r.read_varint(), c.value);
    EXPECT_EQ(r.remaining(), 0u);
  }
}

TEST(CompactVarint, FastAndSlowPathsAgree) {
  // The same varint read with >= 10 bytes left (fast path) and at the very
  // end of the buffer (slow path).
  for (uint64_t v : std::initializer_list<uint64_t>{0, 1, 0x3fff, 0x1234567890, UINT64_MAX}) {
    std::string out;
    CompactWriter(out).write_varint(v);
    std::vector<uint8_t> tight(out.begin(), out.end());
    std::vector<uint8_t> padded = tight;
    padded.resize(tight.size() + 10, 0);
    EXPECT_EQ(reader_of(tight).read_varint(), v);
    EXPECT_EQ(reader_of(padded).read_varint(), v);
  }
}

TEST(CompactVarint, RejectsElevenBytes) {
  auto b = bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0, 0});
  auto r = reader_of(b, 100);
  EXPECT_THAT(error_of([&] { r.read_varint(); }), HasSubstr("varint longer than 10 bytes at byte offset 100"));
}

TEST(CompactVarint, RejectsOverflowInTenthByte) {
  auto b = bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02});
  EXPECT_THAT(error_of([&] { reader_of(b).read_varint(); }), HasSubstr("overflows 64 bits"));
}

TEST(CompactVarint, TruncatedNamesOffset) {
  auto b = bytes({0x05, 0x80, 0x80});
  auto r = reader_of(b, 1000);
  EXPECT_EQ(r.read_varint(), 5u);
  EXPECT_THAT(error_of([&] { r.read_varint(); }), HasSubstr("truncated varint at byte offset 1001"));
}

TEST(CompactZigzag, RoundTripsExtremes) {
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{-64}, int64_t{63}, INT64_MIN, INT64_MAX}) {
    std::string out;
    CompactWriter(out).write_i64(v);
    std::vector<uint8_t> b(out.begin(), out.end());
    EXPECT_EQ(reader_of(b).read_i64(), v);
  }
  std::string out;
  CompactWriter(out).write_i32(-1);
  EXPECT_EQ(out, std::string("\x01", 1));  // zigzag(-1) = 1
  out.clear();
  CompactWriter(out).write_i32(1);
  EXPECT_EQ(out, std::string("\x02", 1));
}

TEST(CompactIntegers, NarrowingIsChecked) {
  std::string out;
  CompactWriter(out).write_i64(int64_t{1} << 40);
  std::vector<uint8_t> b(out.begin(), out.end());
  EXPECT_THAT(error_of([&] { reader_of(b).read_i32(); }), HasSubstr("out of range for i32"));
  out.clear();
  CompactWriter(out).write_i32(40000);
  std::vector<uint8_t> b16(out.begin(), out.end());
  EXPECT_THAT(error_of([&] { reader_of(b16).read_i16(); }), HasSubstr("out of range for i16"));
}

TEST(CompactI8, IsARawByte) {
  std::string out;
  CompactWriter(out).write_i8(-2);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(static_cast<uint8_t>(out[0]), 0xfe);
  std::vector<uint8_t> b(out.begin(), out.end());
  EXPECT_EQ(reader_of(b).read_i8(), -2);
}

TEST(CompactDouble, LittleEndianEightBytes) {
  std::string out;
  CompactWriter(out).write_double(1.0);
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), bytes({0, 0, 0, 0, 0, 0, 0xf0, 0x3f}));
  std::vector<uint8_t> b(out.begin(), out.end());
  EXPECT_EQ(reader_of(b).read_double(), 1.0);
  auto nan = bytes({0, 0, 0, 0, 0, 0, 0xf8, 0x7f});
  EXPECT_TRUE(std::isnan(reader_of(nan).read_double()));
  auto short_b = bytes({0, 0, 0});
  EXPECT_THAT(error_of([&] { reader_of(short_b).read_double(); }), HasSubstr("truncated input: double"));
}

TEST(CompactBinary, LengthPrefixed) {
  std::string out;
  CompactWriter(out).write_binary("abc");
  EXPECT_EQ(out, std::string("\x03"
                             "abc",
                             4));
  std::vector<uint8_t> b(out.begin(), out.end());
  EXPECT_EQ(reader_of(b).read_binary(), "abc");
}

TEST(CompactBinary, LengthPastEndIsAnError) {
  auto b = bytes({0x10, 'a', 'b'});
  EXPECT_THAT(error_of([&] { reader_of(b, 7).read_binary(); }),
              HasSubstr("binary length 16 runs past the end (2 bytes left) at byte offset 7"));
}

TEST(CompactBinary, LengthLimit) {
  auto b = bytes({0x05, 'a', 'b', 'c', 'd', 'e'});
  DecodeLimits limits;
  limits.max_string_bytes = 4;
  EXPECT_THAT(error_of([&] { reader_of(b, 0, limits).read_binary(); }), HasSubstr("exceeds the limit of 4"));
}

TEST(CompactBool, ByteFormAcceptsOneAndTwoAndZero) {
  auto b = bytes({1, 2, 0, 3});
  auto r = reader_of(b);
  EXPECT_TRUE(r.read_bool_byte());
  EXPECT_FALSE(r.read_bool_byte());
  EXPECT_FALSE(r.read_bool_byte());
  EXPECT_THAT(error_of([&] { r.read_bool_byte(); }), HasSubstr("bool byte is 3"));
  std::string out;
  CompactWriter w(out);
  w.write_bool_byte(true);
  w.write_bool_byte(false);
  EXPECT_EQ(out, std::string("\x01\x02", 2));
}

TEST(CompactFieldHeader, ShortDeltaForm) {
  std::string out;
  CompactWriter w(out);
  int16_t last = 0;
  w.write_field_header(CompactType::kI32, 1, last);
  w.write_field_header(CompactType::kBinary, 4, last);
  w.write_field_header(CompactType::kBoolTrue, 19, last);  // delta 15: still short
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), bytes({0x15, 0x38, 0xf1}));
  std::vector<uint8_t> b(out.begin(), out.end());
  auto r = reader_of(b);
  int16_t rl = 0;
  auto h1 = r.read_field_header(rl);
  auto h2 = r.read_field_header(rl);
  auto h3 = r.read_field_header(rl);
  EXPECT_EQ(h1.id, 1);
  EXPECT_EQ(h1.type, CompactType::kI32);
  EXPECT_EQ(h2.id, 4);
  EXPECT_EQ(h2.type, CompactType::kBinary);
  EXPECT_EQ(h3.id, 19);
  EXPECT_EQ(h3.type, CompactType::kBoolTrue);
}

TEST(CompactFieldHeader, LongFormForLargeOrBackwardIds) {
  std::string out;
  CompactWriter w(out);
  int16_t last = 0;
  w.write_field_header(CompactType::kI64, 100, last);  // delta > 15
  w.write_field_header(CompactType::kI8, 3, last);     // going backwards
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), bytes({0x06, 0xc8, 0x01, 0x03, 0x06}));
  std::vector<uint8_t> b(out.begin(), out.end());
  auto r = reader_of(b);
  int16_t rl = 0;
  EXPECT_EQ(r.read_field_header(rl).id, 100);
  EXPECT_EQ(r.read_field_header(rl).id, 3);
}

TEST(CompactFieldHeader, UnknownTypeNibbleRejected) {
  auto b = bytes({0x1d});
  int16_t last = 0;
  EXPECT_THAT(error_of([&] { reader_of(b, 40).read_field_header(last); }),
              HasSubstr("unknown field type 13 at byte offset 40"));
}

TEST(CompactCollections, ShortAndLongSizeForms) {
  std::string out;
  CompactWriter w(out);
  w.write_collection_header(CompactType::kI32, 3);
  w.write_collection_header(CompactType::kBinary, 20);
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), bytes({0x35, 0xf8, 0x14}));
  out.append(40, '\0');  // room for the elements the counts promise
  std::vector<uint8_t> b(out.begin(), out.end());
  auto r = reader_of(b);
  auto h = r.read_collection_header();
  EXPECT_EQ(h.size, 3u);
  EXPECT_EQ(h.element_type, CompactType::kI32);
  h = r.read_collection_header();
  EXPECT_EQ(h.size, 20u);
  EXPECT_EQ(h.element_type, CompactType::kBinary);
}

TEST(CompactCollections, CountBeyondRemainingBytesIsRejectedBeforeAllocation) {
  // A list claiming 1000 elements in a 3-byte buffer.
  auto b = bytes({0xf5, 0xe8, 0x07});
  EXPECT_THAT(error_of([&] { reader_of(b, 10).read_collection_header(); }),
              HasSubstr("cannot fit in the 0 bytes left at byte offset 10"));
  // Doubles need eight bytes each.
  auto d = bytes({0x27, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_THAT(error_of([&] { reader_of(d).read_collection_header(); }), HasSubstr("cannot fit"));
}

TEST(CompactCollections, ContainerLimit) {
  std::vector<uint8_t> b = {0xf5, 100};
  b.resize(200, 0);
  DecodeLimits limits;
  limits.max_container_elements = 10;
  EXPECT_THAT(error_of([&] { reader_of(b, 0, limits).read_collection_header(); }),
              HasSubstr("exceeds the limit of 10"));
}

TEST(CompactMap, HeaderForms) {
  std::string out;
  CompactWriter w(out);
  w.write_map_header(CompactType::kBinary, CompactType::kI32, 2);
  w.write_map_header(CompactType::kBinary, CompactType::kI32, 0);
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), bytes({0x02, 0x85, 0x00}));
  out.append(8, '\0');
  std::vector<uint8_t> b(out.begin(), out.end());
  auto r = reader_of(b);
  auto h = r.read_map_header();
  EXPECT_EQ(h.size, 2u);
  EXPECT_EQ(h.key_type, CompactType::kBinary);
  EXPECT_EQ(h.value_type, CompactType::kI32);
  EXPECT_EQ(r.read_map_header().size, 0u);
}

// A struct holding one field of every type, all to be skipped.
std::vector<uint8_t> every_type_struct() {
  std::string out;
  CompactWriter w(out);
  int16_t last = 0;
  w.write_field_header(CompactType::kBoolTrue, 1, last);
  w.write_field_header(CompactType::kBoolFalse, 2, last);
  w.write_field_header(CompactType::kI8, 3, last);
  w.write_i8(7);
  w.write_field_header(CompactType::kI16, 4, last);
  w.write_i16(-300);
  w.write_field_header(CompactType::kI32, 5, last);
  w.write_i32(123456);
  w.write_field_header(CompactType::kI64, 6, last);
  w.write_i64(INT64_MIN);
  w.write_field_header(CompactType::kDouble, 7, last);
  w.write_double(2.5);
  w.write_field_header(CompactType::kBinary, 8, last);
  w.write_binary("hello");
  w.write_field_header(CompactType::kList, 9, last);
  w.write_collection_header(CompactType::kBoolTrue, 2);
  w.write_bool_byte(true);
  w.write_bool_byte(false);
  w.write_field_header(CompactType::kSet, 10, last);
  w.write_collection_header(CompactType::kI32, 16);
  for (int i = 0; i < 16; ++i) w.write_i32(i);
  w.write_field_header(CompactType::kMap, 11, last);
  w.write_map_header(CompactType::kBinary, CompactType::kStruct, 1);
  w.write_binary("k");
  w.write_stop();  // empty struct value
  w.write_field_header(CompactType::kStruct, 300, last);
  {
    int16_t inner = 0;
    w.write_field_header(CompactType::kList, 1, inner);
    w.write_collection_header(CompactType::kStruct, 1);
    w.write_stop();
    w.write_stop();
  }
  w.write_stop();
  return {out.begin(), out.end()};
}

TEST(CompactSkip, SkipsEveryTypeExactly) {
  auto b = every_type_struct();
  b.push_back(0xaa);  // a marker after the struct
  auto r = reader_of(b);
  r.skip(CompactType::kStruct);
  EXPECT_EQ(r.remaining(), 1u);
}

TEST(CompactSkip, DepthLimit) {
  // 100 nested lists of lists.
  std::vector<uint8_t> b;
  for (int i = 0; i < 100; ++i) b.push_back(0x19);  // list of 1 list
  b.push_back(0x05);                                // list of 0 i32
  DecodeLimits limits;
  limits.max_depth = 50;
  auto r = reader_of(b, 0, limits);
  EXPECT_THAT(error_of([&] { r.skip(CompactType::kList); }), HasSubstr("nesting deeper than 50"));
  std::vector<uint8_t> shallow(40, 0x19);
  shallow.push_back(0x05);
  auto ok = reader_of(shallow);
  EXPECT_NO_THROW(ok.skip(CompactType::kList));
  EXPECT_EQ(ok.remaining(), 0u);
}

TEST(CompactSkip, TruncatedStructNamesOffset) {
  auto b = every_type_struct();
  b.resize(b.size() / 2);
  auto r = reader_of(b, 5000);
  std::string e = error_of([&] { r.skip(CompactType::kStruct); });
  EXPECT_THAT(e, HasSubstr("at byte offset 50"));
}

}  // namespace
}  // namespace parq::thrift
