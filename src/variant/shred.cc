// Shredding VARIANT values into a declared layout; see variant/shredding.h.
//
// The target layout is read once into a tree of builders, one per schema
// node under the VARIANT group, each holding the arrays it fills; each row's
// value is then walked once against that tree. A value goes to a typed
// column when it has that column's type (integers of any width when they fit
// the column's, decimals of the column's scale that fit its precision);
// otherwise it stays in `value`. Objects put their shredded fields in the
// field groups and the rest, if any, in `value` as a smaller object.
#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/variant/shredding.h"
#include "parq/variant/variant.h"
#include "parq/variant/variant_writer.h"
#include "shredded_columns.h"

namespace parq::variant {
namespace {

using format::Type;

// One array being filled, shaped like its schema node.
struct Builder {
  const SchemaNode* node = nullptr;
  ArrayKind kind = ArrayKind::kLeaf;
  ValueType type;  // leaves
  int64_t length = 0, nulls = 0;
  Buffer validity, offsets, values;
  std::vector<std::unique_ptr<Builder>> children;

  Builder(const Schema& schema, const SchemaNode& n, ArrayKind k) : node(&n), kind(k) {
    if (n.is_leaf()) type = schema.column(static_cast<size_t>(n.column_index())).type;
    if (kind == ArrayKind::kList || (kind == ArrayKind::kLeaf && type.physical == Type::BYTE_ARRAY))
      offsets.append_value<int32_t>(0);
  }

  void mark(bool valid) {
    if ((length & 7) == 0) validity.append_value<uint8_t>(0);
    if (valid) validity.data()[length >> 3] |= static_cast<uint8_t>(1u << (length & 7));
    nulls += !valid;
    ++length;
  }

  // A slot with no value (children too, for a struct).
  void null_slot() {
    mark(false);
    switch (kind) {
      case ArrayKind::kStruct:
        for (auto& c : children) c->null_slot();
        return;
      case ArrayKind::kList: {
        const int32_t end = offsets.data_as<int32_t>()[length - 1];  // a copy: appending may move the buffer
        offsets.append_value(end);
        return;
      }
      default:
        zero();
    }
  }

  void zero() {
    switch (type.physical) {
      case Type::BOOLEAN:
        if (((length - 1) & 7) == 0) values.append_value<uint8_t>(0);
        return;
      case Type::BYTE_ARRAY:
        offsets.append_value(static_cast<int32_t>(values.size()));
        return;
      default:
        std::memset(values.extend(static_cast<size_t>(plain_width(type.physical, type.type_length))), 0,
                    static_cast<size_t>(plain_width(type.physical, type.type_length)));
    }
  }

  void bytes(std::span<const uint8_t> b) {
    mark(true);
    values.append(b.data(), b.size());
    if (values.size() > static_cast<size_t>(INT32_MAX))
      throw Error("variant: one batch's shredded values pass 2 GiB; write smaller batches", ErrorKind::kLimit);
    offsets.append_value(static_cast<int32_t>(values.size()));
  }

  template <class T>
  void fixed(T v) {
    mark(true);
    values.append_value(v);
  }

  void boolean(bool v) {
    mark(true);
    if (((length - 1) & 7) == 0) values.append_value<uint8_t>(0);
    if (v) values.data()[(length - 1) >> 3] |= static_cast<uint8_t>(1u << ((length - 1) & 7));
  }

  Array finish(const std::string& name) {
    Array a;
    a.kind = kind;
    a.name = name;
    a.type = type;
    a.length = length;
    a.null_count = nulls;
    if (nulls != 0) a.validity = std::move(validity);
    a.offsets = std::move(offsets);
    a.values = std::move(values);
    if (kind == ArrayKind::kStruct && node->logical_type().VARIANT) a.type.logical = node->logical_type();
    for (auto& c : children) a.children.push_back(c->finish(c->node->name()));
    return a;
  }
};

[[noreturn]] void unsupported(const SchemaNode& n, const std::string& what) {
  throw Error("variant " + n.name() + ": " + what, ErrorKind::kUnsupported);
}

// A `value`/`typed_value` pair of the target, with its builders.
struct Target {
  Builder* group = nullptr;  // the pair's struct (a field group, a list element), or the VARIANT group
  Builder* value = nullptr;
  Builder* typed = nullptr;
  enum class Kind : uint8_t { kNone, kLeaf, kObject, kArray } kind = Kind::kNone;
  ShreddedPrimitive primitive;                                          // kLeaf: what the typed column holds
  std::vector<std::pair<std::string, std::unique_ptr<Target>>> fields;  // objects, sorted by name
  std::unique_ptr<Target> element;                                      // arrays
};

std::unique_ptr<Builder> build_node(const Schema& schema, const SchemaNode& n);

std::unique_ptr<Builder> build_struct(const Schema& schema, const SchemaNode& n) {
  auto b = std::make_unique<Builder>(schema, n, ArrayKind::kStruct);
  for (const SchemaNode* c : n.children()) b->children.push_back(build_node(schema, *c));
  return b;
}

std::unique_ptr<Builder> build_node(const Schema& schema, const SchemaNode& n) {
  if (n.is_leaf()) return std::make_unique<Builder>(schema, n, ArrayKind::kLeaf);
  if (n.logical_type().LIST) {
    if (n.num_children() != 1 || n.child(0).num_children() != 1 || n.child(0).is_leaf())
      unsupported(n, "a shredded array must be a three-level LIST");
    auto b = std::make_unique<Builder>(schema, n, ArrayKind::kList);
    b->children.push_back(build_node(schema, n.child(0).child(0)));
    return b;
  }
  return build_struct(schema, n);
}

Builder* child_builder(Builder& b, std::string_view name) {
  for (auto& c : b.children)
    if (c->node->name() == name) return c.get();
  return nullptr;
}

std::unique_ptr<Target> make_target(Builder& group) {
  auto t = std::make_unique<Target>();
  t->group = &group;
  t->value = child_builder(group, "value");
  t->typed = child_builder(group, "typed_value");
  if (t->value && (t->value->kind != ArrayKind::kLeaf || t->value->type.physical != Type::BYTE_ARRAY))
    unsupported(*group.node, "its value column must be binary");
  if (!t->typed) return t;
  switch (t->typed->kind) {
    case ArrayKind::kLeaf: {
      // The reader's table: a layout parq writes, parq (and the spec) reads.
      const auto primitive = shredded_primitive(t->typed->type);
      if (!primitive) unsupported(*t->typed->node, "unsupported shredded value type: " + type_text(t->typed->type));
      t->kind = Target::Kind::kLeaf;
      t->primitive = *primitive;
      break;
    }
    case ArrayKind::kList:
      t->kind = Target::Kind::kArray;
      t->element = make_target(*t->typed->children[0]);
      break;
    case ArrayKind::kStruct:
      t->kind = Target::Kind::kObject;
      for (auto& f : t->typed->children) {
        if (f->kind != ArrayKind::kStruct) unsupported(*f->node, "a shredded field must be a group");
        t->fields.emplace_back(f->node->name(), make_target(*f));
      }
      std::sort(t->fields.begin(), t->fields.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      break;
    default:
      unsupported(*t->typed->node, "a MAP cannot hold shredded values");
  }
  return t;
}

bool fits(int64_t v, int bits) {
  if (bits >= 64) return true;
  const int64_t limit = int64_t{1} << (bits - 1);
  return v >= -limit && v < limit;
}

class ShredWriter {
  using Type_ = variant::Type;

 public:
  explicit ShredWriter(Target& root) : root_(root) {}

  void row(const Value& v) { put(root_, v); }

 private:
  // Fills the pair's columns (not its group's validity) for value v, or for
  // a missing value.
  void put(Target& t, const std::optional<Value>& v) {
    if (!v) {
      if (t.value) t.value->null_slot();
      if (t.typed) t.typed->null_slot();
      return;
    }
    switch (t.kind) {
      case Target::Kind::kLeaf:
        if (typed_leaf(*t.typed, t.primitive, *v)) {
          if (t.value) t.value->null_slot();
          return;
        }
        break;
      case Target::Kind::kArray:
        if (v->type() == Type_::kArray) {
          Builder& list = *t.typed;
          list.mark(true);
          for (size_t i = 0; i < v->size(); ++i) {
            t.element->group->mark(true);
            put(*t.element, v->element(i));
          }
          list.offsets.append_value(static_cast<int32_t>(t.element->group->length));
          if (t.value) t.value->null_slot();
          return;
        }
        break;
      case Target::Kind::kObject:
        if (v->type() == Type_::kObject) return object(t, *v);
        break;
      case Target::Kind::kNone:
        break;
    }
    // Not of the typed column's type: the value as it is.
    if (!t.value)
      throw Error("variant: a " + std::string(to_string(v->type())) + " value has no place in the layout of " +
                      t.group->node->name() + " (it has no value column)",
                  ErrorKind::kInvalidArgument);
    t.value->bytes(v->encoded());
    if (t.typed) t.typed->null_slot();
  }

  void object(Target& t, const Value& v) {
    Builder& fields = *t.typed;
    fields.mark(true);
    // Both are in name order: one merge splits shredded fields from the rest.
    // Nested objects recurse from inside the loop: each depth has its own list.
    if (depth_ == rest_.size()) rest_.emplace_back();
    std::vector<size_t>& rest = rest_[depth_++];
    rest.clear();
    size_t k = 0;
    for (auto& [name, field] : t.fields) {
      while (k < v.size() && v.field_name(k) < name) rest.push_back(k++);
      std::optional<Value> present;
      if (k < v.size() && v.field_name(k) == name) present = v.field_value(k++);
      field->group->mark(true);
      put(*field, present);
    }
    while (k < v.size()) rest.push_back(k++);
    --depth_;
    if (rest.empty()) {
      if (t.value) t.value->null_slot();
      return;
    }
    if (!t.value)
      throw Error("variant: an object has fields the layout of " + t.group->node->name() +
                      " does not shred, and no value column to keep them",
                  ErrorKind::kInvalidArgument);
    scratch_.clear();
    ValueWriter w(scratch_);
    w.begin_object();
    for (size_t i : rest) {
      w.field(v.field_id(i), v.field_name(i));
      w.encoded(v.field_value(i));
    }
    w.end_object();
    t.value->bytes(scratch_.span());
  }

  // Appends v to a typed leaf when it has the leaf's type.
  bool typed_leaf(Builder& b, const ShreddedPrimitive& want, const Value& v) {
    const Type_ vt = v.type();
    switch (want.type) {
      case Type_::kInt8:
      case Type_::kInt16:
      case Type_::kInt32:
      case Type_::kInt64: {
        const bool integer = vt == Type_::kInt8 || vt == Type_::kInt16 || vt == Type_::kInt32 || vt == Type_::kInt64;
        const int bits = want.type == Type_::kInt8    ? 8
                         : want.type == Type_::kInt16 ? 16
                         : want.type == Type_::kInt32 ? 32
                                                      : 64;
        if (!integer || !fits(v.integer(), bits)) return false;
        if (bits == 64) {
          b.fixed(v.integer());
        } else {
          b.fixed(static_cast<int32_t>(v.integer()));
        }
        return true;
      }
      case Type_::kDecimal4:
      case Type_::kDecimal8:
      case Type_::kDecimal16:
        return decimal(b, want, v);
      default:
        break;
    }
    if (vt != want.type) return false;
    switch (vt) {
      case Type_::kBoolean:
        b.boolean(v.boolean());
        return true;
      case Type_::kFloat:
        b.fixed(static_cast<float>(v.real()));
        return true;
      case Type_::kDouble:
        b.fixed(v.real());
        return true;
      case Type_::kDate:
        b.fixed(static_cast<int32_t>(v.integer()));
        return true;
      case Type_::kString: {
        const std::string_view s = v.string();
        b.bytes({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
        return true;
      }
      case Type_::kBinary:
        b.bytes(v.binary());
        return true;
      case Type_::kUuid: {
        const auto u = v.uuid();
        mark_fixed(b, u.data(), 16);
        return true;
      }
      default:  // timestamps and time: counts of the column's unit
        b.fixed(v.integer());
        return true;
    }
  }

  void mark_fixed(Builder& b, const uint8_t* p, size_t n) {
    b.mark(true);
    b.values.append(p, n);
  }

  // A decimal of the column's scale whose digits fit its precision.
  bool decimal(Builder& b, const ShreddedPrimitive& want, const Value& v) {
    if (v.type() != Type_::kDecimal4 && v.type() != Type_::kDecimal8 && v.type() != Type_::kDecimal16) return false;
    const Decimal d = v.decimal();
    if (d.scale != want.scale) return false;
    __int128 unscaled;
    std::memcpy(&unscaled, d.unscaled.data(), 16);
    __int128 limit = 1;
    for (int i = 0; i < want.precision; ++i) limit *= 10;
    if (unscaled <= -limit || unscaled >= limit) return false;
    if (want.type == Type_::kDecimal4) {
      b.fixed(static_cast<int32_t>(unscaled));
    } else if (want.type == Type_::kDecimal8) {
      b.fixed(static_cast<int64_t>(unscaled));
    } else {
      const size_t n = b.type.physical == Type::FIXED_LEN_BYTE_ARRAY ? static_cast<size_t>(b.type.type_length) : 16;
      uint8_t be[16];
      for (size_t i = 0; i < n; ++i) be[i] = d.unscaled[n - 1 - i];
      if (b.type.physical == Type::FIXED_LEN_BYTE_ARRAY) {
        mark_fixed(b, be, n);
      } else {
        b.bytes({be, n});
      }
    }
    return true;
  }

  Target& root_;
  std::deque<std::vector<size_t>> rest_;  // by depth; a deque keeps references
  size_t depth_ = 0;
  Buffer scratch_;
};

}  // namespace

Array shred(const Array& group, const Schema& schema, const SchemaNode& target) {
  const Array* metadata = nullptr;
  const Array* value = nullptr;
  for (const Array& c : group.children) {
    if (c.name == "metadata") metadata = &c;
    if (c.name == "value") value = &c;
  }
  if (!metadata || !value || group.children.size() != 2 || metadata->type.physical != format::Type::BYTE_ARRAY ||
      value->type.physical != format::Type::BYTE_ARRAY)
    throw Error("variant " + group.name + ": only a struct of binary metadata and value can be shredded",
                ErrorKind::kInvalidArgument);
  auto root = build_struct(schema, target);
  std::unique_ptr<Target> pairs = make_target(*root);
  Builder* metadata_out = child_builder(*root, "metadata");
  if (!metadata_out) unsupported(target, "a VARIANT group needs its metadata column");
  ShredWriter writer(*pairs);
  check_array(group, group.length, group.name);
  check_array(*metadata, group.length, group.name + ".metadata");
  check_array(*value, group.length, group.name + ".value");
  for (int64_t i = 0; i < group.length; ++i) {
    if (!group.is_valid(i)) {
      root->null_slot();
      continue;
    }
    root->mark(true);
    const std::span<const uint8_t> m = bytes_at(*metadata, i);
    try {
      const Metadata parsed = Metadata::parse(m);
      metadata_out->bytes(m);
      // A missing value is the variant null at the top.
      static const uint8_t kNull[1] = {0};
      writer.row(Value::parse(parsed, value->is_valid(i) ? bytes_at(*value, i) : std::span<const uint8_t>(kNull)));
    } catch (const Error& e) {
      throw Error("variant " + group.name + ", row " + std::to_string(i) + " of the batch: " + e.detail(), e.kind());
    }
  }
  return root->finish(group.name);
}

}  // namespace parq::variant
