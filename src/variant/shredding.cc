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
#include "parq/schema/logical_type.h"
#include "parq/variant/variant.h"
#include "parq/variant/variant_writer.h"

namespace parq::variant {
namespace {

using format::Type;

// How a typed_value leaf becomes a variant primitive.
enum class Leaf : uint8_t {
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kFloat,
  kDouble,
  kDecimal4,
  kDecimal8,
  kDecimal16,  // big-endian bytes, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY
  kDate,
  kTemporal,  // INT64 counts: timestamps and time
  kBinary,
  kString,
  kUuid,
};

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
  Leaf leaf = Leaf::kBinary;
  variant::Type temporal = variant::Type::kTimestampMicros;
  uint8_t scale = 0;
  std::unique_ptr<Pair> element;      // arrays
  std::vector<ShreddedField> fields;  // objects, sorted by name
};

[[noreturn]] void unsupported(const std::string& path, const std::string& what) {
  throw Error("variant " + path + ": unsupported shredded value type: " + what, ErrorKind::kUnsupported);
}

[[noreturn]] void invalid(const std::string& path, int64_t slot, const std::string& what) {
  throw Error("variant " + path + ", row " + std::to_string(slot) + " of the batch: invalid shredding: " + what);
}

std::string type_text(const Array& leaf) {
  std::string text = format::to_string(leaf.type.physical);
  if (leaf.type.physical == Type::FIXED_LEN_BYTE_ARRAY) text += "(" + std::to_string(leaf.type.type_length) + ")";
  if (has_logical_type(leaf.type.logical)) text += " " + logical_type_to_string(leaf.type.logical);
  return text;
}

void classify_leaf(Pair& p, const Array& t) {
  const format::LogicalType& l = t.type.logical;
  const bool annotated = has_logical_type(l);
  auto reject = [&] { unsupported(p.path + ".typed_value", type_text(t)); };
  auto decimal_scale = [&] {
    if (l.DECIMAL->scale < 0 || l.DECIMAL->scale > 38) reject();
    p.scale = static_cast<uint8_t>(l.DECIMAL->scale);
  };
  switch (t.type.physical) {
    case Type::BOOLEAN:
      if (annotated) reject();
      p.leaf = Leaf::kBoolean;
      return;
    case Type::INT32:
      if (!annotated) {
        p.leaf = Leaf::kInt32;
      } else if (l.INTEGER && l.INTEGER->is_signed && l.INTEGER->bit_width <= 32) {
        p.leaf = l.INTEGER->bit_width == 8 ? Leaf::kInt8 : l.INTEGER->bit_width == 16 ? Leaf::kInt16 : Leaf::kInt32;
      } else if (l.DECIMAL) {
        decimal_scale();
        p.leaf = Leaf::kDecimal4;
      } else if (l.DATE) {
        p.leaf = Leaf::kDate;
      } else {
        reject();
      }
      return;
    case Type::INT64:
      if (!annotated || (l.INTEGER && l.INTEGER->is_signed && l.INTEGER->bit_width == 64)) {
        p.leaf = Leaf::kInt64;
      } else if (l.DECIMAL) {
        decimal_scale();
        p.leaf = Leaf::kDecimal8;
      } else if (l.TIME && !l.TIME->is_adjusted_to_utc && l.TIME->unit.MICROS) {
        p.leaf = Leaf::kTemporal;
        p.temporal = variant::Type::kTimeNtzMicros;
      } else if (l.TIMESTAMP && (l.TIMESTAMP->unit.MICROS || l.TIMESTAMP->unit.NANOS)) {
        const bool utc = l.TIMESTAMP->is_adjusted_to_utc;
        p.leaf = Leaf::kTemporal;
        if (l.TIMESTAMP->unit.MICROS) {
          p.temporal = utc ? variant::Type::kTimestampMicros : variant::Type::kTimestampNtzMicros;
        } else {
          p.temporal = utc ? variant::Type::kTimestampNanos : variant::Type::kTimestampNtzNanos;
        }
      } else {
        reject();
      }
      return;
    case Type::FLOAT:
      if (annotated) reject();
      p.leaf = Leaf::kFloat;
      return;
    case Type::DOUBLE:
      if (annotated) reject();
      p.leaf = Leaf::kDouble;
      return;
    case Type::BYTE_ARRAY:
      if (!annotated) {
        p.leaf = Leaf::kBinary;
      } else if (l.STRING) {
        p.leaf = Leaf::kString;
      } else if (l.DECIMAL) {
        decimal_scale();
        p.leaf = Leaf::kDecimal16;
      } else {
        reject();
      }
      return;
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (l.UUID && t.type.type_length == 16) {
        p.leaf = Leaf::kUuid;
      } else if (l.DECIMAL && t.type.type_length >= 1 && t.type.type_length <= 16) {
        decimal_scale();
        p.leaf = Leaf::kDecimal16;
      } else {
        reject();
      }
      return;
    case Type::INT96:
      reject();
  }
}

std::unique_ptr<Pair> analyze(const Array& group, std::string path, int64_t slots);

[[noreturn]] void malformed(const std::string& path, const std::string& what) {
  throw Error("variant " + path + ": array " + what, ErrorKind::kInvalidArgument);
}

// The arrays may come from outside the reader (the Arrow C interface): each
// one read is checked once here, so that no slot read later is out of bounds.
// Returns the slots a list's or byte array's offsets address.
int64_t check_array(const Array& a, int64_t slots, const std::string& path) {
  if (a.length < slots) malformed(path, "is shorter than its parent");
  if (!a.validity.empty() && a.validity.size() * 8 < static_cast<uint64_t>(slots))
    malformed(path, "validity holds fewer bits than slots");
  const bool offsets = a.kind == ArrayKind::kList || a.kind == ArrayKind::kMap ||
                       (a.kind == ArrayKind::kLeaf && a.type.physical == Type::BYTE_ARRAY);
  if (offsets) {
    if (slots == 0) return 0;
    if (a.offsets.size() / sizeof(int32_t) < static_cast<uint64_t>(slots) + 1)
      malformed(path, "offsets hold fewer than length + 1 entries");
    const int32_t* o = a.offsets_data();
    if (o[0] < 0) malformed(path, "first offset is negative");
    for (int64_t i = 0; i < slots; ++i)
      if (o[i + 1] < o[i]) malformed(path, "offsets decrease at slot " + std::to_string(i));
    if (a.kind == ArrayKind::kLeaf && static_cast<uint64_t>(o[slots]) > a.values.size())
      malformed(path, "offsets point past the values");
    return o[slots];
  }
  if (a.kind == ArrayKind::kLeaf) {
    const uint64_t bits = a.type.physical == Type::BOOLEAN ? 1 : 8 * static_cast<uint64_t>(a.value_width());
    if (a.values.size() * 8 < bits * static_cast<uint64_t>(slots)) malformed(path, "values hold fewer than its slots");
  }
  return slots;
}

void classify_typed(Pair& p, const Array& t, int64_t slots) {
  const int64_t elements = check_array(t, slots, p.path + ".typed_value");
  switch (t.kind) {
    case ArrayKind::kLeaf:
      p.kind = Pair::Kind::kPrimitive;
      classify_leaf(p, t);
      return;
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

std::span<const uint8_t> bytes_at(const Array& leaf, int64_t i) {
  const int32_t* o = leaf.offsets_data();
  return {leaf.values.data() + o[i], static_cast<size_t>(o[i + 1] - o[i])};
}

template <class T>
T fixed_at(const Array& leaf, int64_t i) {
  T v;
  std::memcpy(&v, leaf.values.data() + static_cast<size_t>(i) * sizeof(T), sizeof(T));
  return v;
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
    switch (p.leaf) {
      case Leaf::kBoolean:
        writer_.boolean((t.values.data()[i >> 3] >> (i & 7) & 1) != 0);
        return;
      case Leaf::kInt8:
        writer_.int8(static_cast<int8_t>(fixed_at<int32_t>(t, i)));
        return;
      case Leaf::kInt16:
        writer_.int16(static_cast<int16_t>(fixed_at<int32_t>(t, i)));
        return;
      case Leaf::kInt32:
        writer_.int32(fixed_at<int32_t>(t, i));
        return;
      case Leaf::kInt64:
        writer_.int64(fixed_at<int64_t>(t, i));
        return;
      case Leaf::kFloat:
        writer_.float32(fixed_at<float>(t, i));
        return;
      case Leaf::kDouble:
        writer_.float64(fixed_at<double>(t, i));
        return;
      case Leaf::kDate:
        writer_.date(fixed_at<int32_t>(t, i));
        return;
      case Leaf::kTemporal:
        writer_.temporal(p.temporal, fixed_at<int64_t>(t, i));
        return;
      case Leaf::kDecimal4:
      case Leaf::kDecimal8: {
        Decimal d;
        d.scale = p.scale;
        const int64_t v = p.leaf == Leaf::kDecimal4 ? fixed_at<int32_t>(t, i) : fixed_at<int64_t>(t, i);
        for (size_t b = 0; b < 8; ++b) d.unscaled[b] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * b));
        writer_.decimal(p.leaf == Leaf::kDecimal4 ? variant::Type::kDecimal4 : variant::Type::kDecimal8, d);
        return;
      }
      case Leaf::kDecimal16: {
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
        d.scale = p.scale;
        d.unscaled.fill((be[0] & 0x80) ? 0xFF : 0x00);
        for (size_t b = 0; b < be.size(); ++b) d.unscaled[b] = be[be.size() - 1 - b];
        writer_.decimal(variant::Type::kDecimal16, d);
        return;
      }
      case Leaf::kBinary:
        writer_.binary(bytes_at(t, i));
        return;
      case Leaf::kString: {
        const auto b = bytes_at(t, i);
        writer_.string({reinterpret_cast<const char*>(b.data()), b.size()});
        return;
      }
      case Leaf::kUuid:
        writer_.uuid(t.values.data() + static_cast<size_t>(i) * 16);
        return;
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
    array = unshred(array);
    return;
  }
  for (Array& child : array.children) unshred_tree(child);
}

}  // namespace

bool is_variant(const Array& array) {
  return array.kind == ArrayKind::kStruct && array.type.logical.VARIANT.has_value();
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
