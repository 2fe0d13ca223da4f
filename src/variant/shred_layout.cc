// Choosing a shredded layout from sample values; see variant/shredding.h.
//
// The sample's values are tallied by kind, recursively (objects by field
// name, arrays over all their elements), and a kind gets a typed column
// where most values have it: an object layout when most values are objects
// (with the fields present in at least a tenth of them), an array layout
// when most are arrays, a typed leaf when most are of one primitive type.
// Whatever the layout does not fit stays in `value`, so a poor guess costs
// space, never values.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/schema/field.h"
#include "parq/variant/shredding.h"
#include "parq/variant/variant.h"
#include "shredded_columns.h"

namespace parq::variant {
namespace {

// Deeper and wider layouts than this are left in `value`.
constexpr int kMaxDepth = 8;
constexpr size_t kMaxFields = 256;

// Primitive families a typed column can hold.
enum class Family : uint8_t {
  kBoolean,
  kInteger,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTimestamp,
  kTimestampNtz,
  kTimestampNanos,
  kTimestampNtzNanos,
  kTime,
  kString,
  kBinary,
  kUuid,
  kCount
};

std::optional<Family> family_of(Type t) {
  switch (t) {
    case Type::kBoolean:
      return Family::kBoolean;
    case Type::kInt8:
    case Type::kInt16:
    case Type::kInt32:
    case Type::kInt64:
      return Family::kInteger;
    case Type::kFloat:
      return Family::kFloat;
    case Type::kDouble:
      return Family::kDouble;
    case Type::kDecimal4:
    case Type::kDecimal8:
    case Type::kDecimal16:
      return Family::kDecimal;
    case Type::kDate:
      return Family::kDate;
    case Type::kTimestampMicros:
      return Family::kTimestamp;
    case Type::kTimestampNtzMicros:
      return Family::kTimestampNtz;
    case Type::kTimestampNanos:
      return Family::kTimestampNanos;
    case Type::kTimestampNtzNanos:
      return Family::kTimestampNtzNanos;
    case Type::kTimeNtzMicros:
      return Family::kTime;
    case Type::kString:
      return Family::kString;
    case Type::kBinary:
      return Family::kBinary;
    case Type::kUuid:
      return Family::kUuid;
    default:
      return std::nullopt;
  }
}

struct Tally {
  int64_t values = 0;  // not counting variant nulls
  int64_t objects = 0, arrays = 0;
  int64_t families[static_cast<size_t>(Family::kCount)] = {};
  // Decimals: one scale for all, and the most digits seen.
  int scale = -1;
  bool mixed_scales = false;
  int digits = 1;
  std::map<std::string, std::unique_ptr<Tally>, std::less<>> fields;
  std::unique_ptr<Tally> elements;

  void add(const Value& v, int depth) {
    if (v.type() == Type::kNull) return;
    ++values;
    if (v.type() == Type::kObject) {
      ++objects;
      if (depth >= kMaxDepth) return;
      for (size_t i = 0; i < v.size(); ++i) {
        auto it = fields.find(v.field_name(i));
        if (it == fields.end()) {
          if (fields.size() >= kMaxFields) continue;
          it = fields.emplace(std::string(v.field_name(i)), std::make_unique<Tally>()).first;
        }
        it->second->add(v.field_value(i), depth + 1);
      }
      return;
    }
    if (v.type() == Type::kArray) {
      ++arrays;
      if (depth >= kMaxDepth) return;
      if (!elements) elements = std::make_unique<Tally>();
      for (size_t i = 0; i < v.size(); ++i) elements->add(v.element(i), depth + 1);
      return;
    }
    const auto f = family_of(v.type());
    if (!f) return;
    ++families[static_cast<size_t>(*f)];
    if (*f == Family::kDecimal) {
      const Decimal d = v.decimal();
      if (scale >= 0 && scale != d.scale) mixed_scales = true;
      scale = d.scale;
      __int128 u;
      std::memcpy(&u, d.unscaled.data(), 16);
      if (u < 0) u = -u;
      int n = 1;
      for (__int128 x = u; x >= 10; x /= 10) ++n;
      digits = std::max(digits, n);
    }
  }
};

std::optional<Field> typed_leaf(const Tally& t) {
  size_t best = 0;
  for (size_t f = 1; f < static_cast<size_t>(Family::kCount); ++f)
    if (t.families[f] > t.families[best]) best = f;
  if (t.families[best] * 2 <= t.values) return std::nullopt;
  const std::string name = "typed_value";
  switch (static_cast<Family>(best)) {
    case Family::kBoolean:
      return Field::boolean(name);
    case Family::kInteger:
      return Field::int64(name);
    case Family::kFloat:
      return Field::float32(name);
    case Family::kDouble:
      return Field::float64(name);
    case Family::kDecimal:
      if (t.mixed_scales) return std::nullopt;
      // Room for the digits seen and more: the column's width, not the sample's.
      return t.digits <= 18 && t.scale <= 18 ? Field::decimal(name, 18, t.scale) : Field::decimal(name, 38, t.scale);
    case Family::kDate:
      return Field::date(name);
    case Family::kTimestamp:
      return Field::timestamp(name, TimeUnitKind::kMicros, true);
    case Family::kTimestampNtz:
      return Field::timestamp(name, TimeUnitKind::kMicros, false);
    case Family::kTimestampNanos:
      return Field::timestamp(name, TimeUnitKind::kNanos, true);
    case Family::kTimestampNtzNanos:
      return Field::timestamp(name, TimeUnitKind::kNanos, false);
    case Family::kTime:
      return Field::time(name, TimeUnitKind::kMicros, false);
    case Family::kString:
      return Field::string(name);
    case Family::kBinary:
      return Field::binary(name);
    case Family::kUuid:
      return Field::uuid(name);
    case Family::kCount:
      break;
  }
  return std::nullopt;
}

std::optional<Field> typed_value(const Tally& t);

// A value/typed_value pair named `name` (a field, a list element).
Field pair(const std::string& name, const Tally& t) {
  std::vector<Field> parts = {Field::binary("value")};
  if (auto typed = typed_value(t)) parts.push_back(std::move(*typed));
  Field f = Field::group(name, std::move(parts));
  f.required();
  return f;
}

std::optional<Field> typed_value(const Tally& t) {
  if (t.values == 0) return std::nullopt;
  if (t.objects * 2 > t.values) {
    std::vector<Field> fields;
    for (const auto& [name, sub] : t.fields)
      if (sub->values * 10 >= t.objects) fields.push_back(pair(name, *sub));
    if (fields.empty()) return std::nullopt;
    return Field::group("typed_value", std::move(fields));
  }
  if (t.arrays * 2 > t.values) {
    static const Tally kNone;
    return Field::list("typed_value", pair("element", t.elements ? *t.elements : kNone));
  }
  return typed_leaf(t);
}

}  // namespace

std::optional<Field> infer_shredding(const Array& group) {
  const Array* metadata = nullptr;
  const Array* value = nullptr;
  for (const Array& c : group.children) {
    if (c.name == "metadata") metadata = &c;
    if (c.name == "value") value = &c;
  }
  if (!metadata || !value || metadata->kind != ArrayKind::kLeaf || value->kind != ArrayKind::kLeaf ||
      metadata->type.physical != format::Type::BYTE_ARRAY || value->type.physical != format::Type::BYTE_ARRAY)
    throw Error("variant " + group.name + ": only a struct of binary metadata and value can be sampled",
                ErrorKind::kInvalidArgument);
  check_array(group, group.length, group.name);
  check_array(*metadata, group.length, group.name + ".metadata");
  check_array(*value, group.length, group.name + ".value");
  Tally tally;
  for (int64_t i = 0; i < group.length; ++i) {
    if (!group.is_valid(i) || !value->is_valid(i)) continue;
    const Metadata m = Metadata::parse(bytes_at(*metadata, i));
    tally.add(Value::parse(m, bytes_at(*value, i)), 0);
  }
  return typed_value(tally);
}

Schema with_inferred_shredding(const Schema& schema, const RecordBatch& sample) {
  const SchemaNode& root = schema.root();
  if (sample.columns.size() != root.num_children()) return schema;
  std::vector<format::SchemaElement> elements = {schema.elements()[0]};
  for (size_t i = 0; i < root.num_children(); ++i) {
    const SchemaNode& field = root.child(i);
    const std::vector<format::SchemaElement> own = schema.field_elements(i);
    const bool unshredded_variant = field.is_group() && field.logical_type().VARIANT &&
                                    std::none_of(field.children().begin(), field.children().end(),
                                                 [](const SchemaNode* c) { return c->name() == "typed_value"; });
    std::optional<Field> typed;
    if (unshredded_variant && is_variant(sample.columns[i])) typed = infer_shredding(sample.columns[i]);
    const size_t top = elements.size();
    elements.insert(elements.end(), own.begin(), own.end());
    if (typed) {
      elements[top].num_children = static_cast<int32_t>(field.num_children() + 1);
      typed->optional();
      typed->append_elements(elements);
    }
  }
  return Schema::from_elements(elements);
}

}  // namespace parq::variant
