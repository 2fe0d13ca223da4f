// Arrow schema -> Fields and the import plan: the type mapping of c_import.h.
#include <cctype>
#include <charconv>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "c_import_plan.h"
#include "parq/arrow/c_import.h"
#include "parq/error.h"

namespace parq::arrow_import {
namespace {

using format::Type;

[[noreturn]] void fail(const std::string& path, std::string_view format, const std::string& what,
                       ErrorKind kind = ErrorKind::kInvalidArgument) {
  throw Error("Arrow import: field '" + path + "' (format '" + std::string(format) + "'): " + what, kind);
}

// What parq reads from a field's metadata: the extension type, and the
// field id Arrow's Parquet writers keep under "PARQUET:field_id".
struct Metadata {
  std::string extension;
  std::optional<std::string> field_id;
};

int32_t read_int32(const char*& p) {
  int32_t v;
  std::memcpy(&v, p, sizeof v);
  p += sizeof v;
  return v;
}

// The C Data Interface's encoding: int32 count, then per pair an int32
// length and the bytes of the key, the same for the value. The producer
// gives no total size, so only negative lengths can be caught.
Metadata read_metadata(const char* metadata, const std::string& path, std::string_view format) {
  Metadata m;
  if (metadata == nullptr) return m;
  const char* p = metadata;
  int32_t pairs = read_int32(p);
  for (int32_t i = 0; i < pairs; ++i) {
    int32_t key_size = read_int32(p);
    if (key_size < 0) fail(path, format, "negative metadata key length");
    std::string_view key(p, static_cast<size_t>(key_size));
    p += key_size;
    int32_t value_size = read_int32(p);
    if (value_size < 0) fail(path, format, "negative metadata value length");
    std::string_view value(p, static_cast<size_t>(value_size));
    p += value_size;
    if (key == "ARROW:extension:name") m.extension = value;
    if (key == "PARQUET:field_id") m.field_id = std::string(value);
  }
  return m;
}

// A whole-string decimal integer, or nullopt.
std::optional<int32_t> parse_int(std::string_view s) {
  int32_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

int32_t parse_int_or_fail(std::string_view s, const std::string& path, std::string_view format) {
  auto v = parse_int(s);
  if (!v) fail(path, format, "malformed number '" + std::string(s) + "'");
  return *v;
}

struct Planned {
  ImportNode node;
  Field field;
};

Planned leaf(ImportNode node, Layout layout, int32_t width, Field field) {
  node.layout = layout;
  node.width = width;
  return {std::move(node), std::move(field)};
}

// "d:P,S" or "d:P,S,BITS"
Planned decimal_leaf(ImportNode node, std::string_view f) {
  std::string_view rest = f.substr(2);
  size_t comma = rest.find(',');
  if (comma == std::string_view::npos) fail(node.path, node.format, "malformed decimal");
  int32_t precision = parse_int_or_fail(rest.substr(0, comma), node.path, node.format);
  rest = rest.substr(comma + 1);
  int32_t bits = 128;
  comma = rest.find(',');
  if (comma != std::string_view::npos) {
    bits = parse_int_or_fail(rest.substr(comma + 1), node.path, node.format);
    rest = rest.substr(0, comma);
  }
  int32_t scale = parse_int_or_fail(rest, node.path, node.format);
  if (bits != 32 && bits != 64 && bits != 128 && bits != 256) fail(node.path, node.format, "unknown decimal width");
  // Parquet has no negative scales; the schema check would name the field
  // too, but only as a bad DECIMAL.
  if (scale < 0)
    fail(node.path, node.format, "negative decimal scale has no Parquet equivalent", ErrorKind::kUnsupported);
  std::string name = node.name;
  return leaf(std::move(node), Layout::kDecimal, bits / 8, Field::decimal(std::move(name), precision, scale));
}

// "tss:TZ" and friends: a non-empty time zone means instants (UTC-adjusted),
// an empty one local date-times, as LogicalTypes.md and Arrow both define.
Planned timestamp_leaf(ImportNode node, std::string_view f) {
  if (f.size() < 4 || f[3] != ':') fail(node.path, node.format, "malformed timestamp");
  bool utc = f.size() > 4;
  std::string name = node.name;
  switch (f[2]) {
    case 's':
      return leaf(std::move(node), Layout::kSecondsToMillis64, 8,
                  Field::timestamp(std::move(name), TimeUnitKind::kMillis, utc));
    case 'm':
      return leaf(std::move(node), Layout::kFixed, 8, Field::timestamp(std::move(name), TimeUnitKind::kMillis, utc));
    case 'u':
      return leaf(std::move(node), Layout::kFixed, 8, Field::timestamp(std::move(name), TimeUnitKind::kMicros, utc));
    case 'n':
      return leaf(std::move(node), Layout::kFixed, 8, Field::timestamp(std::move(name), TimeUnitKind::kNanos, utc));
  }
  fail(node.path, node.format, "unknown timestamp unit");
}

Planned fixed_binary_leaf(ImportNode node, std::string_view f, const Metadata& meta) {
  int32_t width = parse_int_or_fail(f.substr(2), node.path, node.format);
  std::string name = node.name;
  Field field = meta.extension == "arrow.uuid" && width == 16 ? Field::uuid(std::move(name))
                                                              : Field::fixed(std::move(name), width);
  return leaf(std::move(node), Layout::kFixed, width, std::move(field));
}

Planned string_leaf(ImportNode node, Layout layout, const Metadata& meta) {
  std::string name = node.name;
  Field field = meta.extension == "arrow.json" ? Field::json(std::move(name)) : Field::string(std::move(name));
  return leaf(std::move(node), layout, 0, std::move(field));
}

Planned null_leaf(ImportNode node) {
  Field field = Field::int32(node.name);
  format::LogicalType unknown;
  unknown.UNKNOWN.emplace();
  field.logical_type(unknown);
  return leaf(std::move(node), Layout::kNull, 4, std::move(field));
}

// Formats of one character, then the parameterised ones.
std::optional<Planned> simple_leaf(ImportNode& node, std::string_view f, const Metadata& meta) {
  // A copy: `node` is moved from while the Field is built.
  const std::string n = node.name;
  if (f == "n") return null_leaf(std::move(node));
  if (f == "b") return leaf(std::move(node), Layout::kBoolean, 0, Field::boolean(n));
  if (f == "c") return leaf(std::move(node), Layout::kSignExtend, 1, Field::integer(n, 8, true));
  if (f == "C") return leaf(std::move(node), Layout::kZeroExtend, 1, Field::integer(n, 8, false));
  if (f == "s") return leaf(std::move(node), Layout::kSignExtend, 2, Field::integer(n, 16, true));
  if (f == "S") return leaf(std::move(node), Layout::kZeroExtend, 2, Field::integer(n, 16, false));
  if (f == "i") return leaf(std::move(node), Layout::kFixed, 4, Field::int32(n));
  if (f == "I") return leaf(std::move(node), Layout::kFixed, 4, Field::integer(n, 32, false));
  if (f == "l") return leaf(std::move(node), Layout::kFixed, 8, Field::int64(n));
  if (f == "L") return leaf(std::move(node), Layout::kFixed, 8, Field::integer(n, 64, false));
  if (f == "e") return leaf(std::move(node), Layout::kFixed, 2, Field::float16(n));
  if (f == "f") return leaf(std::move(node), Layout::kFixed, 4, Field::float32(n));
  if (f == "g") return leaf(std::move(node), Layout::kFixed, 8, Field::float64(n));
  if (f == "u") return string_leaf(std::move(node), Layout::kBinary, meta);
  if (f == "U") return string_leaf(std::move(node), Layout::kLargeBinary, meta);
  if (f == "vu") return string_leaf(std::move(node), Layout::kBinaryView, meta);
  if (f == "z") return leaf(std::move(node), Layout::kBinary, 0, Field::binary(n));
  if (f == "Z") return leaf(std::move(node), Layout::kLargeBinary, 0, Field::binary(n));
  if (f == "vz") return leaf(std::move(node), Layout::kBinaryView, 0, Field::binary(n));
  if (f == "tdD") return leaf(std::move(node), Layout::kFixed, 4, Field::date(n));
  if (f == "tdm") return leaf(std::move(node), Layout::kMillisToDays, 8, Field::date(n));
  if (f == "tts") return leaf(std::move(node), Layout::kSecondsToMillis32, 4, Field::time(n, TimeUnitKind::kMillis));
  if (f == "ttm") return leaf(std::move(node), Layout::kFixed, 4, Field::time(n, TimeUnitKind::kMillis));
  if (f == "ttu") return leaf(std::move(node), Layout::kFixed, 8, Field::time(n, TimeUnitKind::kMicros));
  if (f == "ttn") return leaf(std::move(node), Layout::kFixed, 8, Field::time(n, TimeUnitKind::kNanos));
  if (f == "tin") return leaf(std::move(node), Layout::kMonthDayNano, 16, Field::interval(n));
  if (f == "tiM") return leaf(std::move(node), Layout::kYearMonth, 4, Field::interval(n));
  if (f == "tiD") return leaf(std::move(node), Layout::kDayTime, 8, Field::interval(n));
  return std::nullopt;
}

// `node` is moved from only when the format is known.
std::optional<Planned> plan_leaf(ImportNode& node, std::string_view f, const Metadata& meta) {
  if (auto simple = simple_leaf(node, f, meta)) return simple;
  if (f.starts_with("w:")) return fixed_binary_leaf(std::move(node), f, meta);
  if (f.starts_with("d:")) return decimal_leaf(std::move(node), f);
  if (f.starts_with("ts")) return timestamp_leaf(std::move(node), f);
  return std::nullopt;
}

// Bytes per dictionary index, 0 for a format that is not an integer.
int32_t index_width(std::string_view f) {
  if (f.size() != 1) return 0;
  switch (f[0]) {
    case 'c':
    case 'C':
      return 1;
    case 's':
    case 'S':
      return 2;
    case 'i':
    case 'I':
      return 4;
    case 'l':
    case 'L':
      return 8;
  }
  return 0;
}

format::FieldRepetitionType repetition_of(const ArrowSchema* s) {
  return (s->flags & ARROW_FLAG_NULLABLE) != 0 ? format::FieldRepetitionType::OPTIONAL
                                               : format::FieldRepetitionType::REQUIRED;
}

class Planner {
 public:
  // `name` replaces the Arrow name where Parquet fixes it (list elements,
  // map keys and values).
  Planned plan(const ArrowSchema* s, const std::string& parent, const std::string* name, int depth) {
    if (s == nullptr || s->release == nullptr)
      throw Error("Arrow import: a schema below '" + parent + "' is missing", ErrorKind::kInvalidArgument);
    if (s->format == nullptr)
      throw Error("Arrow import: a schema below '" + parent + "' has no format", ErrorKind::kInvalidArgument);
    std::string arrow_name = s->name != nullptr ? s->name : "";
    ImportNode node;
    node.name = name != nullptr ? *name : arrow_name;
    node.path = parent.empty() ? arrow_name : parent + "." + arrow_name;
    node.format = s->format;
    if (depth > kMaxSchemaDepth) fail(node.path, node.format, "nested too deeply");
    Metadata meta = read_metadata(s->metadata, node.path, node.format);
    Planned p = s->dictionary != nullptr ? plan_dictionary(std::move(node), s, meta)
                                         : plan_node(std::move(node), s, meta, depth);
    if (p.node.layout == Layout::kNull) {
      p.field.optional();  // every slot is null
    } else {
      p.field.repetition(repetition_of(s));
    }
    if (meta.field_id) p.field.field_id(parse_int_or_fail(*meta.field_id, p.node.path, p.node.format));
    return p;
  }

 private:
  Planned plan_node(ImportNode node, const ArrowSchema* s, const Metadata& meta, int depth) {
    const std::string f = node.format;  // a copy: `node` is moved from below
    if (!f.starts_with('+')) {
      if (s->n_children != 0) fail(node.path, f, "a primitive type with children");
      if (auto p = plan_leaf(node, f, meta)) return std::move(*p);
      fail(node.path, f, "unsupported Arrow type (no Parquet equivalent)", ErrorKind::kUnsupported);
    }
    if (f == "+s") {
      Planned p = plan_struct(std::move(node), s, depth);
      if (meta.extension == "arrow.parquet.variant") mark_variant(p);
      return p;
    }
    if (f == "+l") return plan_list(std::move(node), s, Layout::kList, 0, depth);
    if (f == "+L") return plan_list(std::move(node), s, Layout::kLargeList, 0, depth);
    if (f.starts_with("+w:")) {
      int32_t size = parse_int_or_fail(f.substr(3), node.path, f);
      if (size < 0) fail(node.path, f, "negative list size");
      return plan_list(std::move(node), s, Layout::kFixedSizeList, size, depth);
    }
    if (f == "+m") return plan_map(std::move(node), s, depth);
    fail(node.path, f, "unsupported Arrow type (no Parquet equivalent)", ErrorKind::kUnsupported);
  }

  // The values' type stands for the column; the indices are expanded on import.
  Planned plan_dictionary(ImportNode node, const ArrowSchema* s, const Metadata& meta) {
    int32_t width = index_width(node.format);
    if (width == 0) fail(node.path, node.format, "dictionary indices must be integers");
    const ArrowSchema* d = s->dictionary;
    if (d->release == nullptr || d->format == nullptr) fail(node.path, node.format, "released dictionary schema");
    if (d->dictionary != nullptr || d->n_children != 0)
      fail(node.path, d->format, "dictionaries of nested or dictionary values are not supported",
           ErrorKind::kUnsupported);
    std::string index_format = std::move(node.format);
    node.format = d->format;
    // An extension on a dictionary-encoded field is declared on the field.
    auto p = plan_leaf(node, d->format, meta);
    if (!p) fail(node.path, d->format, "unsupported Arrow type (no Parquet equivalent)", ErrorKind::kUnsupported);
    p->node.index_width = width;
    p->node.index_signed = std::islower(static_cast<unsigned char>(index_format[0])) != 0;
    return std::move(*p);
  }

  std::vector<Planned> plan_children(const ImportNode& node, const ArrowSchema* s, int depth,
                                     const std::vector<const std::string*>& names) {
    if (s->n_children < 0 || (s->n_children > 0 && s->children == nullptr))
      fail(node.path, node.format, "children missing");
    std::vector<Planned> out;
    for (int64_t i = 0; i < s->n_children; ++i)
      out.push_back(plan(s->children[i], node.path, names.empty() ? nullptr : names[i], depth + 1));
    return out;
  }

  // arrow.parquet.variant: a struct of binary `metadata` and `value`, written
  // as an unshredded VARIANT group.
  static void mark_variant(Planned& p) {
    const ImportNode& n = p.node;
    const bool parts = n.children.size() == 2 && n.children[0].name == "metadata" && n.children[1].name == "value" &&
                       (n.children[0].format == "z" || n.children[0].format == "Z") &&
                       (n.children[1].format == "z" || n.children[1].format == "Z");
    if (!parts)
      fail(n.path, n.format, "an arrow.parquet.variant must be a struct of binary metadata and value",
           ErrorKind::kInvalidArgument);
    // The spec makes metadata required; Arrow marks struct children nullable
    // by habit, and a null one is refused when the data is imported.
    std::vector<Field> fields = p.field.children();
    fields[0].required();
    p.field = Field::group(n.name, std::move(fields));
    format::LogicalType l;
    l.VARIANT.emplace();
    l.VARIANT->specification_version = 1;
    p.field.logical_type(l);
  }

  Planned plan_struct(ImportNode node, const ArrowSchema* s, int depth) {
    if (s->n_children == 0)
      fail(node.path, node.format, "a struct without fields has no Parquet equivalent", ErrorKind::kUnsupported);
    std::vector<Field> fields;
    for (Planned& c : plan_children(node, s, depth, {})) {
      node.children.push_back(std::move(c.node));
      fields.push_back(std::move(c.field));
    }
    node.layout = Layout::kStruct;
    std::string name = node.name;
    return {std::move(node), Field::group(std::move(name), std::move(fields))};
  }

  // LogicalTypes.md names the element "element"; Arrow's default is "item".
  Planned plan_list(ImportNode node, const ArrowSchema* s, Layout layout, int32_t size, int depth) {
    if (s->n_children != 1) fail(node.path, node.format, "a list needs exactly one child");
    static const std::string kElement = "element";
    Planned element = std::move(plan_children(node, s, depth, {&kElement})[0]);
    node.layout = layout;
    node.width = size;
    node.children.push_back(std::move(element.node));
    std::string name = node.name;
    return {std::move(node), Field::list(std::move(name), std::move(element.field))};
  }

  Planned plan_map(ImportNode node, const ArrowSchema* s, int depth) {
    if (s->n_children != 1 || s->children == nullptr) fail(node.path, node.format, "a map needs one entries child");
    const ArrowSchema* entries = s->children[0];
    if (entries == nullptr || entries->release == nullptr || entries->format == nullptr ||
        std::string_view(entries->format) != "+s" || entries->n_children != 2)
      fail(node.path, node.format, "a map's entries must be a struct of key and value");
    static const std::string kKey = "key", kValue = "value";
    ImportNode entries_node;
    entries_node.path = node.path + "." + (entries->name ? entries->name : "");
    entries_node.format = "+s";
    std::vector<Planned> kv = plan_children(entries_node, entries, depth + 1, {&kKey, &kValue});
    node.layout = Layout::kMap;
    std::string name = node.name;
    node.children.push_back(std::move(kv[0].node));
    if (kv[1].node.layout == Layout::kNull && kv[1].node.index_width == 0) {
      node.drop_map_values = true;
      return {std::move(node), keys_only_map(std::move(name), std::move(kv[0].field))};
    }
    node.children.push_back(std::move(kv[1].node));
    return {std::move(node), Field::map(std::move(name), std::move(kv[0].field), std::move(kv[1].field))};
  }

  // The three-level MAP without a value field, which LogicalTypes.md allows.
  static Field keys_only_map(std::string name, Field key) {
    key.required();
    Field key_value = Field::group("key_value", {std::move(key)});
    key_value.repeated();
    Field map = Field::group(std::move(name), {std::move(key_value)});
    format::LogicalType t;
    t.MAP.emplace();
    map.logical_type(t);
    return map;
  }
};

void assign_leaf_types(std::vector<ImportNode>& nodes, const Schema& schema, size_t& next) {
  for (ImportNode& n : nodes) {
    if (n.is_leaf()) {
      n.type = schema.column(next++).type;
    } else {
      assign_leaf_types(n.children, schema, next);
    }
  }
}

}  // namespace

ImportPlan plan_import(const ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr)
    throw Error("Arrow import: the schema is missing or released", ErrorKind::kInvalidArgument);
  std::string_view format = schema->format != nullptr ? schema->format : "";
  if (format != "+s")
    throw Error("Arrow import: a record batch schema must be a struct ('+s'), not '" + std::string(format) + "'",
                ErrorKind::kInvalidArgument);
  if (schema->n_children < 0 || (schema->n_children > 0 && schema->children == nullptr))
    throw Error("Arrow import: the schema's children are missing", ErrorKind::kInvalidArgument);
  ImportPlan plan;
  Planner planner;
  for (int64_t i = 0; i < schema->n_children; ++i) {
    Planned p = planner.plan(schema->children[i], "", nullptr, 1);
    plan.columns.push_back(std::move(p.node));
    plan.fields.push_back(std::move(p.field));
  }
  plan.schema = make_schema(plan.fields);
  size_t next = 0;
  assign_leaf_types(plan.columns, plan.schema, next);
  if (next != plan.schema.num_columns()) throw Error("Arrow import: internal error: leaves and columns disagree");
  return plan;
}

}  // namespace parq::arrow_import

namespace parq {

std::vector<Field> import_fields(const ArrowSchema* schema) { return arrow_import::plan_import(schema).fields; }

Schema import_schema(const ArrowSchema* schema) { return arrow_import::plan_import(schema).schema; }

}  // namespace parq
