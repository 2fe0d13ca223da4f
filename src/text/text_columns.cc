// Type inference over TextRows, the schema it gives, and the column
// builders that turn rows into batches; see text_input.h.
#include <cstring>

#include "parq/error.h"
#include "parq/schema/logical_type.h"
#include "parq/text/json_text.h"
#include "parq/text/text_input.h"
#include "parq/text/variant_text.h"
#include "text_scalars.h"

namespace parq::text {
namespace {

using K = TextType::Kind;

// ---- inference ----

struct Scalar {
  K kind = K::kUnknown;
  int unit = 1;
  bool zoned = false;
};

Scalar classify(const TextNode& n) {
  switch (n.kind) {
    case NodeKind::kNull:
      return {};
    case NodeKind::kBool:
      return {K::kBool};
    case NodeKind::kNumber:
      return {parse_int64(n.text) ? K::kInt64 : K::kDouble};
    case NodeKind::kText:
      break;
    default:
      return {K::kString};
  }
  if (!n.quoted) {
    if (parse_int64(n.text)) return {K::kInt64};
    if (parse_double(n.text)) return {K::kDouble};
    if (parse_bool(n.text)) return {K::kBool};
  }
  if (parse_date(n.text)) return {K::kDate};
  if (auto t = parse_timestamp(n.text)) {
    // Nanoseconds only span the years 1677-2262; later ones stay text.
    const int unit = t->fraction_digits > 6 ? 2 : 1;
    int64_t v;
    if (timestamp_in_unit(*t, unit, v)) return {K::kTimestamp, unit, t->zoned};
  }
  return {K::kString};
}

void demote(TextType& t) {
  t.kind = K::kString;
  t.children.clear();
}

void merge_scalar(TextType& t, const Scalar& s) {
  if (s.kind == K::kUnknown) return;
  if (t.kind == K::kUnknown) {
    t.kind = s.kind;
    t.unit = s.unit;
    t.utc = s.zoned;
    return;
  }
  if (t.kind == K::kString) return;
  if (t.kind == K::kStruct || t.kind == K::kList) return demote(t);
  if (t.kind == s.kind) {
    if (t.kind == K::kTimestamp) {
      if (t.utc != s.zoned) return demote(t);  // zoned and local times do not mix
      t.unit = std::max(t.unit, s.unit);
    }
    return;
  }
  auto either = [&](K a, K b) { return (t.kind == a && s.kind == b) || (t.kind == b && s.kind == a); };
  if (either(K::kInt64, K::kDouble)) {
    t.kind = K::kDouble;
  } else if (either(K::kDate, K::kTimestamp)) {
    if (t.kind == K::kDate) {
      t.kind = K::kTimestamp;
      t.unit = s.unit;
      t.utc = s.zoned;
    }
  } else {
    demote(t);
  }
}

TextType& member(TextType& t, std::string_view name) {
  for (auto& c : t.children)
    if (c.name == name) return c;
  TextType c;
  c.name = std::string(name);
  t.children.push_back(std::move(c));
  return t.children.back();
}

void merge(TextType& t, const TextRow& row, size_t at) {
  const TextNode& n = row.nodes[at];
  if (n.kind == NodeKind::kObject) {
    if (t.kind == K::kUnknown) t.kind = K::kStruct;
    if (t.kind != K::kStruct) return demote(t);
    size_t child = at + 1;
    for (uint32_t i = 0; i < n.size; ++i) {
      merge(member(t, row.nodes[child].key), row, child);
      child += row.nodes[child].span + 1;
    }
    return;
  }
  if (n.kind == NodeKind::kArray) {
    if (t.kind == K::kUnknown) {
      t.kind = K::kList;
      t.children.assign(1, TextType{});
      t.children[0].name = "element";
    }
    if (t.kind != K::kList) return demote(t);
    size_t child = at + 1;
    for (uint32_t i = 0; i < n.size; ++i) {
      merge(t.children[0], row, child);
      child += row.nodes[child].span + 1;
    }
    return;
  }
  merge_scalar(t, classify(n));
}

void settle(TextType& t) {
  if (t.kind == K::kUnknown) t.kind = K::kString;
  for (auto& c : t.children) settle(c);
}

// ---- schema ----

Field field_of(const TextType& t) {
  const TimeUnitKind units[] = {TimeUnitKind::kMillis, TimeUnitKind::kMicros, TimeUnitKind::kNanos};
  Field f = Field::string(t.name);
  switch (t.kind) {
    case K::kBool:
      f = Field::boolean(t.name);
      break;
    case K::kInt64:
      f = Field::int64(t.name);
      break;
    case K::kInt32:
      f = Field::int32(t.name);
      break;
    case K::kDouble:
      f = Field::float64(t.name);
      break;
    case K::kFloat:
      f = Field::float32(t.name);
      break;
    case K::kDecimal:
      f = Field::decimal(t.name, t.precision, t.scale);
      break;
    case K::kDate:
      f = Field::date(t.name);
      break;
    case K::kTimestamp:
      f = Field::timestamp(t.name, units[t.unit], t.utc);
      break;
    case K::kBinary:
      f = Field::binary(t.name);
      break;
    case K::kVariant: {
      std::vector<Field> children;
      for (const auto& c : t.children) children.push_back(field_of(c));
      format::LogicalType l;
      l.VARIANT.emplace();
      l.VARIANT->specification_version = 1;
      f = Field::group(t.name, std::move(children));
      f.logical_type(l);
      break;
    }
    case K::kStruct: {
      std::vector<Field> children;
      for (const auto& c : t.children) children.push_back(field_of(c));
      f = Field::group(t.name, std::move(children));
      break;
    }
    case K::kList:
      f = Field::list(t.name, field_of(t.children.at(0)));
      break;
    case K::kMap:
      f = Field::map(t.name, field_of(t.children.at(0)), field_of(t.children.at(1)));
      break;
    default:
      break;
  }
  if (t.required) f.required();
  return f;
}

[[noreturn]] void unsupported(const SchemaNode& n, const std::string& why) {
  throw Error("schema field \"" + n.name() + "\": " + why + " cannot be filled from text", ErrorKind::kInvalidArgument);
}

TextType type_of_node(const SchemaNode& n) {
  TextType t;
  t.name = n.name();
  t.required = n.repetition() == format::FieldRepetitionType::REQUIRED;
  if (n.repetition() == format::FieldRepetitionType::REPEATED) unsupported(n, "a bare repeated field");
  const format::LogicalType& l = n.logical_type();
  if (n.is_group()) {
    if (l.VARIANT) {
      // Built as metadata and value; a typed_value in the schema is filled by
      // the writer, which shreds the values into it.
      const SchemaNode* parts[2] = {nullptr, nullptr};
      for (size_t i = 0; i < n.num_children(); ++i) {
        const SchemaNode& c = n.child(i);
        const bool binary = c.is_leaf() && *c.physical_type() == format::Type::BYTE_ARRAY;
        if (c.name() == "metadata" && binary && c.repetition() == format::FieldRepetitionType::REQUIRED) parts[0] = &c;
        if (c.name() == "value" && binary) parts[1] = &c;
      }
      if (!parts[0] || !parts[1]) unsupported(n, "a VARIANT group without {required binary metadata; binary value}");
      t.kind = K::kVariant;
      for (const SchemaNode* c : parts) {
        TextType part;
        part.kind = K::kBinary;
        part.name = c->name();
        part.required = c->repetition() == format::FieldRepetitionType::REQUIRED;
        t.children.push_back(std::move(part));
      }
      return t;
    }
    if (l.LIST) {
      const SchemaNode& rep = n.child(0);
      if (!rep.is_group() || rep.num_children() != 1) unsupported(n, "a two-level list");
      t.kind = K::kList;
      TextType element = type_of_node(rep.child(0));
      t.children.push_back(std::move(element));
      return t;
    }
    if (l.MAP || n.converted_type() == format::ConvertedType::MAP ||
        n.converted_type() == format::ConvertedType::MAP_KEY_VALUE) {
      const SchemaNode& rep = n.child(0);
      if (n.num_children() != 1 || !rep.is_group() || rep.num_children() == 0 || rep.num_children() > 2)
        unsupported(n, "a map without a key-value group");
      if (rep.num_children() == 1) unsupported(n, "a map without values");
      t.kind = K::kMap;
      t.children.push_back(type_of_node(rep.child(0)));
      t.children.push_back(type_of_node(rep.child(1)));
      return t;
    }
    t.kind = K::kStruct;
    for (size_t i = 0; i < n.num_children(); ++i) t.children.push_back(type_of_node(n.child(i)));
    return t;
  }
  const format::Type p = *n.physical_type();
  if (l.DECIMAL) {
    if (p != format::Type::INT32 && p != format::Type::INT64) unsupported(n, "a decimal stored as bytes");
    t.kind = K::kDecimal;
    t.precision = l.DECIMAL->precision;
    t.scale = l.DECIMAL->scale;
    t.unit = p == format::Type::INT32 ? 0 : 1;  // the storage width, for the builder
    return t;
  }
  switch (p) {
    case format::Type::BOOLEAN:
      t.kind = K::kBool;
      return t;
    case format::Type::INT32:
      t.kind = l.DATE ? K::kDate : K::kInt32;
      return t;
    case format::Type::INT64:
      if (l.TIMESTAMP) {
        t.kind = K::kTimestamp;
        t.unit = l.TIMESTAMP->unit.MILLIS ? 0 : l.TIMESTAMP->unit.MICROS ? 1 : 2;
        t.utc = l.TIMESTAMP->is_adjusted_to_utc;
      } else {
        t.kind = K::kInt64;
      }
      return t;
    case format::Type::FLOAT:
      t.kind = K::kFloat;
      return t;
    case format::Type::DOUBLE:
      t.kind = K::kDouble;
      return t;
    case format::Type::BYTE_ARRAY:
      t.kind = K::kString;
      return t;
    default:
      unsupported(n, std::string("type ") + format::to_string(p));
  }
}

// ---- building ----

void json_of(const TextRow& row, size_t at, std::string& out);

void json_of(const TextRow& row, size_t at, std::string& out) {
  const TextNode& n = row.nodes[at];
  switch (n.kind) {
    case NodeKind::kNull:
      out += "null";
      return;
    case NodeKind::kBool:
      out += n.boolean ? "true" : "false";
      return;
    case NodeKind::kNumber:
      out += n.text;
      return;
    case NodeKind::kText:
      append_json_string(out, n.text);
      return;
    case NodeKind::kArray:
    case NodeKind::kObject: {
      const bool object = n.kind == NodeKind::kObject;
      out += object ? '{' : '[';
      size_t child = at + 1;
      for (uint32_t i = 0; i < n.size; ++i) {
        if (i) out += ',';
        if (object) {
          append_json_string(out, row.nodes[child].key);
          out += ':';
        }
        json_of(row, child, out);
        child += row.nodes[child].span + 1;
      }
      out += object ? '}' : ']';
      return;
    }
  }
}

format::Type storage_of(const TextType& t) {
  switch (t.kind) {
    case K::kBool:
      return format::Type::BOOLEAN;
    case K::kInt32:
    case K::kDate:
      return format::Type::INT32;
    case K::kDecimal:
      return t.unit == 0 ? format::Type::INT32 : format::Type::INT64;
    case K::kInt64:
    case K::kTimestamp:
      return format::Type::INT64;
    case K::kFloat:
      return format::Type::FLOAT;
    case K::kDouble:
      return format::Type::DOUBLE;
    default:
      return format::Type::BYTE_ARRAY;
  }
}

// Unscaled value of decimal text at `scale` ("12.5" at scale 2 is 1250);
// false when it has more fraction digits or does not fit int64.
bool parse_decimal(std::string_view s, int32_t scale, int64_t& out) {
  bool negative = false;
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
  int64_t v = 0;
  int frac = -1;
  bool any = false;
  for (; i < s.size(); ++i) {
    if (s[i] == '.' && frac < 0) {
      frac = 0;
      continue;
    }
    if (s[i] < '0' || s[i] > '9') return false;
    if (frac >= 0 && ++frac > scale) return false;
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s[i] - '0', &v)) return false;
    any = true;
  }
  if (!any) return false;
  for (int k = std::max(frac, 0); k < scale; ++k)
    if (__builtin_mul_overflow(v, 10, &v)) return false;
  out = negative ? -v : v;
  return true;
}

}  // namespace

namespace {

// The member of object node `at` named `name`, or SIZE_MAX. Members usually
// come in the columns' order (always for CSV), so the one at `cursor` is
// tried first; `cursor` then moves past the match.
size_t find_member(const TextRow& row, size_t at, std::string_view name, size_t& cursor) {
  const size_t end = at + 1 + row.nodes[at].span;
  if (cursor < end && row.nodes[cursor].key == name) {
    const size_t found = cursor;
    cursor += row.nodes[cursor].span + 1;
    return found;
  }
  for (size_t m = at + 1; m < end; m += row.nodes[m].span + 1)
    if (row.nodes[m].key == name) {
      cursor = m + row.nodes[m].span + 1;
      return m;
    }
  return SIZE_MAX;
}

}  // namespace

void TypeInference::add(const TextRow& row) { merge(root_, row, 0); }

TextType TypeInference::result() const {
  TextType t = root_;
  for (auto& c : t.children) settle(c);
  return t;
}

Schema schema_of(const TextType& root) {
  std::vector<Field> fields;
  for (const auto& c : root.children) fields.push_back(field_of(c));
  return make_schema(fields);
}

TextType type_of(const Schema& schema) {
  TextType root;
  root.kind = K::kStruct;
  for (size_t i = 0; i < schema.root().num_children(); ++i)
    root.children.push_back(type_of_node(schema.root().child(i)));
  return root;
}

struct BatchBuilder::Column {
  TextType type;
  std::string path;
  format::Type storage;
  int64_t length = 0;
  int64_t nulls = 0;
  Buffer validity;
  Buffer offsets;
  Buffer values;
  std::vector<std::unique_ptr<Column>> children;
  std::string scratch;
  TextRow key_row;                     // append_text's one-node row, reused
  JsonVariantEncoder variant_encoder;  // kVariant

  Column(const TextType& t, const std::string& parent) : type(t), storage(storage_of(t)) {
    path = parent.empty() ? t.name : parent + "." + t.name;
    type.children.clear();
    for (const auto& c : t.children) children.push_back(std::make_unique<Column>(c, path));
    start();
  }

  void start() {
    length = nulls = 0;
    validity.clear();
    offsets.clear();
    values.clear();
    if (type.kind == K::kList || type.kind == K::kMap || storage == format::Type::BYTE_ARRAY)
      offsets.append_value<int32_t>(0);
  }

  void set_valid(bool valid) {
    if ((length & 7) == 0) validity.append_value<uint8_t>(0);
    if (valid) validity.data()[length >> 3] |= static_cast<uint8_t>(1u << (length & 7));
    nulls += !valid;
    ++length;
  }

  [[noreturn]] void bad(const TextNode& n, const char* what) const {
    std::string shown = n.kind == NodeKind::kObject  ? "an object"
                        : n.kind == NodeKind::kArray ? "an array"
                                                     : "'" + std::string(n.text.substr(0, 64)) + "'";
    if (n.kind == NodeKind::kBool) shown = n.boolean ? "true" : "false";
    throw Error("column " + path + ": " + shown + " is not " + what);
  }

  void append_null() {
    if (type.required) throw Error("column " + path + ": a value is missing in a REQUIRED field");
    set_valid(false);
    switch (type.kind) {
      case K::kStruct:
      case K::kVariant:
        for (auto& c : children) c->append_null_slot();
        return;
      case K::kList:
      case K::kMap:
        offsets.append_value(static_cast<int32_t>(children[0]->length));
        return;
      default:
        append_zero();
    }
  }

  // A struct's null slot still needs a slot in every child.
  void append_null_slot() {
    set_valid(false);
    if (type.kind == K::kStruct || type.kind == K::kVariant) {
      for (auto& c : children) c->append_null_slot();
    } else if (type.kind == K::kList || type.kind == K::kMap) {
      offsets.append_value(static_cast<int32_t>(children[0]->length));
    } else {
      append_zero();
    }
  }

  void append_zero() {
    switch (storage) {
      case format::Type::BOOLEAN:
        if ((length - 1) % 8 == 0) values.append_value<uint8_t>(0);
        return;
      case format::Type::BYTE_ARRAY:
        offsets.append_value(static_cast<int32_t>(values.size()));
        return;
      case format::Type::INT32:
      case format::Type::FLOAT:
        values.append_value<int32_t>(0);
        return;
      default:
        values.append_value<int64_t>(0);
    }
  }

  void append(const TextRow& row, size_t at) {
    const TextNode& n = row.nodes[at];
    if (n.kind == NodeKind::kNull) return append_null();
    switch (type.kind) {
      case K::kStruct:
        return append_struct(row, at);
      case K::kVariant:
        return append_variant(row, at);
      case K::kList:
        return append_list(row, at);
      case K::kMap:
        return append_map(row, at);
      default:
        set_valid(true);
        append_scalar(row, at);
    }
  }

  // A map is either what `parq cat` prints, an array of {"key": k, "value":
  // v} objects, or a JSON object {k: v, ...} whose member names are parsed
  // as keys of the key's type.
  void append_map(const TextRow& row, size_t at) {
    const TextNode& n = row.nodes[at];
    if (n.kind != NodeKind::kArray && n.kind != NodeKind::kObject) bad(n, "a map (an object, or an array of entries)");
    set_valid(true);
    Column& keys = *children[0];
    Column& values = *children[1];
    size_t child = at + 1;
    for (uint32_t i = 0; i < n.size; ++i) {
      const TextNode& entry = row.nodes[child];
      if (n.kind == NodeKind::kObject) {
        keys.append_text(entry.key);
        values.append(row, child);
      } else {
        if (entry.kind != NodeKind::kObject) bad(entry, "a map entry ({\"key\": ..., \"value\": ...})");
        size_t cursor = child + 1;
        const size_t key = find_member(row, child, "key", cursor);
        if (key == SIZE_MAX || row.nodes[key].kind == NodeKind::kNull)
          throw Error("column " + path + ": a map entry has no key");
        keys.append(row, key);
        cursor = child + 1;
        const size_t value = find_member(row, child, "value", cursor);
        if (value == SIZE_MAX) {
          values.append_null();
        } else {
          values.append(row, value);
        }
      }
      child += entry.span + 1;
    }
    offsets.append_value(static_cast<int32_t>(keys.length));
  }

  // A value given as bare text (a JSON member name used as a map key).
  void append_text(std::string_view text) {
    key_row.clear();
    TextNode node;
    node.kind = NodeKind::kText;
    node.quoted = true;
    node.text = text;
    key_row.nodes.push_back(node);
    append(key_row, 0);
  }

  void append_struct(const TextRow& row, size_t at) {
    const TextNode& n = row.nodes[at];
    if (n.kind != NodeKind::kObject) bad(n, "an object");
    set_valid(true);
    size_t cursor = at + 1;
    for (auto& c : children) {
      const size_t found = find_member(row, at, c->type.name, cursor);
      if (found == SIZE_MAX) {
        c->append_null();
      } else {
        c->append(row, found);
      }
    }
  }

  // Any JSON value, encoded as a variant (children: metadata, value).
  void append_variant(const TextRow& row, size_t at) {
    set_valid(true);
    const bool metadata_first = children[0]->type.name == "metadata";
    Column& metadata = *children[metadata_first ? 0 : 1];
    Column& value = *children[metadata_first ? 1 : 0];
    variant_encoder.encode(row, at, metadata.values, value.values);
    metadata.end_bytes();
    value.end_bytes();
  }

  // The bytes appended to `values` since the last value are the next value.
  void end_bytes() {
    set_valid(true);
    offsets.append_value(static_cast<int32_t>(values.size()));
    if (values.size() > INT32_MAX) throw Error("column " + path + ": values pass 2 GiB in one batch");
  }

  void append_list(const TextRow& row, size_t at) {
    const TextNode& n = row.nodes[at];
    if (n.kind != NodeKind::kArray) bad(n, "an array");
    set_valid(true);
    size_t child = at + 1;
    for (uint32_t i = 0; i < n.size; ++i) {
      children[0]->append(row, child);
      child += row.nodes[child].span + 1;
    }
    offsets.append_value(static_cast<int32_t>(children[0]->length));
  }

  void append_scalar(const TextRow& row, size_t at) {
    const TextNode& n = row.nodes[at];
    const bool scalar = n.kind == NodeKind::kNumber || n.kind == NodeKind::kText;
    switch (type.kind) {
      case K::kBool: {
        std::optional<bool> b = n.kind == NodeKind::kBool ? std::optional<bool>(n.boolean)
                                : scalar                  ? parse_bool(n.text)
                                                          : std::nullopt;
        if (!b) bad(n, "a boolean");
        if ((length - 1) % 8 == 0) values.append_value<uint8_t>(0);
        if (*b) values.data()[(length - 1) >> 3] |= static_cast<uint8_t>(1u << ((length - 1) & 7));
        return;
      }
      case K::kInt32:
      case K::kInt64: {
        auto v = scalar ? parse_int64(n.text) : std::nullopt;
        if (!v) bad(n, "an integer");
        if (type.kind == K::kInt32) {
          if (*v < INT32_MIN || *v > INT32_MAX) bad(n, "a 32-bit integer");
          values.append_value(static_cast<int32_t>(*v));
        } else {
          values.append_value(*v);
        }
        return;
      }
      case K::kFloat:
      case K::kDouble: {
        auto v = scalar ? parse_double(n.text) : std::nullopt;
        if (!v) bad(n, "a number");
        if (type.kind == K::kFloat) {
          values.append_value(static_cast<float>(*v));
        } else {
          values.append_value(*v);
        }
        return;
      }
      case K::kDecimal: {
        int64_t v = 0;
        if (!scalar || !parse_decimal(n.text, type.scale, v)) bad(n, "a decimal of this scale");
        if (storage == format::Type::INT32) {
          if (v < INT32_MIN || v > INT32_MAX) bad(n, "a decimal of this precision");
          values.append_value(static_cast<int32_t>(v));
        } else {
          values.append_value(v);
        }
        return;
      }
      case K::kDate: {
        auto d = scalar ? parse_date(n.text) : std::nullopt;
        if (!d) bad(n, "a date (YYYY-MM-DD)");
        values.append_value(*d);
        return;
      }
      case K::kTimestamp: {
        int64_t v = 0;
        std::optional<ParsedTimestamp> t;
        if (scalar) {
          t = parse_timestamp(n.text);
          if (!t) {
            if (auto d = parse_date(n.text)) t = ParsedTimestamp{int64_t{*d} * 86400, 0, 0, false};
          }
        }
        if (!t || !timestamp_in_unit(*t, type.unit, v)) bad(n, "a timestamp of this unit");
        values.append_value(v);
        return;
      }
      default: {
        std::string_view text = n.text;
        if (n.kind == NodeKind::kBool) {
          text = n.boolean ? "true" : "false";
        } else if (!scalar) {
          scratch.clear();
          json_of(row, at, scratch);
          text = scratch;
        }
        values.append(text);
        offsets.append_value(static_cast<int32_t>(values.size()));
        if (values.size() > INT32_MAX)
          throw Error("column " + path + ": more than 2 GiB of text in one batch", ErrorKind::kLimit);
      }
    }
  }

  // The annotation the column's schema field carries, so the batch renders
  // as the file will read.
  ValueType value_type() const {
    ValueType v;
    v.physical = storage;
    format::LogicalType& l = v.logical;
    const format::TimeUnit units[] = {
        {format::MilliSeconds{}, {}, {}}, {{}, format::MicroSeconds{}, {}}, {{}, {}, format::NanoSeconds{}}};
    switch (type.kind) {
      case K::kString:
        l.STRING.emplace();
        break;
      case K::kDate:
        l.DATE.emplace();
        break;
      case K::kTimestamp:
        l.TIMESTAMP = format::TimestampType{type.utc, units[type.unit]};
        break;
      case K::kDecimal:
        l.DECIMAL = format::DecimalType{type.scale, type.precision};
        break;
      default:
        break;
    }
    return v;
  }

  Array finish() {
    Array a;
    a.name = type.name;
    a.length = length;
    a.null_count = nulls;
    if (nulls != 0) a.validity = std::move(validity);
    if (type.kind == K::kVariant) {
      a.kind = ArrayKind::kStruct;
      a.type.logical.VARIANT.emplace();
      a.type.logical.VARIANT->specification_version = 1;
      for (auto& c : children) a.children.push_back(c->finish());
    } else if (type.kind == K::kStruct || type.kind == K::kList || type.kind == K::kMap) {
      a.kind = type.kind == K::kStruct ? ArrayKind::kStruct
               : type.kind == K::kList ? ArrayKind::kList
                                       : ArrayKind::kMap;
      if (type.kind != K::kStruct) a.offsets = std::move(offsets);
      for (auto& c : children) a.children.push_back(c->finish());
    } else {
      a.type = value_type();
      a.offsets = std::move(offsets);
      a.values = std::move(values);
    }
    start();
    return a;
  }
};

BatchBuilder::BatchBuilder(const TextType& root) {
  for (const auto& c : root.children) columns_.push_back(std::make_unique<Column>(c, ""));
}

BatchBuilder::~BatchBuilder() = default;

void BatchBuilder::add(const TextRow& row) {
  if (row.nodes.empty() || row.nodes[0].kind != NodeKind::kObject) throw Error("a row is not a JSON object");
  size_t cursor = 1;
  for (auto& c : columns_) {
    const size_t found = find_member(row, 0, c->type.name, cursor);
    if (found == SIZE_MAX) {
      c->append_null();
    } else {
      c->append(row, found);
    }
  }
  ++rows_;
}

int64_t BatchBuilder::num_rows() const { return rows_; }

RecordBatch BatchBuilder::finish() {
  RecordBatch b;
  b.num_rows = rows_;
  for (auto& c : columns_) b.columns.push_back(c->finish());
  rows_ = 0;
  return b;
}

}  // namespace parq::text
