// Tests of the Arrow C Data / C Stream Interface export: formats, buffer
// layouts and contents (conversions checked against independently computed
// values), null counts, ownership (run from the ASan build to prove releases
// free everything exactly once) and the stream protocol. A structural
// validator, written from the specification, checks every export.
#include "parq/arrow/c_export.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "parq/error.h"
#include "parq/util/cpu.h"

namespace parq {
namespace {

using format::ConvertedType;
using format::LogicalType;
using format::Type;

// ---------------------------------------------------------------------------
// Building arrays by hand.

ValueType vt(Type physical, LogicalType logical = {}, int32_t type_length = 0) {
  ValueType t;
  t.physical = physical;
  t.type_length = type_length;
  t.logical = logical;
  return t;
}

format::TimeUnit millis() { return {.MILLIS = format::MilliSeconds{}}; }
format::TimeUnit micros() { return {.MICROS = format::MicroSeconds{}}; }
format::TimeUnit nanos() { return {.NANOS = format::NanoSeconds{}}; }
LogicalType integer(int8_t bits, bool is_signed) { return {.INTEGER = format::IntType{bits, is_signed}}; }
LogicalType decimal(int32_t precision, int32_t scale) { return {.DECIMAL = format::DecimalType{scale, precision}}; }
LogicalType string_type() { return {.STRING = format::StringType{}}; }

void set_validity(Array& a, const std::vector<bool>& valid) {
  a.length = static_cast<int64_t>(valid.size());
  a.null_count = 0;
  for (bool v : valid) a.null_count += v ? 0 : 1;
  if (a.null_count == 0) return;
  a.validity.resize((valid.size() + 7) / 8);
  std::memset(a.validity.data(), 0, a.validity.size());
  for (size_t i = 0; i < valid.size(); ++i) {
    if (valid[i]) a.validity.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
}

template <class T>
std::vector<bool> presence(const std::vector<std::optional<T>>& v) {
  std::vector<bool> out;
  for (const auto& x : v) out.push_back(x.has_value());
  return out;
}

template <class T>
Array fixed(const std::string& name, ValueType type, const std::vector<std::optional<T>>& values) {
  Array a;
  a.name = name;
  a.type = type;
  set_validity(a, presence(values));
  for (const auto& v : values) a.values.append_value(v.value_or(T{}));
  return a;
}

Array bools(const std::string& name, const std::vector<std::optional<bool>>& values) {
  Array a;
  a.name = name;
  a.type = vt(Type::BOOLEAN);
  set_validity(a, presence(values));
  a.values.resize((values.size() + 7) / 8);
  if (!a.values.empty()) std::memset(a.values.data(), 0, a.values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].value_or(false)) a.values.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  return a;
}

Array binary(const std::string& name, ValueType type, const std::vector<std::optional<std::string>>& values) {
  Array a;
  a.name = name;
  a.type = type;
  set_validity(a, presence(values));
  a.offsets.append_value<int32_t>(0);
  for (const auto& v : values) {
    a.values.append(v.value_or(""));
    a.offsets.append_value(static_cast<int32_t>(a.values.size()));
  }
  return a;
}

// FIXED_LEN_BYTE_ARRAY: every value (or zeros for null) is type_length bytes.
Array flba(const std::string& name, ValueType type, const std::vector<std::optional<std::string>>& values) {
  Array a;
  a.name = name;
  a.type = type;
  set_validity(a, presence(values));
  for (const auto& v : values) {
    std::string bytes = v.value_or(std::string(type.type_length, '\0'));
    EXPECT_EQ(bytes.size(), static_cast<size_t>(type.type_length));
    a.values.append(bytes);
  }
  return a;
}

// Lists and maps: `sizes[i]` empty means a null slot (zero elements).
void set_offsets(Array& a, const std::vector<std::optional<int>>& sizes) {
  set_validity(a, presence(sizes));
  int32_t end = 0;
  a.offsets.append_value(end);
  for (const auto& s : sizes) a.offsets.append_value(end += s.value_or(0));
}

Array list(const std::string& name, const std::vector<std::optional<int>>& sizes, Array child) {
  Array a;
  a.kind = ArrayKind::kList;
  a.name = name;
  set_offsets(a, sizes);
  a.children.push_back(std::move(child));
  return a;
}

Array map(const std::string& name, const std::vector<std::optional<int>>& sizes, Array keys,
          std::optional<Array> values) {
  Array a;
  a.kind = ArrayKind::kMap;
  a.name = name;
  set_offsets(a, sizes);
  a.children.push_back(std::move(keys));
  if (values) a.children.push_back(std::move(*values));
  return a;
}

Array structure(const std::string& name, const std::vector<bool>& valid, std::vector<Array> children) {
  Array a;
  a.kind = ArrayKind::kStruct;
  a.name = name;
  set_validity(a, valid);
  a.children = std::move(children);
  return a;
}

RecordBatch batch_of(std::vector<Array>&& columns) {
  RecordBatch b;
  b.num_rows = columns.empty() ? 0 : columns[0].length;
  b.columns = std::move(columns);
  return b;
}

// Moves the arrays in: an initializer list would copy their buffers and
// defeat the zero-copy checks.
template <class... A>
RecordBatch batch_of(A&&... arrays) {
  std::vector<Array> columns;
  (columns.push_back(std::forward<A>(arrays)), ...);
  return batch_of(std::move(columns));
}

// ---------------------------------------------------------------------------
// The validator: structural invariants of any exported schema + array,
// from the C Data Interface specification.

struct Layout {
  int buffers;      // n_buffers
  int fixed_width;  // bytes per slot of buffer 1, 0 if not fixed width
  bool variable;    // buffer 1 is int32 offsets into buffer 2
  bool has_validity;
};

std::optional<Layout> layout_of(const std::string& f) {
  static const std::map<std::string, Layout> kFixed = {
      {"n", {0, 0, false, false}},  {"b", {2, 0, false, true}},    {"c", {2, 1, false, true}},
      {"C", {2, 1, false, true}},   {"s", {2, 2, false, true}},    {"S", {2, 2, false, true}},
      {"i", {2, 4, false, true}},   {"I", {2, 4, false, true}},    {"l", {2, 8, false, true}},
      {"L", {2, 8, false, true}},   {"e", {2, 2, false, true}},    {"f", {2, 4, false, true}},
      {"g", {2, 8, false, true}},   {"u", {3, 0, true, true}},     {"z", {3, 0, true, true}},
      {"tdD", {2, 4, false, true}}, {"ttm", {2, 4, false, true}},  {"ttu", {2, 8, false, true}},
      {"ttn", {2, 8, false, true}}, {"tin", {2, 16, false, true}}, {"+s", {1, 0, false, true}},
      {"+l", {2, 0, false, true}},  {"+m", {2, 0, false, true}},
  };
  if (auto it = kFixed.find(f); it != kFixed.end()) return it->second;
  if (f.starts_with("ts") && f.size() >= 4 && f[3] == ':') return Layout{2, 8, false, true};
  if (f.starts_with("w:")) return Layout{2, std::stoi(f.substr(2)), false, true};
  if (f.starts_with("d:")) return Layout{2, f.ends_with(",256") ? 32 : 16, false, true};
  return std::nullopt;
}

int64_t count_unset(const uint8_t* bits, int64_t length) {
  int64_t n = 0;
  for (int64_t i = 0; i < length; ++i) n += (bits[i / 8] >> (i % 8) & 1) ? 0 : 1;
  return n;
}

// Walks schema and array together; failures name the path of the node.
void validate(const ArrowSchema& s, const ArrowArray& a, const std::string& path) {
  SCOPED_TRACE(path);
  ASSERT_NE(s.release, nullptr);
  ASSERT_NE(a.release, nullptr);
  ASSERT_NE(s.format, nullptr);
  std::string f = s.format;
  std::optional<Layout> layout = layout_of(f);
  ASSERT_TRUE(layout.has_value()) << "unexpected format " << f;
  EXPECT_EQ(a.offset, 0);
  EXPECT_GE(a.length, 0);
  EXPECT_GE(a.null_count, 0);
  EXPECT_LE(a.null_count, a.length);
  ASSERT_EQ(a.n_buffers, layout->buffers);
  ASSERT_EQ(a.n_children, s.n_children);
  EXPECT_EQ(s.dictionary, nullptr);
  EXPECT_EQ(a.dictionary, nullptr);
  if (a.n_buffers > 0) {
    ASSERT_NE(a.buffers, nullptr);
  }
  if (a.n_children > 0) {
    ASSERT_NE(a.children, nullptr);
    ASSERT_NE(s.children, nullptr);
  }
  if (f == "n") {
    EXPECT_EQ(a.null_count, a.length);
  }
  if (layout->has_validity) {
    // parq's own invariant, stricter than Arrow's: no bitmap without nulls.
    EXPECT_EQ(a.buffers[0] == nullptr, a.null_count == 0);
    if (a.buffers[0] != nullptr) {
      EXPECT_EQ(count_unset(static_cast<const uint8_t*>(a.buffers[0]), a.length), a.null_count);
    }
  }
  for (int64_t i = 1; i < a.n_buffers; ++i) {
    EXPECT_NE(a.buffers[i], nullptr) << "buffer " << i;
  }
  if (f == "b" || layout->fixed_width > 0) {
    // Touch the last value so ASan flags a short buffer.
    if (a.length > 0) {
      int64_t last = f == "b" ? (a.length - 1) / 8 : a.length * layout->fixed_width - 1;
      volatile uint8_t byte = static_cast<const uint8_t*>(a.buffers[1])[last];
      (void)byte;
    }
  }
  int64_t offset_end = 0;
  if (layout->variable || f == "+l" || f == "+m") {
    const auto* o = static_cast<const int32_t*>(a.buffers[1]);
    EXPECT_GE(o[0], 0);
    for (int64_t i = 0; i < a.length; ++i) {
      EXPECT_LE(o[i], o[i + 1]) << "offset " << i;
    }
    offset_end = o[a.length];
    if (layout->variable && offset_end > 0) {
      volatile uint8_t byte = static_cast<const uint8_t*>(a.buffers[2])[offset_end - 1];
      (void)byte;
    }
  }
  if (f == "+l") {
    ASSERT_EQ(s.n_children, 1);
  }
  if (f == "+m") {
    ASSERT_EQ(s.n_children, 1);
    const ArrowSchema& entries = *s.children[0];
    EXPECT_STREQ(entries.format, "+s");
    EXPECT_EQ(entries.flags & ARROW_FLAG_NULLABLE, 0);
    ASSERT_EQ(entries.n_children, 2);
    EXPECT_EQ(entries.children[0]->flags & ARROW_FLAG_NULLABLE, 0);
    EXPECT_EQ(a.children[0]->null_count, 0);
    EXPECT_EQ(a.children[0]->children[0]->null_count, 0) << "null map key";
  }
  if (f != "+s" && f != "+l" && f != "+m") {
    EXPECT_EQ(s.n_children, 0);
  }
  for (int64_t i = 0; i < a.n_children; ++i) {
    ASSERT_NE(s.children[i], nullptr);
    ASSERT_NE(a.children[i], nullptr);
    const ArrowArray& c = *a.children[i];
    if (f == "+s") {
      EXPECT_GE(c.length, a.length);
    }
    if (f == "+l" || f == "+m") {
      EXPECT_GE(c.length, offset_end);
    }
    std::string name = s.children[i]->name != nullptr ? s.children[i]->name : "?";
    validate(*s.children[i], c, path + "/" + name);
  }
}

// Owns an exported pair and releases it at scope end, as a consumer would.
struct Exported {
  ArrowSchema schema{};
  ArrowArray array{};
  Exported() = default;
  Exported(const Exported&) = delete;
  ~Exported() {
    if (array.release != nullptr) array.release(&array);
    if (schema.release != nullptr) schema.release(&schema);
  }
  const ArrowArray& column(int i) const { return *array.children[i]; }
  const ArrowSchema& field(int i) const { return *schema.children[i]; }
};

// Exports a batch whose prototype is the batch itself (same shape) and
// validates the result.
void export_checked(RecordBatch batch, Exported& out) {
  export_schema(batch, &out.schema);
  export_batch(std::move(batch), &out.array);
  validate(out.schema, out.array, "batch");
  EXPECT_STREQ(out.schema.format, "+s");
  EXPECT_EQ(out.array.null_count, 0);
}

template <class T>
T value_at(const ArrowArray& a, int64_t i) {
  T v;
  std::memcpy(&v, static_cast<const uint8_t*>(a.buffers[1]) + i * sizeof(T), sizeof(T));
  return v;
}

bool bit(const void* bitmap, int64_t i) { return (static_cast<const uint8_t*>(bitmap)[i / 8] >> (i % 8) & 1) != 0; }

std::vector<int32_t> offsets_of(const ArrowArray& a) {
  const auto* o = static_cast<const int32_t*>(a.buffers[1]);
  return {o, o + a.length + 1};
}

// ---------------------------------------------------------------------------
// Formats.

struct FormatCase {
  ValueType type;
  std::string format;
};

TEST(ArrowExportSchema, LeafFormatsFollowTheMapping) {
  ValueType interval = vt(Type::FIXED_LEN_BYTE_ARRAY, {}, 12);
  interval.converted = ConvertedType::INTERVAL;
  const std::vector<FormatCase> cases = {
      {vt(Type::BOOLEAN), "b"},
      {vt(Type::INT32), "i"},
      {vt(Type::INT32, integer(8, true)), "c"},
      {vt(Type::INT32, integer(16, true)), "s"},
      {vt(Type::INT32, integer(32, true)), "i"},
      {vt(Type::INT32, integer(8, false)), "C"},
      {vt(Type::INT32, integer(16, false)), "S"},
      {vt(Type::INT32, integer(32, false)), "I"},
      {vt(Type::INT64), "l"},
      {vt(Type::INT64, integer(64, true)), "l"},
      {vt(Type::INT64, integer(64, false)), "L"},
      {vt(Type::FLOAT), "f"},
      {vt(Type::DOUBLE), "g"},
      {vt(Type::FIXED_LEN_BYTE_ARRAY, {.FLOAT16 = format::Float16Type{}}, 2), "e"},
      {vt(Type::BYTE_ARRAY, string_type()), "u"},
      {vt(Type::BYTE_ARRAY, {.ENUM = format::EnumType{}}), "u"},
      {vt(Type::BYTE_ARRAY, {.JSON = format::JsonType{}}), "u"},
      {vt(Type::BYTE_ARRAY, {.BSON = format::BsonType{}}), "z"},
      {vt(Type::BYTE_ARRAY), "z"},
      {vt(Type::FIXED_LEN_BYTE_ARRAY, {}, 7), "w:7"},
      {vt(Type::FIXED_LEN_BYTE_ARRAY, {.UUID = format::UUIDType{}}, 16), "w:16"},
      {vt(Type::INT32, decimal(9, 2)), "d:9,2"},
      {vt(Type::INT64, decimal(18, 0)), "d:18,0"},
      {vt(Type::FIXED_LEN_BYTE_ARRAY, decimal(38, 10), 16), "d:38,10"},
      {vt(Type::FIXED_LEN_BYTE_ARRAY, decimal(39, 3), 17), "d:39,3,256"},
      {vt(Type::BYTE_ARRAY, decimal(76, 5)), "d:76,5,256"},
      {vt(Type::BYTE_ARRAY, decimal(77, 5)), "z"},  // no Arrow decimal: storage type
      {vt(Type::INT32, {.DATE = format::DateType{}}), "tdD"},
      {vt(Type::INT32, {.TIME = format::TimeType{true, millis()}}), "ttm"},
      {vt(Type::INT64, {.TIME = format::TimeType{false, micros()}}), "ttu"},
      {vt(Type::INT64, {.TIME = format::TimeType{true, nanos()}}), "ttn"},
      {vt(Type::INT64, {.TIMESTAMP = format::TimestampType{true, millis()}}), "tsm:UTC"},
      {vt(Type::INT64, {.TIMESTAMP = format::TimestampType{false, micros()}}), "tsu:"},
      {vt(Type::INT64, {.TIMESTAMP = format::TimestampType{true, nanos()}}), "tsn:UTC"},
      {vt(Type::INT64, {.TIMESTAMP = format::TimestampType{false, format::TimeUnit{}}}), "l"},  // unknown unit
      {vt(Type::INT96), "tsn:"},
      {interval, "tin"},
      {vt(Type::INT32, {.UNKNOWN = format::NullType{}}), "n"},
  };
  for (const FormatCase& c : cases) {
    Array a;
    a.name = "col";
    a.type = c.type;
    RecordBatch proto = batch_of();
    proto.columns.push_back(std::move(a));
    ArrowSchema s;
    export_schema(proto, &s);
    ASSERT_EQ(s.n_children, 1);
    EXPECT_EQ(std::string(s.children[0]->format), c.format);
    EXPECT_STREQ(s.children[0]->name, "col");
    EXPECT_EQ(s.children[0]->flags, ARROW_FLAG_NULLABLE);
    EXPECT_EQ(s.children[0]->n_children, 0);
    s.release(&s);
    EXPECT_EQ(s.release, nullptr);
  }
}

// Decodes the C Data Interface metadata encoding.
std::map<std::string, std::string> decode_metadata(const char* m) {
  std::map<std::string, std::string> out;
  if (m == nullptr) return out;
  auto next_int = [&m] {
    int32_t v;
    std::memcpy(&v, m, 4);
    m += 4;
    return v;
  };
  for (int32_t n = next_int(); n > 0; --n) {
    int32_t kl = next_int();
    std::string key(m, kl);
    m += kl;
    int32_t vl = next_int();
    out[key] = std::string(m, vl);
    m += vl;
  }
  return out;
}

TEST(ArrowExportSchema, UuidCarriesTheCanonicalExtension) {
  Array a;
  a.name = "id";
  a.type = vt(Type::FIXED_LEN_BYTE_ARRAY, {.UUID = format::UUIDType{}}, 16);
  Array plain;
  plain.name = "raw";
  plain.type = vt(Type::FIXED_LEN_BYTE_ARRAY, {}, 16);
  RecordBatch proto;
  proto.columns.push_back(std::move(a));
  proto.columns.push_back(std::move(plain));
  ArrowSchema s;
  export_schema(proto, &s);
  auto metadata = decode_metadata(s.children[0]->metadata);
  EXPECT_EQ(metadata["ARROW:extension:name"], "arrow.uuid");
  EXPECT_EQ(metadata.count("ARROW:extension:metadata"), 1u);
  EXPECT_EQ(s.children[1]->metadata, nullptr);
  EXPECT_EQ(s.metadata, nullptr);
  s.release(&s);
}

TEST(ArrowExportSchema, RootIsANonNullableStructOfTheColumns) {
  RecordBatch proto = batch_of(fixed<int32_t>("a", vt(Type::INT32), {}), bools("b", {}));
  ArrowSchema s;
  export_schema(proto, &s);
  EXPECT_STREQ(s.format, "+s");
  EXPECT_STREQ(s.name, "");
  EXPECT_EQ(s.flags, 0);
  ASSERT_EQ(s.n_children, 2);
  EXPECT_STREQ(s.children[0]->name, "a");
  EXPECT_STREQ(s.children[1]->name, "b");
  s.release(&s);
}

TEST(ArrowExportSchema, NestedShapes) {
  Array inner = list("tags", {}, binary("element", vt(Type::BYTE_ARRAY, string_type()), {}));
  Array st = structure("point", {}, {fixed<double>("x", vt(Type::DOUBLE), {}), std::move(inner)});
  Array unnamed = list("l", {}, fixed<int64_t>("", vt(Type::INT64), {}));
  Array m = map("attrs", {}, binary("key", vt(Type::BYTE_ARRAY, string_type()), {}),
                fixed<int32_t>("value", vt(Type::INT32), {}));
  Array keys_only = map("set", {}, fixed<int32_t>("key", vt(Type::INT32), {}), std::nullopt);
  RecordBatch proto =
      batch_of(list("points", {}, std::move(st)), std::move(unnamed), std::move(m), std::move(keys_only));
  ArrowSchema s;
  export_schema(proto, &s);
  const ArrowSchema& points = *s.children[0];
  EXPECT_STREQ(points.format, "+l");
  ASSERT_EQ(points.n_children, 1);
  const ArrowSchema& point = *points.children[0];
  EXPECT_STREQ(point.format, "+s");
  EXPECT_STREQ(point.name, "point");
  ASSERT_EQ(point.n_children, 2);
  EXPECT_STREQ(point.children[0]->format, "g");
  EXPECT_STREQ(point.children[1]->format, "+l");
  EXPECT_STREQ(point.children[1]->children[0]->name, "element");
  EXPECT_STREQ(point.children[1]->children[0]->format, "u");
  EXPECT_STREQ(s.children[1]->children[0]->name, "item");  // an unnamed element gets Arrow's default

  for (int i : {2, 3}) {
    const ArrowSchema& mp = *s.children[i];
    EXPECT_STREQ(mp.format, "+m");
    EXPECT_EQ(mp.flags, ARROW_FLAG_NULLABLE);
    ASSERT_EQ(mp.n_children, 1);
    const ArrowSchema& entries = *mp.children[0];
    EXPECT_STREQ(entries.name, "entries");
    EXPECT_STREQ(entries.format, "+s");
    EXPECT_EQ(entries.flags, 0);
    ASSERT_EQ(entries.n_children, 2);
    EXPECT_STREQ(entries.children[0]->name, "key");
    EXPECT_EQ(entries.children[0]->flags, 0);
    EXPECT_STREQ(entries.children[1]->name, "value");
    EXPECT_EQ(entries.children[1]->flags, ARROW_FLAG_NULLABLE);
  }
  EXPECT_STREQ(s.children[2]->children[0]->children[0]->format, "u");
  EXPECT_STREQ(s.children[2]->children[0]->children[1]->format, "i");
  EXPECT_STREQ(s.children[3]->children[0]->children[0]->format, "i");
  EXPECT_STREQ(s.children[3]->children[0]->children[1]->format, "n");
  s.release(&s);
}

TEST(ArrowExportSchema, ConsumerMayMoveChildrenOut) {
  RecordBatch proto = batch_of(list("l", {}, fixed<int32_t>("e", vt(Type::INT32), {})), bools("b", {}));
  ArrowSchema s;
  export_schema(proto, &s);
  // Moving a child: copy the struct, mark the source released.
  ArrowSchema moved = *s.children[0];
  s.children[0]->release = nullptr;
  s.release(&s);
  EXPECT_STREQ(moved.format, "+l");
  EXPECT_STREQ(moved.children[0]->format, "i");
  moved.release(&moved);
  EXPECT_EQ(moved.release, nullptr);
}

TEST(ArrowExportSchema, MalformedShapesThrow) {
  Array bad_list;
  bad_list.kind = ArrayKind::kList;
  bad_list.name = "l";
  Array bad_map;
  bad_map.kind = ArrayKind::kMap;
  bad_map.name = "m";
  for (Array* a : {&bad_list, &bad_map}) {
    RecordBatch proto;
    proto.columns.push_back(bools("ok", {}));
    proto.columns.push_back(*a);
    ArrowSchema s{};
    EXPECT_THROW(export_schema(proto, &s), Error);
    EXPECT_EQ(s.release, nullptr);
  }
}

// ---------------------------------------------------------------------------
// Arrays: primitives and zero copy.

TEST(ArrowExportBatch, Int32SharesItsBuffersAndCountsNulls) {
  Array a = fixed<int32_t>("a", vt(Type::INT32), {1, std::nullopt, -3, 4, std::nullopt, 6, 7, 8, 9});
  const void* values = a.values.data();
  const void* validity = a.validity.data();
  Exported e;
  export_checked(batch_of(std::move(a)), e);
  EXPECT_EQ(e.array.length, 9);
  ASSERT_EQ(e.array.n_children, 1);
  ASSERT_EQ(e.array.n_buffers, 1);
  EXPECT_EQ(e.array.buffers[0], nullptr);
  const ArrowArray& c = e.column(0);
  EXPECT_EQ(c.length, 9);
  EXPECT_EQ(c.null_count, 2);
  EXPECT_EQ(c.buffers[0], validity);
  EXPECT_EQ(c.buffers[1], values);
  EXPECT_EQ(value_at<int32_t>(c, 2), -3);
  EXPECT_EQ(value_at<int32_t>(c, 8), 9);
  EXPECT_FALSE(bit(c.buffers[0], 1));
  EXPECT_TRUE(bit(c.buffers[0], 8));
}

TEST(ArrowExportBatch, NoValidityBufferWithoutNulls) {
  Array a = fixed<int64_t>("a", vt(Type::INT64), {1, 2, 3});
  // A bitmap with every bit set still means no nulls.
  a.validity.resize(1);
  a.validity.data()[0] = 0x07;
  Exported e;
  export_checked(batch_of(std::move(a)), e);
  EXPECT_EQ(e.column(0).null_count, 0);
  EXPECT_EQ(e.column(0).buffers[0], nullptr);
}

TEST(ArrowExportBatch, NullCountComesFromTheBitmap) {
  Array a = fixed<int32_t>("a", vt(Type::INT32), {1, std::nullopt, 3});
  a.null_count = 0;  // a stale count must not reach the consumer
  Exported e;
  export_checked(batch_of(std::move(a)), e);
  EXPECT_EQ(e.column(0).null_count, 1);
}

TEST(ArrowExportBatch, FloatingPointTemporalAndFixedWidthAreZeroCopy) {
  using TS = format::TimestampType;
  std::vector<Array> cols;
  cols.push_back(fixed<float>("f", vt(Type::FLOAT), {1.5f, std::nullopt}));
  cols.push_back(fixed<double>("d", vt(Type::DOUBLE), {2.25, -0.0}));
  cols.push_back(fixed<int32_t>("date", vt(Type::INT32, {.DATE = format::DateType{}}), {19000, std::nullopt}));
  cols.push_back(fixed<int32_t>("tm", vt(Type::INT32, {.TIME = format::TimeType{true, millis()}}), {1000, 2}));
  cols.push_back(fixed<int64_t>("tu", vt(Type::INT64, {.TIME = format::TimeType{true, micros()}}), {1, 2}));
  cols.push_back(fixed<int64_t>("ts", vt(Type::INT64, {.TIMESTAMP = TS{true, nanos()}}), {-1, std::nullopt}));
  cols.push_back(fixed<uint16_t>("h", vt(Type::FIXED_LEN_BYTE_ARRAY, {.FLOAT16 = format::Float16Type{}}, 2),
                                 {0x3C00, std::nullopt}));
  cols.push_back(flba("w", vt(Type::FIXED_LEN_BYTE_ARRAY, {}, 3), {"abc", std::nullopt}));
  cols.push_back(flba("u", vt(Type::FIXED_LEN_BYTE_ARRAY, {.UUID = format::UUIDType{}}, 16),
                      {std::string("0123456789abcdef"), std::nullopt}));
  cols.push_back(fixed<int64_t>("ul", vt(Type::INT64, integer(64, false)), {-1, 5}));
  cols.push_back(fixed<int32_t>("ui", vt(Type::INT32, integer(32, false)), {-1, 5}));
  std::vector<const void*> values;
  for (const Array& c : cols) values.push_back(c.values.data());
  Exported e;
  export_checked(batch_of(std::move(cols)), e);
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(e.column(static_cast<int>(i)).buffers[1], values[i]) << e.field(static_cast<int>(i)).name;
  }
  EXPECT_EQ(value_at<float>(e.column(0), 0), 1.5f);
  EXPECT_EQ(value_at<int32_t>(e.column(2), 0), 19000);
  EXPECT_EQ(value_at<uint16_t>(e.column(6), 0), 0x3C00);
  EXPECT_EQ(std::memcmp(e.column(7).buffers[1], "abc", 3), 0);
  EXPECT_EQ(e.column(8).null_count, 1);
  EXPECT_EQ(value_at<uint64_t>(e.column(9), 0), UINT64_MAX);
}

TEST(ArrowExportBatch, BooleanBitsAreShared) {
  Array a = bools("b", {true, false, std::nullopt, true, true, false, false, false, true});
  const void* values = a.values.data();
  Exported e;
  export_checked(batch_of(std::move(a)), e);
  const ArrowArray& c = e.column(0);
  EXPECT_EQ(c.buffers[1], values);
  EXPECT_EQ(c.null_count, 1);
  std::vector<bool> got;
  for (int i = 0; i < 9; ++i) got.push_back(bit(c.buffers[1], i));
  EXPECT_EQ(got, (std::vector<bool>{true, false, false, true, true, false, false, false, true}));
}

TEST(ArrowExportBatch, StringsAndBinaryHaveThreeSharedBuffers) {
  Array s = binary("s", vt(Type::BYTE_ARRAY, string_type()), {"hé", std::nullopt, "", "xyz"});
  Array z = binary("z", vt(Type::BYTE_ARRAY), {std::string("\0\1", 2), "q", std::nullopt, std::nullopt});
  const void* offsets = s.offsets.data();
  const void* bytes = s.values.data();
  Exported e;
  export_checked(batch_of(std::move(s), std::move(z)), e);
  const ArrowArray& c = e.column(0);
  EXPECT_STREQ(e.field(0).format, "u");
  EXPECT_EQ(c.n_buffers, 3);
  EXPECT_EQ(c.buffers[1], offsets);
  EXPECT_EQ(c.buffers[2], bytes);
  EXPECT_EQ(offsets_of(c), (std::vector<int32_t>{0, 3, 3, 3, 6}));
  EXPECT_EQ(std::string(static_cast<const char*>(c.buffers[2]), 6), "héxyz");
  EXPECT_EQ(c.null_count, 1);
  EXPECT_STREQ(e.field(1).format, "z");
  EXPECT_EQ(e.column(1).null_count, 2);
  EXPECT_EQ(offsets_of(e.column(1)), (std::vector<int32_t>{0, 2, 3, 3, 3}));
}

// ---------------------------------------------------------------------------
// Conversions.

TEST(ArrowExportBatch, NarrowsInt8AndInt16) {
  std::vector<Array> cols;
  cols.push_back(fixed<int32_t>("i8", vt(Type::INT32, integer(8, true)), {-128, 127, std::nullopt, -1}));
  cols.push_back(fixed<int32_t>("u8", vt(Type::INT32, integer(8, false)), {0, 255, 200, std::nullopt}));
  cols.push_back(fixed<int32_t>("i16", vt(Type::INT32, integer(16, true)), {-32768, 32767, -2, 0}));
  cols.push_back(fixed<int32_t>("u16", vt(Type::INT32, integer(16, false)), {65535, 1, std::nullopt, 40000}));
  Exported e;
  export_checked(batch_of(std::move(cols)), e);
  EXPECT_EQ(value_at<int8_t>(e.column(0), 0), -128);
  EXPECT_EQ(value_at<int8_t>(e.column(0), 1), 127);
  EXPECT_EQ(value_at<int8_t>(e.column(0), 3), -1);
  EXPECT_EQ(e.column(0).null_count, 1);
  EXPECT_EQ(value_at<uint8_t>(e.column(1), 1), 255);
  EXPECT_EQ(value_at<uint8_t>(e.column(1), 2), 200);
  EXPECT_EQ(value_at<int16_t>(e.column(2), 0), -32768);
  EXPECT_EQ(value_at<int16_t>(e.column(2), 2), -2);
  EXPECT_EQ(value_at<uint16_t>(e.column(3), 0), 65535);
  EXPECT_EQ(value_at<uint16_t>(e.column(3), 3), 40000);
}

// Independent decimal reference: big-endian bytes folded into __int128
// arithmetically (no byte reversal), stored little endian by the compiler.
__int128 from_big_endian(const std::string& be) {
  __int128 v = !be.empty() && (static_cast<uint8_t>(be[0]) & 0x80) ? -1 : 0;
  for (char c : be) v = v * 256 + static_cast<uint8_t>(c);  // NOLINT: wraps as intended for <= 16 bytes
  return v;
}

std::string big_endian_of(__int128 v, int n) {
  std::string out(n, '\0');
  for (int i = n - 1; i >= 0; --i, v >>= 8) out[i] = static_cast<char>(v & 0xFF);
  return out;
}

__int128 decimal128_at(const ArrowArray& a, int64_t i) { return value_at<__int128>(a, i); }

// Test values that are the same on every run.
struct XorShift {
  uint64_t state;
  uint64_t operator()() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
};

TEST(ArrowExportBatch, Decimal128FromEveryStorage) {
  const __int128 big = static_cast<__int128>(1234567890123456789LL) * 1000000007 * -1;  // needs > 8 bytes
  std::vector<Array> cols;
  cols.push_back(fixed<int32_t>("d32", vt(Type::INT32, decimal(9, 2)), {-12345, std::nullopt, 999999999}));
  cols.push_back(fixed<int64_t>("d64", vt(Type::INT64, decimal(18, 4)), {INT64_MIN, 7, std::nullopt}));
  cols.push_back(flba("fl", vt(Type::FIXED_LEN_BYTE_ARRAY, decimal(11, 0), 5),
                      {big_endian_of(-5, 5), big_endian_of(0x7F12345678, 5), std::nullopt}));
  cols.push_back(binary("ba", vt(Type::BYTE_ARRAY, decimal(38, 3)),
                        {big_endian_of(big, 13), std::string(),
                         std::string("\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF"
                                     "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x80",
                                     18)}));
  // Null slots of a fixed-width column may hold anything; they must not fail the range check.
  std::memset(cols[2].values.data() + 10, 0x5A, 5);
  cols.push_back(flba("wide", vt(Type::FIXED_LEN_BYTE_ARRAY, decimal(38, 0), 17),
                      {big_endian_of(-1, 17), std::nullopt, big_endian_of(12, 17)}));
  std::memset(cols[4].values.data() + 17, 0x5A, 17);  // would not fit 16 bytes if it were a value
  Exported e;
  export_checked(batch_of(std::move(cols)), e);
  EXPECT_STREQ(e.field(0).format, "d:9,2");
  EXPECT_EQ(decimal128_at(e.column(0), 0), -12345);
  EXPECT_EQ(decimal128_at(e.column(0), 2), 999999999);
  EXPECT_EQ(e.column(0).null_count, 1);
  EXPECT_EQ(decimal128_at(e.column(1), 0), static_cast<__int128>(INT64_MIN));
  EXPECT_EQ(decimal128_at(e.column(1), 1), 7);
  EXPECT_EQ(decimal128_at(e.column(2), 0), -5);
  EXPECT_EQ(decimal128_at(e.column(2), 1), from_big_endian(big_endian_of(0x7F12345678, 5)));
  EXPECT_EQ(decimal128_at(e.column(2), 1), static_cast<__int128>(0x7F12345678));
  EXPECT_EQ(decimal128_at(e.column(2), 2), 0);
  EXPECT_EQ(decimal128_at(e.column(3), 0), big);
  EXPECT_EQ(decimal128_at(e.column(3), 1), 0);     // empty bytes read as zero
  EXPECT_EQ(decimal128_at(e.column(3), 2), -128);  // 18 bytes whose top two are sign extension
  EXPECT_EQ(decimal128_at(e.column(4), 0), -1);
  EXPECT_EQ(decimal128_at(e.column(4), 1), 0);
  EXPECT_EQ(decimal128_at(e.column(4), 2), 12);
}

// INT32 and INT64 decimals widen by a SIMD kernel chosen at run time, with
// streaming stores on large arrays: every level must give each value, at
// lengths around the vector width and past the streaming size.
TEST(ArrowExportBatch, Decimal128WideningAtEverySimdLevel) {
  const SimdLevel detected = detected_simd_level();
  XorShift next{0x9E3779B97F4A7C15ULL};
  for (int level = 0; level <= static_cast<int>(detected); ++level) {
    set_simd_level(static_cast<SimdLevel>(level));
    for (int64_t n : {1, 7, 8, 9, 23, 4096, 40000, 70001}) {
      std::vector<std::optional<int64_t>> wide;
      std::vector<std::optional<int32_t>> narrow;
      for (int64_t i = 0; i < n; ++i) {
        const uint64_t r = next();
        const int64_t v = i == 0 ? INT64_MIN : i == 1 ? INT64_MAX : static_cast<int64_t>(r) >> (r % 50);
        wide.push_back(v);
        narrow.push_back(static_cast<int32_t>(v));
      }
      std::vector<Array> cols;
      cols.push_back(fixed<int64_t>("d64", vt(Type::INT64, decimal(18, 2)), wide));
      cols.push_back(fixed<int32_t>("d32", vt(Type::INT32, decimal(9, 0)), narrow));
      Exported e;
      export_checked(batch_of(std::move(cols)), e);
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(decimal128_at(e.column(0), i), static_cast<__int128>(*wide[i]))
            << "level " << level << " n " << n << " slot " << i;
        ASSERT_EQ(decimal128_at(e.column(1), i), static_cast<__int128>(*narrow[i]))
            << "level " << level << " n " << n << " slot " << i;
      }
    }
  }
  set_simd_level(detected);
}

// FIXED_LEN_BYTE_ARRAY decimals of 1 to 16 bytes take a word-at-a-time
// path whose loads reach past a short value: every length, the extremes of
// each, counts around the tail the path leaves to bytes, and null slots
// holding bytes that are not zero.
TEST(ArrowExportBatch, ShortFixedLengthDecimalsAtEveryLength) {
  XorShift next{0x2545F4914F6CDD1DULL};
  for (int n = 1; n <= 16; ++n) {
    const std::string min = '\x80' + std::string(n - 1, '\0');
    const std::string max = '\x7F' + std::string(n - 1, '\xFF');
    for (int64_t count : {1, 2, 3, 9, 17, 100}) {
      std::vector<std::optional<std::string>> values;
      for (int64_t i = 0; i < count; ++i) {
        if (i % 5 == 3) {
          values.push_back(std::nullopt);
          continue;
        }
        std::string random(n, '\0');
        for (char& c : random) c = static_cast<char>(next() >> 56);
        values.push_back(i == 0 ? min : i == count - 1 ? max : random);
      }
      // Precision 40 needs 256 bits: the same bytes sign-extended twice as far.
      for (int precision : {std::min(2 * n, 38), 40}) {
        Array a = flba("d", vt(Type::FIXED_LEN_BYTE_ARRAY, decimal(precision, 0), n), values);
        for (int64_t i = 0; i < count; ++i) {
          if (!values[i]) std::memset(a.values.data() + i * n, 0x5A, n);
        }
        Exported e;
        export_checked(batch_of(std::move(a)), e);
        const int width = precision > 38 ? 32 : 16;
        const auto* d = static_cast<const uint8_t*>(e.column(0).buffers[1]);
        for (int64_t i = 0; i < count; ++i) {
          const __int128 want = values[i] ? from_big_endian(*values[i]) : 0;
          __int128 low;
          std::memcpy(&low, d + i * width, 16);
          ASSERT_EQ(low, want) << "n " << n << " count " << count << " slot " << i << " precision " << precision;
          for (int b = 16; b < width; ++b) {
            ASSERT_EQ(d[i * width + b], want < 0 ? 0xFF : 0x00) << "n " << n << " slot " << i << " byte " << b;
          }
        }
      }
    }
  }
}

TEST(ArrowExportBatch, Decimal256SignExtendsAndKeepsAllBytes) {
  // 33 bytes: a sign-extension byte then a 32-byte magnitude with its top bit clear.
  std::string positive(33, '\0');
  for (int i = 1; i < 33; ++i) positive[i] = static_cast<char>(i == 1 ? 0x12 : i);
  std::string negative = big_endian_of(-2, 20);
  Array a = binary("d", vt(Type::BYTE_ARRAY, decimal(76, 0)), {positive, negative, std::nullopt});
  Array small = fixed<int64_t>("s", vt(Type::INT64, decimal(40, 1)), {-3, 5, 0});
  Exported e;
  export_checked(batch_of(std::move(a), std::move(small)), e);
  EXPECT_STREQ(e.field(0).format, "d:76,0,256");
  const auto* d = static_cast<const uint8_t*>(e.column(0).buffers[1]);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(d[i], static_cast<uint8_t>(positive[32 - i])) << i;
  }
  EXPECT_EQ(d[32], 0xFE);
  for (int i = 33; i < 64; ++i) {
    EXPECT_EQ(d[i], 0xFF) << i;
  }
  for (int i = 64; i < 96; ++i) {
    EXPECT_EQ(d[i], 0) << i;
  }
  EXPECT_STREQ(e.field(1).format, "d:40,1,256");
  const auto* s = static_cast<const uint8_t*>(e.column(1).buffers[1]);
  EXPECT_EQ(s[0], 0xFD);
  for (int i = 1; i < 32; ++i) {
    EXPECT_EQ(s[i], 0xFF) << i;
  }
  EXPECT_EQ(s[32], 5);
  for (int i = 33; i < 64; ++i) {
    EXPECT_EQ(s[i], 0) << i;
  }
}

TEST(ArrowExportBatch, DecimalTooWideForItsWidthThrows) {
  std::string wide = std::string(1, '\x01') + std::string(16, '\0');  // 2^128: past 16 bytes
  Array a = binary("d", vt(Type::BYTE_ARRAY, decimal(38, 0)), {wide});
  ArrowArray out{};
  EXPECT_THROW(export_batch(batch_of(std::move(a)), &out), Error);
  EXPECT_EQ(out.release, nullptr);
  // Positive magnitude whose top kept bit would read as negative.
  Array b = binary("d", vt(Type::BYTE_ARRAY, decimal(38, 0)), {std::string(1, '\0') + std::string(16, '\x80')});
  EXPECT_THROW(export_batch(batch_of(std::move(b)), &out), Error);
}

// A fixed-length decimal array whose values hold fewer bytes than its length
// needs is refused before the conversion, whose word loads trust the size.
TEST(ArrowExportBatch, FixedLengthDecimalsShorterThanTheArrayThrow) {
  Array a = flba("d", vt(Type::FIXED_LEN_BYTE_ARRAY, decimal(11, 0), 5), {big_endian_of(1, 5), big_endian_of(2, 5)});
  a.length = 3;
  ArrowArray out{};
  try {
    export_batch(batch_of(std::move(a)), &out);
    FAIL() << "export accepted 10 bytes of values for 3 slots of 5";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("values shorter than length"), std::string::npos) << e.what();
  }
  EXPECT_EQ(out.release, nullptr);
}

// Independent INT96 reference: exact value in __int128, then reduced mod 2^64.
int64_t int96_reference(uint32_t julian_day, uint64_t nanos_of_day) {
  __int128 exact = (static_cast<__int128>(julian_day) - 2440588) * 86400 * 1000000000 + nanos_of_day;
  return static_cast<int64_t>(static_cast<uint64_t>(exact));  // keeps the low 64 bits
}

std::string int96(uint32_t julian_day, uint64_t nanos_of_day) {
  std::string out(12, '\0');
  std::memcpy(out.data(), &nanos_of_day, 8);
  std::memcpy(out.data() + 8, &julian_day, 4);
  return out;
}

TEST(ArrowExportBatch, Int96BecomesNanosecondsSinceTheEpoch) {
  struct Case {
    uint32_t day;
    uint64_t nanos;
  };
  const std::vector<Case> cases = {
      {2440588, 0},                  // 1970-01-01
      {2440589, 1},                  // a day and a nanosecond later
      {2440587, 43200000000000ull},  // 1969-12-31T12:00
      {2451545, 3600000000000ull},   // 2000-01-01T01:00
      {5373484, 86399999999999ull},  // 9999-12-31: wraps around
      {0, 0},                        // 4713 BC: wraps around
      {UINT32_MAX, UINT64_MAX},      // garbage still converts deterministically
  };
  std::vector<std::optional<std::string>> values;
  for (const Case& c : cases) values.push_back(int96(c.day, c.nanos));
  values.push_back(std::nullopt);
  Array a = flba("t", vt(Type::INT96, {}, 12), values);
  Exported e;
  export_checked(batch_of(std::move(a)), e);
  EXPECT_STREQ(e.field(0).format, "tsn:");
  EXPECT_EQ(e.column(0).null_count, 1);
  EXPECT_EQ(value_at<int64_t>(e.column(0), 0), 0);
  EXPECT_EQ(value_at<int64_t>(e.column(0), 1), 86400000000001);
  EXPECT_EQ(value_at<int64_t>(e.column(0), 2), -43200000000000);
  EXPECT_EQ(value_at<int64_t>(e.column(0), 3), (946684800LL + 3600) * 1000000000);
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(value_at<int64_t>(e.column(0), static_cast<int64_t>(i)), int96_reference(cases[i].day, cases[i].nanos))
        << i;
  }
}

TEST(ArrowExportBatch, IntervalBecomesMonthDayNano) {
  auto interval = [](uint32_t months, uint32_t days, uint32_t ms) {
    std::string out(12, '\0');
    std::memcpy(out.data(), &months, 4);
    std::memcpy(out.data() + 4, &days, 4);
    std::memcpy(out.data() + 8, &ms, 4);
    return out;
  };
  ValueType t = vt(Type::FIXED_LEN_BYTE_ARRAY, {}, 12);
  t.converted = ConvertedType::INTERVAL;
  Array a = flba("iv", t, {interval(14, 3, 1500), std::nullopt, interval(0, 0, UINT32_MAX)});
  Exported e;
  export_checked(batch_of(std::move(a)), e);
  EXPECT_STREQ(e.field(0).format, "tin");
  const auto* p = static_cast<const uint8_t*>(e.column(0).buffers[1]);
  auto read = [p](int slot) {
    int32_t months, days;
    int64_t ns;
    std::memcpy(&months, p + slot * 16, 4);
    std::memcpy(&days, p + slot * 16 + 4, 4);
    std::memcpy(&ns, p + slot * 16 + 8, 8);
    return std::tuple(months, days, ns);
  };
  EXPECT_EQ(read(0), std::tuple(14, 3, int64_t{1500000000}));
  EXPECT_EQ(read(2), std::tuple(0, 0, int64_t{4294967295} * 1000000));
  EXPECT_EQ(e.column(0).null_count, 1);
}

TEST(ArrowExportBatch, UnknownLogicalTypeIsTheNullType) {
  Array a =
      fixed<int32_t>("n", vt(Type::INT32, {.UNKNOWN = format::NullType{}}), {std::nullopt, std::nullopt, std::nullopt});
  Exported e;
  export_checked(batch_of(std::move(a)), e);
  EXPECT_STREQ(e.field(0).format, "n");
  EXPECT_EQ(e.column(0).n_buffers, 0);
  EXPECT_EQ(e.column(0).null_count, 3);
}

// ---------------------------------------------------------------------------
// Nesting.

// list<struct<x: int32, tags: list<string>>>, with nulls at every level:
//   row 0: [{x: 1, tags: ["a", "b"]}, null]
//   row 1: null
//   row 2: []
//   row 3: [{x: null, tags: null}, {x: 4, tags: []}]
Array nested_column() {
  Array tags = list("tags", {2, std::nullopt, std::nullopt, 0},
                    binary("element", vt(Type::BYTE_ARRAY, string_type()), {"a", "b"}));
  Array x = fixed<int32_t>("x", vt(Type::INT32), {1, std::nullopt, std::nullopt, 4});
  std::vector<Array> fields;
  fields.push_back(std::move(x));
  fields.push_back(std::move(tags));
  Array element = structure("element", {true, false, true, true}, std::move(fields));
  return list("rows", {2, std::nullopt, 0, 2}, std::move(element));
}

TEST(ArrowExportBatch, NestedListOfStructOfList) {
  Exported e;
  export_checked(batch_of(nested_column()), e);
  const ArrowArray& rows = e.column(0);
  EXPECT_EQ(rows.n_buffers, 2);
  EXPECT_EQ(rows.null_count, 1);
  EXPECT_EQ(offsets_of(rows), (std::vector<int32_t>{0, 2, 2, 2, 4}));
  EXPECT_FALSE(bit(rows.buffers[0], 1));
  EXPECT_TRUE(bit(rows.buffers[0], 2));  // empty, not null
  const ArrowArray& element = *rows.children[0];
  EXPECT_EQ(element.n_buffers, 1);
  EXPECT_EQ(element.length, 4);
  EXPECT_EQ(element.null_count, 1);
  EXPECT_EQ(element.n_children, 2);
  const ArrowArray& x = *element.children[0];
  EXPECT_EQ(x.null_count, 2);
  EXPECT_EQ(value_at<int32_t>(x, 3), 4);
  const ArrowArray& tags = *element.children[1];
  EXPECT_EQ(offsets_of(tags), (std::vector<int32_t>{0, 2, 2, 2, 2}));
  EXPECT_EQ(tags.null_count, 2);
  const ArrowArray& strings = *tags.children[0];
  EXPECT_EQ(strings.length, 2);
  EXPECT_EQ(std::string(static_cast<const char*>(strings.buffers[2]), 2), "ab");
  EXPECT_STREQ(e.field(0).children[0]->children[1]->children[0]->name, "element");
}

TEST(ArrowExportBatch, MapWithValues) {
  // {"a": 1, "b": null}, null, {}
  Array m = map("m", {2, std::nullopt, 0}, binary("key", vt(Type::BYTE_ARRAY, string_type()), {"a", "b"}),
                fixed<int64_t>("value", vt(Type::INT64), {1, std::nullopt}));
  Exported e;
  export_checked(batch_of(std::move(m)), e);
  const ArrowArray& c = e.column(0);
  EXPECT_STREQ(e.field(0).format, "+m");
  EXPECT_EQ(c.n_buffers, 2);
  EXPECT_EQ(c.null_count, 1);
  EXPECT_EQ(offsets_of(c), (std::vector<int32_t>{0, 2, 2, 2}));
  ASSERT_EQ(c.n_children, 1);
  const ArrowArray& entries = *c.children[0];
  EXPECT_EQ(entries.length, 2);
  EXPECT_EQ(entries.n_buffers, 1);
  EXPECT_EQ(entries.buffers[0], nullptr);
  ASSERT_EQ(entries.n_children, 2);
  EXPECT_EQ(offsets_of(*entries.children[0]), (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(entries.children[1]->null_count, 1);
  EXPECT_EQ(value_at<int64_t>(*entries.children[1], 0), 1);
}

TEST(ArrowExportBatch, MapWithoutValuesGetsANullTypedValueChild) {
  Array m = map("s", {3, 0, std::nullopt}, fixed<int32_t>("key", vt(Type::INT32), {7, 8, 9}), std::nullopt);
  Exported e;
  export_checked(batch_of(std::move(m)), e);
  const ArrowArray& entries = *e.column(0).children[0];
  ASSERT_EQ(entries.n_children, 2);
  const ArrowArray& values = *entries.children[1];
  EXPECT_STREQ(e.field(0).children[0]->children[1]->format, "n");
  EXPECT_EQ(values.length, 3);
  EXPECT_EQ(values.null_count, 3);
  EXPECT_EQ(values.n_buffers, 0);
  EXPECT_EQ(value_at<int32_t>(*entries.children[0], 2), 9);
}

TEST(ArrowExportBatch, EmptyBatchKeepsTheShapeAndReadableOffsets) {
  RecordBatch rows;
  rows.columns.push_back(binary("s", vt(Type::BYTE_ARRAY, string_type()), {}));
  rows.columns.push_back(fixed<int32_t>("d", vt(Type::INT32, decimal(5, 2)), {}));
  rows.columns.push_back(map("m", {}, fixed<int32_t>("key", vt(Type::INT32), {}), std::nullopt));
  // As a reader's prototype: zero rows and no buffers at all, not even the one offset.
  for (Array* a : {&rows.columns[0], &rows.columns[2]}) a->offsets = Buffer();
  Exported e;
  export_checked(std::move(rows), e);
  EXPECT_EQ(e.array.length, 0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(e.column(i).length, 0);
  }
  EXPECT_EQ(offsets_of(e.column(0)), std::vector<int32_t>{0});
  EXPECT_EQ(offsets_of(e.column(2)), std::vector<int32_t>{0});

  // The nested column exported empty too.
  Array empty_nested = list("rows", {}, structure("element", {}, {}));
  Exported n;
  export_checked(batch_of(std::move(empty_nested)), n);
  EXPECT_EQ(n.column(0).children[0]->length, 0);
}

TEST(ArrowExportBatch, BatchWithoutColumns) {
  RecordBatch b;
  b.num_rows = 5;
  Exported e;
  export_checked(std::move(b), e);
  EXPECT_EQ(e.array.length, 5);
  EXPECT_EQ(e.array.n_children, 0);
}

// ---------------------------------------------------------------------------
// Ownership.

TEST(ArrowExportBatch, ReleaseFreesEverythingAndMarksReleased) {
  ArrowArray a;
  export_batch(batch_of(nested_column()), &a);
  ASSERT_NE(a.release, nullptr);
  a.release(&a);
  EXPECT_EQ(a.release, nullptr);  // ASan reports the leak if anything survived
}

TEST(ArrowExportBatch, MovedOutChildOutlivesItsParent) {
  ArrowArray a;
  export_batch(batch_of(nested_column(), bools("b", {true, false, std::nullopt, true})), &a);
  ArrowArray child = *a.children[0];
  a.children[0]->release = nullptr;  // the move protocol of the specification
  a.release(&a);
  // Reading after the parent is gone: ASan catches a use after free.
  const ArrowArray& strings = *child.children[0]->children[1]->children[0];
  EXPECT_EQ(std::string(static_cast<const char*>(strings.buffers[2]), 2), "ab");
  child.release(&child);
  EXPECT_EQ(child.release, nullptr);
}

TEST(ArrowExportBatch, ConsumesTheBatch) {
  RecordBatch b = batch_of(fixed<int32_t>("a", vt(Type::INT32, integer(8, true)), {1, 2}));
  ArrowArray a;
  export_batch(std::move(b), &a);
  EXPECT_TRUE(b.columns.empty());
  a.release(&a);
}

TEST(ArrowExportBatch, InconsistentBuffersThrowWithoutLeaking) {
  auto expect_throw = [](Array bad) {
    RecordBatch b;
    b.columns.push_back(nested_column());  // exported first, then unwound
    b.num_rows = 4;
    bad.name = "bad";
    std::vector<Array> fields;
    fields.push_back(std::move(bad));
    b.columns.push_back(structure("s", {true, true, true, true}, std::move(fields)));
    ArrowArray out{};
    EXPECT_THROW(export_batch(std::move(b), &out), Error);
    EXPECT_EQ(out.release, nullptr);
  };
  Array short_values = fixed<int64_t>("", vt(Type::INT64), {1, 2, 3, 4});
  short_values.values.resize(8);
  expect_throw(std::move(short_values));
  Array short_validity = fixed<int32_t>("", vt(Type::INT32), {1, 2, 3, 4, 5, 6, 7, 8, std::nullopt});
  short_validity.validity.resize(1);
  expect_throw(std::move(short_validity));
  Array past_end = binary("", vt(Type::BYTE_ARRAY), {"ab", "c", "d", "e"});
  past_end.values.resize(2);
  expect_throw(std::move(past_end));
  Array decreasing = binary("", vt(Type::BYTE_ARRAY), {"ab", "c", "d", "e"});
  decreasing.offsets.data_as<int32_t>()[2] = 0;
  expect_throw(std::move(decreasing));
  // The offsets are checked a block at a time: a decrease far in, and at the very end.
  for (int64_t at : {int64_t{1500}, int64_t{3000}}) {
    std::vector<std::optional<std::string>> many(3000, std::string("xy"));
    Array late = binary("", vt(Type::BYTE_ARRAY), many);
    late.offsets.data_as<int32_t>()[at] -= 3;  // below the offset before it
    expect_throw(std::move(late));
  }
  Array short_child = fixed<int32_t>("", vt(Type::INT32), {1, 2});
  expect_throw(std::move(short_child));
  Array list_past = list("", {1, 1, 1, 1}, fixed<int32_t>("e", vt(Type::INT32), {1, 2, 3}));
  expect_throw(std::move(list_past));
  Array null_key = map("", {1, 1, 1, 1}, fixed<int32_t>("k", vt(Type::INT32), {1, 2, std::nullopt, 4}),
                       fixed<int32_t>("v", vt(Type::INT32), {1, 2, 3, 4}));
  expect_throw(std::move(null_key));
  Array uneven = map("", {1, 1, 1, 1}, fixed<int32_t>("k", vt(Type::INT32), {1, 2, 3, 4}),
                     fixed<int32_t>("v", vt(Type::INT32), {1, 2, 3}));
  expect_throw(std::move(uneven));
}

// A source whose offsets are in order by construction (a reader) skips the
// pass over them; where they end is still checked, in every array.
TEST(ArrowExportBatch, OrderedOffsetsAreCheckedAtTheirEndsOnly) {
  auto export_ordered = [](Array a) {
    RecordBatch b;
    b.num_rows = a.length;
    b.columns.push_back(std::move(a));
    ArrowArray out{};
    export_batch(std::move(b), &out, true);
    const int64_t length = out.children[0]->length;
    out.release(&out);
    return length;
  };
  EXPECT_EQ(export_ordered(binary("s", vt(Type::BYTE_ARRAY), {"ab", "c", "d", "e"})), 4);
  Array past_end = binary("s", vt(Type::BYTE_ARRAY), {"ab", "c", "d", "e"});
  past_end.values.resize(2);
  EXPECT_THROW(export_ordered(std::move(past_end)), Error);
  Array backwards = binary("s", vt(Type::BYTE_ARRAY), {"ab", "c", "d", "e"});
  backwards.offsets.data_as<int32_t>()[4] = -1;  // ends before it starts
  EXPECT_THROW(export_ordered(std::move(backwards)), Error);
  Array list_past = list("l", {1, 1, 1, 1}, fixed<int32_t>("e", vt(Type::INT32), {1, 2, 3}));
  EXPECT_THROW(export_ordered(std::move(list_past)), Error);
  Array short_offsets = binary("s", vt(Type::BYTE_ARRAY), {"ab", "c"});
  short_offsets.offsets.resize(4);
  EXPECT_THROW(export_ordered(std::move(short_offsets)), Error);
}

// ---------------------------------------------------------------------------
// Stream.

class VectorSource : public BatchSource {
 public:
  VectorSource(RecordBatch proto, std::deque<RecordBatch> batches, bool fail_at_end = false)
      : proto_(std::move(proto)), batches_(std::move(batches)), fail_at_end_(fail_at_end) {}
  RecordBatch prototype() const override {
    if (fail_prototype_) throw Error("cannot read the footer");
    return proto_;
  }
  bool next(RecordBatch& out) override {
    if (batches_.empty()) {
      if (fail_at_end_) throw Error("page 3 of column 'a' is truncated");
      // Sources need not answer after their end: the stream must not ask.
      if (ended_) throw Error("asked for a batch after the end");
      ended_ = true;
      return false;
    }
    out = std::move(batches_.front());
    batches_.pop_front();
    return true;
  }
  bool fail_prototype_ = false;

 private:
  RecordBatch proto_;
  std::deque<RecordBatch> batches_;
  bool fail_at_end_;
  bool ended_ = false;
};

RecordBatch int_batch(std::vector<std::optional<int32_t>> v) {
  return batch_of(fixed<int32_t>("a", vt(Type::INT32), v));
}

std::unique_ptr<VectorSource> two_batches(bool fail_at_end = false) {
  std::deque<RecordBatch> batches;
  batches.push_back(int_batch({1, 2, std::nullopt}));
  batches.push_back(int_batch({4}));
  return std::make_unique<VectorSource>(int_batch({}), std::move(batches), fail_at_end);
}

TEST(ArrowExportStream, YieldsSchemaBatchesThenEnd) {
  ArrowArrayStream stream;
  export_stream(two_batches(), &stream);
  ASSERT_NE(stream.release, nullptr);
  EXPECT_EQ(stream.get_last_error(&stream), nullptr);
  ArrowSchema schema;
  ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
  EXPECT_STREQ(schema.format, "+s");
  ASSERT_EQ(schema.n_children, 1);
  EXPECT_STREQ(schema.children[0]->format, "i");
  std::vector<int64_t> lengths;
  for (;;) {
    ArrowArray a;
    ASSERT_EQ(stream.get_next(&stream, &a), 0);
    if (a.release == nullptr) break;
    validate(schema, a, "stream");
    lengths.push_back(a.length);
    if (lengths.size() == 1) {
      EXPECT_EQ(a.children[0]->null_count, 1);
    }
    a.release(&a);
  }
  EXPECT_EQ(lengths, (std::vector<int64_t>{3, 1}));
  ArrowArray again;
  ASSERT_EQ(stream.get_next(&stream, &again), 0);  // the end stays the end
  EXPECT_EQ(again.release, nullptr);
  schema.release(&schema);
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
}

TEST(ArrowExportStream, SourceErrorBecomesEioWithMessage) {
  ArrowArrayStream stream;
  export_stream(two_batches(/*fail_at_end=*/true), &stream);
  ArrowArray a;
  ASSERT_EQ(stream.get_next(&stream, &a), 0);
  a.release(&a);
  ASSERT_EQ(stream.get_next(&stream, &a), 0);
  a.release(&a);
  a.release = nullptr;
  EXPECT_EQ(stream.get_next(&stream, &a), EIO);
  EXPECT_EQ(a.release, nullptr);
  ASSERT_NE(stream.get_last_error(&stream), nullptr);
  EXPECT_STREQ(stream.get_last_error(&stream), "page 3 of column 'a' is truncated");
  EXPECT_EQ(stream.get_next(&stream, &a), EIO);  // the error sticks
  stream.release(&stream);
}

TEST(ArrowExportStream, SchemaErrorBecomesEio) {
  auto source = two_batches();
  source->fail_prototype_ = true;
  ArrowArrayStream stream;
  export_stream(std::move(source), &stream);
  ArrowSchema schema{};
  EXPECT_EQ(stream.get_schema(&stream, &schema), EIO);
  EXPECT_EQ(schema.release, nullptr);
  EXPECT_STREQ(stream.get_last_error(&stream), "cannot read the footer");
  stream.release(&stream);
}

TEST(ArrowExportStream, ExportErrorOfABadBatchBecomesEio) {
  std::deque<RecordBatch> batches;
  RecordBatch bad = int_batch({1, 2});
  bad.columns[0].values.resize(4);
  batches.push_back(std::move(bad));
  ArrowArrayStream stream;
  export_stream(std::make_unique<VectorSource>(int_batch({}), std::move(batches)), &stream);
  ArrowArray a{};
  EXPECT_EQ(stream.get_next(&stream, &a), EIO);
  EXPECT_NE(std::string(stream.get_last_error(&stream)).find("values shorter"), std::string::npos);
  stream.release(&stream);
}

TEST(ArrowExportStream, ReleasingEarlyFreesTheSourceAndPendingBatches) {
  ArrowArrayStream stream;
  export_stream(two_batches(), &stream);
  ArrowArray a;
  ASSERT_EQ(stream.get_next(&stream, &a), 0);
  stream.release(&stream);  // the array outlives the stream
  EXPECT_EQ(a.children[0]->length, 3);
  a.release(&a);
}

// With threads the stream exports a window of batches side by side; the
// consumer must still see them in order, each error at its own turn.
std::unique_ptr<VectorSource> decimal_batches(int n, bool fail_at_end = false, int bad_at = -1) {
  std::deque<RecordBatch> batches;
  for (int b = 0; b < n; ++b) {
    std::vector<std::optional<int64_t>> values;
    for (int i = 0; i <= b; ++i) values.push_back(int64_t{-1000} * b - i);
    RecordBatch batch = batch_of(fixed<int64_t>("d", vt(Type::INT64, decimal(18, 3)), values));
    if (b == bad_at) batch.columns[0].values.resize(4);
    batches.push_back(std::move(batch));
  }
  return std::make_unique<VectorSource>(batch_of(fixed<int64_t>("d", vt(Type::INT64, decimal(18, 3)), {})),
                                        std::move(batches), fail_at_end);
}

TEST(ArrowExportStream, ThreadsExportAheadInOrder) {
  for (int threads : {2, 3}) {
    ArrowArrayStream stream;
    export_stream(decimal_batches(11, /*fail_at_end=*/true), &stream, threads);
    ArrowSchema schema;
    ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
    for (int b = 0; b < 11; ++b) {
      ArrowArray a;
      ASSERT_EQ(stream.get_next(&stream, &a), 0) << stream.get_last_error(&stream);
      ASSERT_NE(a.release, nullptr);
      validate(schema, a, "threaded stream");
      ASSERT_EQ(a.length, b + 1) << "threads " << threads;
      for (int i = 0; i <= b; ++i) EXPECT_EQ(decimal128_at(*a.children[0], i), int64_t{-1000} * b - i);
      a.release(&a);
    }
    ArrowArray a{};
    EXPECT_EQ(stream.get_next(&stream, &a), EIO);
    EXPECT_EQ(a.release, nullptr);
    EXPECT_STREQ(stream.get_last_error(&stream), "page 3 of column 'a' is truncated");
    EXPECT_EQ(stream.get_next(&stream, &a), EIO);
    schema.release(&schema);
    stream.release(&stream);
  }
}

TEST(ArrowExportStream, ThreadsReportABadBatchAtItsTurn) {
  ArrowArrayStream stream;
  export_stream(decimal_batches(6, false, /*bad_at=*/2), &stream, 2);
  for (int b = 0; b < 2; ++b) {
    ArrowArray a;
    ASSERT_EQ(stream.get_next(&stream, &a), 0);
    EXPECT_EQ(a.length, b + 1);
    a.release(&a);
  }
  ArrowArray a{};
  EXPECT_EQ(stream.get_next(&stream, &a), EIO);
  EXPECT_EQ(a.release, nullptr);
  EXPECT_NE(std::string(stream.get_last_error(&stream)).find("values shorter"), std::string::npos);
  EXPECT_EQ(stream.get_next(&stream, &a), EIO);  // the batches exported after it are freed with the stream
  stream.release(&stream);
}

TEST(ArrowExportStream, ThreadsEndCleanlyAndFreeBatchesNotTaken) {
  ArrowArrayStream stream;
  export_stream(decimal_batches(5), &stream, 2);
  ArrowArray a;
  ASSERT_EQ(stream.get_next(&stream, &a), 0);
  stream.release(&stream);  // exported batches not taken are released; `a` outlives the stream
  EXPECT_EQ(a.length, 1);
  a.release(&a);

  export_stream(decimal_batches(4), &stream, 2);
  int taken = 0;
  for (;;) {
    ASSERT_EQ(stream.get_next(&stream, &a), 0);
    if (a.release == nullptr) break;
    ++taken;
    a.release(&a);
  }
  EXPECT_EQ(taken, 4);
  ASSERT_EQ(stream.get_next(&stream, &a), 0);  // the end stays the end, the source not asked again
  EXPECT_EQ(a.release, nullptr);
  stream.release(&stream);
  EXPECT_THROW(export_stream(decimal_batches(1), &stream, 0), Error);
}

TEST(ArrowExportStream, NullSourceThrows) {
  ArrowArrayStream stream{};
  EXPECT_THROW(export_stream(nullptr, &stream), Error);
  EXPECT_EQ(stream.release, nullptr);
}

// Values that are a view of a decompressed page export as that memory,
// not a copy, and the export keeps the page alive after everything else
// let go of it (ASan sees a read of freed memory otherwise).
TEST(ArrowExportArray, ViewsExportInPlaceAndKeepTheirPageAlive) {
  auto page = std::make_shared<Buffer>(1024);
  for (int64_t i = 0; i < 128; ++i) page->data_as<int64_t>()[i] = i * 3;
  Array a;
  a.name = "v";
  a.type = vt(Type::INT64);
  a.length = 64;
  a.values = Buffer::view(page, page->data() + 512, 64 * sizeof(int64_t));
  const void* viewed = page->data() + 512;
  ArrowArray out;
  export_batch(batch_of(std::move(a)), &out);
  std::weak_ptr<Buffer> watch = page;
  page.reset();
  EXPECT_FALSE(watch.expired());
  ASSERT_EQ(out.n_children, 1);
  const ArrowArray* column = out.children[0];
  ASSERT_EQ(column->n_buffers, 2);
  EXPECT_EQ(column->buffers[1], viewed);
  EXPECT_EQ(static_cast<const int64_t*>(column->buffers[1])[63], (64 + 63) * 3);
  out.release(&out);
  EXPECT_TRUE(watch.expired());
}

// Null counts come from the bitmap a word at a time; lengths around word
// and byte edges, with nulls in the first, middle and last bytes.
TEST(ArrowExportBatch, NullCountAtWordAndByteEdges) {
  for (int64_t n : {1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 200, 517}) {
    std::vector<std::optional<int32_t>> values;
    int64_t nulls = 0;
    for (int64_t i = 0; i < n; ++i) {
      const bool null = i % 7 == 3 || i == n - 1;
      nulls += null;
      values.push_back(null ? std::nullopt : std::optional<int32_t>(static_cast<int32_t>(i)));
    }
    Exported e;
    export_checked(batch_of(fixed<int32_t>("v", vt(Type::INT32), values)), e);
    EXPECT_EQ(e.column(0).null_count, nulls) << n;
  }
}

}  // namespace
}  // namespace parq
