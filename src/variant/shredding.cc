// Rebuilding shredded VARIANT values; see variant/shredding.h.
//
// The arrays' shape is read once per batch into a tree of Pair nodes (what
// each typed_value holds and how its leaf encodes), then each slot is
// written by one walk of that tree with a ValueWriter into the new `value`
// buffer. Field ids come from each slot's metadata; they are looked up again
// only when a slot's metadata bytes differ from the previous slot's.
#include "parq/variant/shredding.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/variant/variant.h"
#include "parq/variant/variant_writer.h"
#include "shredded_columns.h"

namespace parq::variant {
namespace {

using format::Type;

struct Pair;

struct ShreddedField {
  std::string_view name;
  const Array* group = nullptr;  // the field's struct (null where the field is missing)
  std::unique_ptr<Pair> pair;
  uint32_t id = 0;          // in the metadata of the slot being written
  uint64_t generation = 0;  // the metadata `id` was found in
};

// A `value`/`typed_value` pair and what its typed_value holds.
struct Pair {
  enum class Kind : uint8_t { kValueOnly, kPrimitive, kArray, kObject };
  std::string path;  // for errors
  const Array* value = nullptr;
  const Array* typed = nullptr;
  Kind kind = Kind::kValueOnly;
  ShreddedPrimitive primitive;        // kPrimitive
  std::unique_ptr<Pair> element;      // arrays
  std::vector<ShreddedField> fields;  // objects, sorted by name
};

[[noreturn]] void unsupported(const std::string& path, const std::string& what) {
  throw Error("variant " + path + ": unsupported shredded value type: " + what, ErrorKind::kUnsupported);
}

[[noreturn]] void invalid(const std::string& path, int64_t slot, const std::string& what) {
  throw Error("variant " + path + ", row " + std::to_string(slot) + " of the batch: invalid shredding: " + what);
}

std::unique_ptr<Pair> analyze(const Array& group, std::string path, int64_t slots);

void classify_typed(Pair& p, const Array& t, int64_t slots) {
  const int64_t elements = check_array(t, slots, p.path + ".typed_value");
  switch (t.kind) {
    case ArrayKind::kLeaf: {
      p.kind = Pair::Kind::kPrimitive;
      const auto primitive = shredded_primitive(t.type);
      if (!primitive) unsupported(p.path + ".typed_value", type_text(t.type));
      p.primitive = *primitive;
      return;
    }
    case ArrayKind::kList:
      p.kind = Pair::Kind::kArray;
      if (t.children.size() != 1 || t.children[0].kind != ArrayKind::kStruct)
        unsupported(p.path + ".typed_value", "a list whose element is not a group of value and typed_value");
      p.element = analyze(t.children[0], p.path + ".typed_value.element", elements);
      return;
    case ArrayKind::kStruct:
      p.kind = Pair::Kind::kObject;
      for (const Array& field : t.children) {
        if (field.kind != ArrayKind::kStruct)
          unsupported(p.path + ".typed_value." + field.name, "an object field that is not a group");
        ShreddedField f;
        f.name = field.name;
        f.group = &field;
        check_array(field, slots, p.path + ".typed_value." + field.name);
        f.pair = analyze(field, p.path + ".typed_value." + field.name, slots);
        p.fields.push_back(std::move(f));
      }
      std::sort(p.fields.begin(), p.fields.end(),
                [](const ShreddedField& a, const ShreddedField& b) { return a.name < b.name; });
      for (size_t i = 1; i < p.fields.size(); ++i)
        if (p.fields[i - 1].name == p.fields[i].name)
          unsupported(p.path + ".typed_value", "field '" + std::string(p.fields[i].name) + "' is shredded twice");
      return;
    case ArrayKind::kMap:
      unsupported(p.path + ".typed_value", "a MAP");
  }
}

std::unique_ptr<Pair> analyze(const Array& group, std::string path, int64_t slots) {
  auto p = std::make_unique<Pair>();
  p->path = std::move(path);
  for (const Array& child : group.children) {
    if (child.name == "value") {
      if (child.kind != ArrayKind::kLeaf || child.type.physical != Type::BYTE_ARRAY)
        unsupported(p->path + ".value", "a value column that is not BYTE_ARRAY");
      check_array(child, slots, p->path + ".value");
      p->value = &child;
    } else if (child.name == "typed_value") {
      p->typed = &child;
    }
  }
  if (p->typed) classify_typed(*p, *p->typed, slots);
  if (!p->value && !p->typed) unsupported(p->path, "a group with neither value nor typed_value");
  return p;
}

class Unshredder {
 public:
  Unshredder(const Array& metadata_column, Pair& root, Buffer& values)
      : metadata_column_(metadata_column), root_(root), writer_(values) {}

  // Appends slot i's whole value.
  void slot(int64_t i) {
    row_ = i;
    const std::span<const uint8_t> bytes = bytes_at(metadata_column_, i);
    if (generation_ == 0 || bytes.size() != last_metadata_.size() ||
        std::memcmp(bytes.data(), last_metadata_.data(), bytes.size()) != 0) {
      try {
        metadata_ = Metadata::parse(bytes);
      } catch (const Error& e) {
        throw Error("variant " + root_.path + ".metadata, row " + std::to_string(row_) + " of the batch: " + e.what());
      }
      last_metadata_ = bytes;
      ++generation_;
    }
    if (!write(root_, i)) writer_.null();
  }

 private:
  // Writes the pair's value at slot i; false when it is missing.
  bool write(Pair& p, int64_t i) {
    const bool has_value = p.value && p.value->is_valid(i);
    const bool has_typed = p.typed && p.typed->is_valid(i);
    if (!has_typed) {
      if (!has_value) return false;
      writer_.encoded(parse_value(p, i));
      return true;
    }
    switch (p.kind) {
      case Pair::Kind::kValueOnly:
        break;
      case Pair::Kind::kPrimitive:
        if (has_value) invalid(p.path, row_, "conflicting value and typed_value");
        write_leaf(p, *p.typed, i);
        return true;
      case Pair::Kind::kArray: {
        if (has_value) invalid(p.path, row_, "conflicting value and typed_value");
        const int32_t* o = p.typed->offsets_data();
        writer_.begin_array();
        for (int64_t j = o[i]; j < o[i + 1]; ++j) {
          writer_.element();
          // An element must be present; one that is not reads as null.
          if (!write(*p.element, j)) writer_.null();
        }
        writer_.end_array();
        return true;
      }
      case Pair::Kind::kObject:
        write_object(p, i, has_value);
        return true;
    }
    return false;
  }

  void write_object(Pair& p, int64_t i, bool has_value) {
    std::optional<Value> rest;
    if (has_value) {
      rest = parse_value(p, i);
      if (rest->type() != variant::Type::kObject) invalid(p.path, row_, "non-object value with shredded fields");
    }
    writer_.begin_object();
    for (ShreddedField& f : p.fields) {
      // A missing field need not be in this row's metadata.
      const Pair& q = *f.pair;
      if (!f.group->is_valid(i) || !((q.value && q.value->is_valid(i)) || (q.typed && q.typed->is_valid(i)))) continue;
      writer_.field(field_id(f, p), f.name);
      write(*f.pair, i);
    }
    if (rest) {
      // Both lists are in name order: one merge finds a name in both.
      size_t s = 0;
      for (size_t k = 0; k < rest->size(); ++k) {
        const std::string_view name = rest->field_name(k);
        while (s < p.fields.size() && p.fields[s].name < name) ++s;
        if (s < p.fields.size() && p.fields[s].name == name)
          invalid(p.path, row_, "field '" + std::string(name) + "' is both shredded and in value");
        writer_.field(rest->field_id(k), name);
        writer_.encoded(rest->field_value(k));
      }
    }
    writer_.end_object();
  }

  uint32_t field_id(ShreddedField& f, const Pair& p) {
    if (f.generation != generation_) {
      const auto id = metadata_.find(f.name);
      if (!id) invalid(p.path, row_, "field '" + std::string(f.name) + "' is not in the metadata");
      f.id = *id;
      f.generation = generation_;
    }
    return f.id;
  }

  Value parse_value(const Pair& p, int64_t i) {
    try {
      return Value::parse(metadata_, bytes_at(*p.value, i));
    } catch (const Error& e) {
      throw Error("variant " + p.path + ".value, row " + std::to_string(row_) + " of the batch: " + e.what());
    }
  }

  void write_leaf(const Pair& p, const Array& t, int64_t i) {
    using V = variant::Type;
    switch (p.primitive.type) {
      case V::kBoolean:
        writer_.boolean((t.values.data()[i >> 3] >> (i & 7) & 1) != 0);
        return;
      case V::kInt8:
        writer_.int8(static_cast<int8_t>(fixed_at<int32_t>(t, i)));
        return;
      case V::kInt16:
        writer_.int16(static_cast<int16_t>(fixed_at<int32_t>(t, i)));
        return;
      case V::kInt32:
        writer_.int32(fixed_at<int32_t>(t, i));
        return;
      case V::kInt64:
        writer_.int64(fixed_at<int64_t>(t, i));
        return;
      case V::kFloat:
        writer_.float32(fixed_at<float>(t, i));
        return;
      case V::kDouble:
        writer_.float64(fixed_at<double>(t, i));
        return;
      case V::kDate:
        writer_.date(fixed_at<int32_t>(t, i));
        return;
      case V::kTimestampMicros:
      case V::kTimestampNtzMicros:
      case V::kTimestampNanos:
      case V::kTimestampNtzNanos:
      case V::kTimeNtzMicros:
        writer_.temporal(p.primitive.type, fixed_at<int64_t>(t, i));
        return;
      case V::kDecimal4:
      case V::kDecimal8: {
        Decimal d;
        d.scale = p.primitive.scale;
        const int64_t v = p.primitive.type == V::kDecimal4 ? fixed_at<int32_t>(t, i) : fixed_at<int64_t>(t, i);
        for (size_t b = 0; b < 8; ++b) d.unscaled[b] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * b));
        writer_.decimal(p.primitive.type, d);
        return;
      }
      case V::kDecimal16: {
        std::span<const uint8_t> be;
        if (t.type.physical == Type::BYTE_ARRAY) {
          be = bytes_at(t, i);
        } else {
          const auto w = static_cast<size_t>(t.type.type_length);
          be = {t.values.data() + static_cast<size_t>(i) * w, w};
        }
        if (be.empty() || be.size() > 16)
          invalid(p.path, row_, "a decimal of " + std::to_string(be.size()) + " bytes (1 to 16 fit decimal16)");
        Decimal d;
        d.scale = p.primitive.scale;
        d.unscaled.fill((be[0] & 0x80) ? 0xFF : 0x00);
        for (size_t b = 0; b < be.size(); ++b) d.unscaled[b] = be[be.size() - 1 - b];
        writer_.decimal(V::kDecimal16, d);
        return;
      }
      case V::kBinary:
        writer_.binary(bytes_at(t, i));
        return;
      case V::kString: {
        const auto b = bytes_at(t, i);
        writer_.string({reinterpret_cast<const char*>(b.data()), b.size()});
        return;
      }
      case V::kUuid:
        writer_.uuid(t.values.data() + static_cast<size_t>(i) * 16);
        return;
      default:
        return;  // shredded_primitive() gives no other type
    }
  }

  const Array& metadata_column_;
  Metadata metadata_;
  std::span<const uint8_t> last_metadata_;
  uint64_t generation_ = 0;  // counts the metadata dictionaries seen
  int64_t row_ = 0;          // the slot of the group being written, for errors
  Pair& root_;
  ValueWriter writer_;
};

void unshred_tree(Array& array) {
  if (is_variant(array)) {
    if (!holds_whole_values(array)) array = unshred(array);
    return;
  }
  for (Array& child : array.children) unshred_tree(child);
}

}  // namespace

bool is_variant(const Array& array) {
  return array.kind == ArrayKind::kStruct && array.type.logical.VARIANT.has_value();
}

bool holds_whole_values(const Array& group) {
  if (!is_variant(group) || group.children.size() != 2) return false;
  const Array& metadata = group.children[0];
  const Array& value = group.children[1];
  if (metadata.name != "metadata" || value.name != "value") return false;
  for (const Array* a : {&metadata, &value})
    if (a->kind != ArrayKind::kLeaf || a->type.physical != format::Type::BYTE_ARRAY) return false;
  check_array(group, group.length, group.name);
  check_array(value, group.length, group.name + ".value");
  // A valid slot whose value is missing must become the variant null.
  if (value.validity.empty()) return true;
  for (int64_t i = 0; i < group.length; ++i)
    if (group.is_valid(i) && !value.is_valid(i)) return false;
  return true;
}

Array unshred(const Array& group) {
  const Array* metadata = nullptr;
  for (const Array& child : group.children)
    if (child.name == "metadata") metadata = &child;
  if (metadata == nullptr)
    throw Error("variant " + group.name + ": its metadata column was not read, so its values cannot be rebuilt",
                ErrorKind::kInvalidArgument);
  if (metadata->kind != ArrayKind::kLeaf || metadata->type.physical != format::Type::BYTE_ARRAY)
    unsupported(group.name + ".metadata", "a metadata column that is not BYTE_ARRAY");
  check_array(group, group.length, group.name);
  check_array(*metadata, group.length, group.name + ".metadata");
  const std::unique_ptr<Pair> root = analyze(group, group.name, group.length);

  Array out;
  out.kind = ArrayKind::kStruct;
  out.name = group.name;
  out.type = group.type;
  out.length = group.length;
  out.null_count = group.null_count;
  out.validity = group.validity;
  Array value;
  value.name = "value";
  value.type.physical = format::Type::BYTE_ARRAY;
  value.length = group.length;
  value.null_count = group.null_count;
  value.validity = group.validity;
  value.offsets.resize(static_cast<size_t>(group.length + 1) * sizeof(int32_t));
  auto* offsets = value.offsets.data_as<int32_t>();
  offsets[0] = 0;
  Unshredder unshredder(*metadata, *root, value.values);
  for (int64_t i = 0; i < group.length; ++i) {
    if (group.is_valid(i)) unshredder.slot(i);
    if (value.values.size() > static_cast<size_t>(INT32_MAX))
      throw Error("variant " + group.name + ": one batch's values pass 2 GiB; read smaller batches", ErrorKind::kLimit);
    offsets[i + 1] = static_cast<int32_t>(value.values.size());
  }
  out.children.push_back(*metadata);
  out.children.push_back(std::move(value));
  return out;
}

void unshred_variants(RecordBatch& batch) {
  for (Array& column : batch.columns) unshred_tree(column);
}

}  // namespace parq::variant
