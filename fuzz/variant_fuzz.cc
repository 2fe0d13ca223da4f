// libFuzzer target for VARIANT decoding and encoding: the input's first
// byte says how many of the next bytes are the metadata, the rest is the
// value. Whatever parses must render as JSON, have every field findable by
// its name, take no more bytes than it was given, and, written again by
// ValueWriter element by element, read back as the same text; nothing may
// crash or run long. The value bytes also go through the filters' variant
// predicates, which read them without the validation above; and a valid
// value, shredded into the layout inferred from it and rebuilt, must read
// back as the same text.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "filter/variant_predicate.h"
#include "parq/error.h"
#include "parq/schema/schema_text.h"
#include "parq/text/variant_text.h"
#include "parq/variant/shredding.h"
#include "parq/variant/variant.h"
#include "parq/variant/variant_writer.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void walk(const parq::variant::Value& v) {
  using parq::variant::Type;
  if (v.type() == Type::kObject) {
    for (size_t i = 0; i < v.size(); ++i) {
      const auto found = v.field(v.field_name(i));
      check(found.has_value() && found->encoded_size() == v.field_value(i).encoded_size());
      walk(v.field_value(i));
    }
  } else if (v.type() == Type::kArray) {
    for (size_t i = 0; i < v.size(); ++i) walk(v.element(i));
  }
}

// Writes v again: containers element by element, fields in reverse order
// (the writer must sort them), primitives as they are encoded.
void rewrite(const parq::variant::Value& v, parq::variant::ValueWriter& w) {
  using parq::variant::Type;
  if (v.type() == Type::kObject) {
    w.begin_object();
    for (size_t i = v.size(); i-- > 0;) {
      w.field(v.field_id(i), v.field_name(i));
      rewrite(v.field_value(i), w);
    }
    w.end_object();
  } else if (v.type() == Type::kArray) {
    w.begin_array();
    for (size_t i = 0; i < v.size(); ++i) {
      w.element();
      rewrite(v.element(i), w);
    }
    w.end_array();
  } else {
    w.encoded(v);
  }
}

parq::Array binary(const char* name, std::span<const uint8_t> bytes) {
  parq::Array a;
  a.name = name;
  a.type.physical = parq::format::Type::BYTE_ARRAY;
  a.length = 1;
  a.offsets.append_value<int32_t>(0);
  a.offsets.append_value(static_cast<int32_t>(bytes.size()));
  a.values.append(bytes.data(), bytes.size());
  return a;
}

// The value shredded into the layout inferred from it, rebuilt, as text.
std::string shredded_and_back(std::span<const uint8_t> metadata, std::span<const uint8_t> value) {
  static const parq::Schema kPlain = parq::parse_schema_text(
      "message m { optional group v (VARIANT(1)) { required binary metadata; optional binary value; } }");
  parq::RecordBatch batch;
  batch.num_rows = 1;
  parq::Array v;
  v.kind = parq::ArrayKind::kStruct;
  v.name = "v";
  v.type.logical.VARIANT.emplace();
  v.length = 1;
  v.children.push_back(binary("metadata", metadata));
  v.children.push_back(binary("value", value));
  batch.columns.push_back(std::move(v));
  const parq::Schema layout = parq::variant::with_inferred_shredding(kPlain, batch);
  const parq::Array back =
      parq::variant::unshred(parq::variant::shred(batch.columns[0], layout, layout.root().child(0)));
  const parq::Array& out = back.children[1];
  const int32_t* o = out.offsets_data();
  const auto m = parq::variant::Metadata::parse(metadata);
  std::string json;
  parq::text::append_variant_json(
      json, parq::variant::Value::parse(m, {out.values.data() + o[0], static_cast<size_t>(o[1] - o[0])}));
  return json;
}

}  // namespace

const std::vector<parq::filter::VariantPredicate>& predicates() {
  using parq::filter::CompareOp;
  using parq::filter::Literal;
  using K = parq::filter::VariantPredicate::Kind;
  static const std::vector<parq::filter::VariantPredicate> all = {
      {K::kCompare, CompareOp::kGreater, {Literal::number("30")}, "v"},
      {K::kCompare, CompareOp::kEqual, {Literal::string("abc")}, "v"},
      {K::kCompare, CompareOp::kLess, {Literal::date("2020-01-01")}, "v"},
      {K::kCompare, CompareOp::kGreaterEqual, {Literal::timestamp("2020-01-01 10:00:00+02:00")}, "v"},
      {K::kCompare, CompareOp::kNotEqual, {Literal::time("12:00:00")}, "v"},
      {K::kIn, CompareOp::kEqual, {Literal::number("1.5"), Literal::boolean(true), Literal::binary("x")}, "v"},
      {K::kStartsWith, CompareOp::kEqual, {Literal::string("ab")}, "v"},
      {K::kIsNull, CompareOp::kEqual, {}, "v"},
  };
  return all;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const size_t split = std::min<size_t>(data[0], size - 1);
  const std::span<const uint8_t> metadata(data + 1, split), value(data + 1 + split, size - 1 - split);
  for (const auto& p : predicates()) (void)p.holds(value);
  // The same predicates at paths inside the value, with its metadata: the
  // fields "a" and "a"."b", which may not exist (the metadata's own keys
  // are tried below, once it parses).
  static const std::vector<parq::filter::VariantPredicate> at_paths = [] {
    std::vector<parq::filter::VariantPredicate> out;
    for (const std::vector<std::string>& path : {std::vector<std::string>{"a"}, {"a", "b"}})
      for (auto p : predicates()) {
        p.set_path(path);
        out.push_back(std::move(p));
      }
    return out;
  }();
  for (const auto& p : at_paths) {
    (void)p.holds_at(metadata, &value);
    (void)p.holds_at(metadata, nullptr);
  }
  try {
    const auto m = parq::variant::Metadata::parse(metadata);
    for (size_t i = 0; i < m.size(); ++i) (void)m.key(i);
    for (size_t i = 0; i < std::min<size_t>(m.size(), 2); ++i)
      for (auto p : predicates()) {
        p.set_path({std::string(m.key(i))});
        (void)p.holds_at(metadata, &value);
      }
    const auto v = parq::variant::Value::parse(m, value);
    check(v.encoded_size() <= value.size());
    std::string json;
    parq::text::append_variant_json(json, v);
    check(!json.empty());
    walk(v);
    parq::Buffer again;
    parq::variant::ValueWriter writer(again);
    rewrite(v, writer);
    check(writer.complete());
    std::string json_again;
    parq::text::append_variant_json(json_again, parq::variant::Value::parse(m, again.span()));
    check(json_again == json);
    check(shredded_and_back(metadata.first(m.encoded_size()), value.first(v.encoded_size())) == json);
  } catch (const parq::Error&) {
  }
  return 0;
}
