// Record assembly: definition and repetition levels -> validity bitmaps,
// list offsets and slot-aligned values (Dremel, in reverse).
//
// Each leaf's levels are walked from the top-level field down to the leaf.
// At every node the walk holds the node's slots as ranges of that leaf's
// level entries: a top-level slot starts at every entry with repetition level
// 0; a list slot's elements start at its first entry and at every entry whose
// repetition level is the list's element level; a struct passes its ranges
// to its children. A slot's first entry says whether it is null (definition
// level below the node's) or, for lists, empty. Nodes shared by several
// leaves (structs, lists of structs) are materialised from their first
// leaf's walk; the others only compute ranges.
#include "assembler.h"

#include <cstring>
#include <utility>

#include "parq/error.h"

namespace parq {
namespace {

struct Ranges {
  std::vector<int32_t> begin;
  std::vector<int32_t> end;
  size_t size() const { return begin.size(); }
};

class Bitmap {
 public:
  Bitmap(Buffer& out, int64_t length) : out_(out) {
    size_t bytes = static_cast<size_t>((length + 7) / 8);
    out_.resize(bytes);
    if (bytes != 0) std::memset(out_.data(), 0, bytes);
  }
  void set(int64_t i) { out_.data()[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }

 private:
  Buffer& out_;
};

bool contains_leaf(const ArrayPlan& p, int leaf) {
  if (p.kind == ArrayKind::kLeaf) return p.leaf == leaf;
  for (const auto& c : p.children)
    if (contains_leaf(c, leaf)) return true;
  return false;
}

class LeafWalk {
 public:
  LeafWalk(int leaf, LeafBatch& batch, int16_t max_def)
      : leaf_(leaf),
        batch_(batch),
        def_(batch.def.empty() ? nullptr : batch.def_levels()),
        rep_(batch.rep.empty() ? nullptr : batch.rep_levels()),
        max_def_(max_def) {}

  void walk(const ArrayPlan& p, Array& out, const Ranges& slots) {
    const bool owner = p.first_leaf == leaf_;
    if (owner) start_array(p, out, static_cast<int64_t>(slots.size()));
    switch (p.kind) {
      case ArrayKind::kLeaf:
        fill_leaf(p, out, slots);
        break;
      case ArrayKind::kStruct:
        walk_struct(p, out, slots, owner);
        break;
      case ArrayKind::kList:
      case ArrayKind::kMap:
        walk_list(p, out, slots, owner);
        break;
    }
  }

  Ranges top_level_slots() const {
    Ranges r;
    const int32_t n = static_cast<int32_t>(batch_.num_entries);
    r.begin.reserve(static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i)
      if (rep_ == nullptr || rep_[i] == 0) r.begin.push_back(i);
    r.end.resize(r.begin.size());
    for (size_t s = 0; s < r.begin.size(); ++s) r.end[s] = s + 1 < r.begin.size() ? r.begin[s + 1] : n;
    return r;
  }

 private:
  int16_t def_at(int32_t entry) const { return def_ == nullptr ? max_def_ : def_[entry]; }

  static void start_array(const ArrayPlan& p, Array& out, int64_t length) {
    out.kind = p.kind;
    out.name = p.name;
    out.type = p.type;
    out.length = length;
    out.null_count = 0;
  }

  // Validity of a non-leaf node from its slots' first entries.
  void set_validity(const ArrayPlan& p, Array& out, const Ranges& slots) {
    int64_t nulls = 0;
    for (size_t s = 0; s < slots.size(); ++s) nulls += def_at(slots.begin[s]) < p.null_below;
    out.null_count = nulls;
    out.validity.clear();
    if (nulls == 0) return;
    Bitmap bits(out.validity, out.length);
    for (size_t s = 0; s < slots.size(); ++s)
      if (def_at(slots.begin[s]) >= p.null_below) bits.set(static_cast<int64_t>(s));
  }

  void walk_struct(const ArrayPlan& p, Array& out, const Ranges& slots, bool owner) {
    if (owner) {
      set_validity(p, out, slots);
      out.children.resize(p.children.size());
    }
    for (size_t c = 0; c < p.children.size(); ++c)
      if (contains_leaf(p.children[c], leaf_)) walk(p.children[c], out.children[c], slots);
  }

  void walk_list(const ArrayPlan& p, Array& out, const Ranges& slots, bool owner) {
    Ranges elements;
    if (owner) {
      set_validity(p, out, slots);
      out.offsets.resize((slots.size() + 1) * sizeof(int32_t));
      out.children.resize(p.children.size());
    }
    int32_t* offsets = owner ? out.offsets.data_as<int32_t>() : nullptr;
    if (owner) offsets[0] = 0;
    for (size_t s = 0; s < slots.size(); ++s) {
      const int32_t b = slots.begin[s], e = slots.end[s];
      if (def_at(b) >= p.empty_below) {
        elements.begin.push_back(b);
        for (int32_t i = b + 1; i < e; ++i) {
          if (rep_[i] == p.element_rep) {
            elements.end.push_back(i);
            elements.begin.push_back(i);
          } else if (rep_[i] < p.element_rep) {
            throw Error("corrupt levels: repetition level " + std::to_string(rep_[i]) + " inside a list slot");
          }
        }
        elements.end.push_back(e);
      }
      if (owner) offsets[s + 1] = static_cast<int32_t>(elements.size());
    }
    for (size_t c = 0; c < p.children.size(); ++c)
      if (contains_leaf(p.children[c], leaf_)) walk(p.children[c], out.children[c], elements);
  }

  void fill_leaf(const ArrayPlan& p, Array& out, const Ranges& slots) {
    for (size_t s = 0; s < slots.size(); ++s)
      if (slots.end[s] - slots.begin[s] != 1)
        throw Error("corrupt levels: column " + p.name + " has a repeated value where its schema has none");
    fill_leaf_entries(p, out, slots.begin.data());
  }

 public:
  // A top-level leaf without repetition: slot i is level entry i, and no
  // ranges are built.
  void fill_flat_leaf(const ArrayPlan& p, Array& out) {
    start_array(p, out, batch_.num_entries);
    fill_leaf_entries(p, out, nullptr);
  }

 private:
  // `entry_of[s]` is slot s's level entry (nullptr: the identity).
  void fill_leaf_entries(const ArrayPlan& p, Array& out, const int32_t* entry_of) {
    const int64_t n = out.length;
    int64_t valid = n;
    if (def_ != nullptr) {
      valid = 0;
      for (int64_t s = 0; s < n; ++s) valid += def_[entry_of ? entry_of[s] : s] >= p.null_below;
    }
    if (valid != batch_.values.count)
      throw Error("corrupt levels: column " + p.name + " has " + std::to_string(batch_.values.count) + " values for " +
                  std::to_string(valid) + " non-null slots");
    out.null_count = n - valid;
    out.validity.clear();
    if (out.null_count != 0) {
      Bitmap bits(out.validity, n);
      for (int64_t s = 0; s < n; ++s)
        if (def_[entry_of ? entry_of[s] : s] >= p.null_below) bits.set(s);
    }
    switch (p.type.physical) {
      case format::Type::BOOLEAN:
        return place_booleans(out);
      case format::Type::BYTE_ARRAY:
        return place_byte_arrays(out);
      default:
        return place_fixed(out);
    }
  }

  void place_fixed(Array& out) {
    Buffer& dense = batch_.values.fixed;
    if (out.null_count == 0) {
      out.values = std::move(dense);
      dense = Buffer();
      return;
    }
    const size_t width = static_cast<size_t>(out.value_width());
    out.values.resize(static_cast<size_t>(out.length) * width);
    const uint8_t* src = std::as_const(dense).data();
    uint8_t* dst = out.values.data();
    for (int64_t s = 0; s < out.length; ++s, dst += width) {
      if (out.is_valid(s)) {
        std::memcpy(dst, src, width);
        src += width;
      } else {
        std::memset(dst, 0, width);
      }
    }
  }

  void place_booleans(Array& out) {
    const uint8_t* src = batch_.values.fixed.data();
    Bitmap bits(out.values, out.length);
    for (int64_t s = 0; s < out.length; ++s)
      if (out.is_valid(s) && *src++) bits.set(s);
  }

  void place_byte_arrays(Array& out) {
    encoding::ByteArrayBatch& bytes = batch_.values.bytes;
    out.values = std::move(bytes.data_buffer());
    if (out.null_count == 0) {
      out.offsets = std::move(bytes.offsets_buffer());
    } else {
      const int32_t* src = bytes.offsets();
      out.offsets.resize(static_cast<size_t>(out.length + 1) * sizeof(int32_t));
      int32_t* dst = out.offsets.data_as<int32_t>();
      dst[0] = 0;
      int64_t k = 0;
      for (int64_t s = 0; s < out.length; ++s) {
        if (out.is_valid(s)) ++k;
        dst[s + 1] = src[k];
      }
    }
    bytes = encoding::ByteArrayBatch();
  }

  int leaf_;
  LeafBatch& batch_;
  const int16_t* def_;
  const int16_t* rep_;
  int16_t max_def_;
};

}  // namespace

RecordBatch assemble(const std::vector<ArrayPlan>& plans, const std::vector<LeafInput>& leaves, int64_t num_rows) {
  RecordBatch batch;
  batch.num_rows = num_rows;
  batch.columns.resize(plans.size());
  for (const LeafInput& in : leaves) {
    LeafWalk walk(in.column, *in.batch, in.max_definition_level);
    if (in.batch->rep.empty()) {
      // Flat top-level leaves, the common case, skip the range machinery.
      size_t i = 0;
      while (i < plans.size() && !contains_leaf(plans[i], in.column)) ++i;
      if (i < plans.size() && plans[i].kind == ArrayKind::kLeaf) {
        if (in.batch->num_entries != num_rows)
          throw Error("column " + plans[i].name + " holds " + std::to_string(in.batch->num_entries) +
                      " records where the batch has " + std::to_string(num_rows));
        walk.fill_flat_leaf(plans[i], batch.columns[i]);
        continue;
      }
    }
    Ranges top = walk.top_level_slots();
    if (static_cast<int64_t>(top.size()) != num_rows)
      throw Error("column " + std::to_string(in.column) + " holds " + std::to_string(top.size()) +
                  " records where the batch has " + std::to_string(num_rows));
    for (size_t i = 0; i < plans.size(); ++i)
      if (contains_leaf(plans[i], in.column)) walk.walk(plans[i], batch.columns[i], top);
  }
  return batch;
}

}  // namespace parq

namespace parq {
namespace {

Array empty_array(const ArrayPlan& p) {
  Array a;
  a.kind = p.kind;
  a.name = p.name;
  a.type = p.type;
  if (p.kind != ArrayKind::kStruct && !(p.kind == ArrayKind::kLeaf && p.type.physical != format::Type::BYTE_ARRAY))
    a.offsets.append_value<int32_t>(0);
  for (const auto& c : p.children) a.children.push_back(empty_array(c));
  return a;
}

}  // namespace

RecordBatch empty_batch(const std::vector<ArrayPlan>& plans) {
  RecordBatch batch;
  for (const auto& p : plans) batch.columns.push_back(empty_array(p));
  return batch;
}

}  // namespace parq
