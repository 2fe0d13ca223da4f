// Record shredding (Dremel): walks each field's arrays from the top down,
// keeping the slots of the current node as items: a range of slots whose
// entries start with a given repetition level, or a run of entries already
// decided (a null or an empty list further up) that only carries levels.
// A struct splits ranges around its null slots; a list replaces each slot by
// its elements' range (or a decided entry when null or empty); a leaf turns
// the items into levels and value slots. Flat columns without nulls stay one
// range from top to bottom.
#include "shredder.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <deque>

#include "parq/error.h"
#include "util/bits.h"

namespace parq {
namespace {

struct Item {
  int64_t begin = 0;
  int64_t end = 0;
  int16_t rep_first = 0;  // repetition level of the first entry
  int16_t rep_rest = 0;   // ... and of the following ones
  int16_t def = -1;       // >= 0: end - begin entries decided at this level
  bool decided() const { return def >= 0; }
};

using Items = std::vector<Item>;

bool has_nulls(const Array& a) { return !a.validity.empty() && a.null_count != 0; }

bool bit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }

int64_t count_valid(const Array& a, int64_t begin, int64_t end) {
  if (!has_nulls(a)) return end - begin;
  return count_set_bits(a.validity.data(), begin, end);
}

// Slots of `a` in `items` with nulls split out as decided entries at
// `null_def`.
void split_nulls(const Items& in, const Array& a, int16_t null_def, Items& out) {
  out.clear();
  const uint8_t* bits = a.validity.data();
  for (const Item& it : in) {
    if (it.decided()) {
      out.push_back(it);
      continue;
    }
    int64_t i = it.begin;
    while (i < it.end) {
      const bool valid = bit(bits, i);
      int64_t j = i + 1;
      while (j < it.end && bit(bits, j) == valid) ++j;
      Item piece{i, j, i == it.begin ? it.rep_first : it.rep_rest, it.rep_rest, valid ? int16_t{-1} : null_def};
      out.push_back(piece);
      i = j;
    }
  }
}

// Slots of list/map `a` in `items` -> their elements' ranges.
// Returns false when a slot it reaches is null although the list is not
// nullable.
bool expand_lists(const Items& in, const Array& a, const ArrayPlan& p, int16_t def_present, Items& out) {
  out.clear();
  const int32_t* offsets = a.offsets_data();
  const bool nulls = has_nulls(a);
  const bool nullable = p.null_below > def_present;
  const uint8_t* bits = a.validity.data();
  const int16_t empty_def = static_cast<int16_t>(p.empty_below - 1);
  for (const Item& it : in) {
    if (it.decided()) {
      out.push_back(it);
      continue;
    }
    for (int64_t i = it.begin; i < it.end; ++i) {
      const int16_t rep = i == it.begin ? it.rep_first : it.rep_rest;
      if (nulls && !bit(bits, i)) {
        if (!nullable) return false;
        out.push_back({i, i + 1, rep, rep, def_present});
      } else if (offsets[i] == offsets[i + 1]) {
        out.push_back({i, i + 1, rep, rep, empty_def});
      } else {
        out.push_back({offsets[i], offsets[i + 1], rep, p.element_rep, -1});
      }
    }
  }
  return true;
}

// Whether every slot that `items` reach is valid.
bool reached_slots_valid(const Items& items, const Array& a) {
  if (!has_nulls(a)) return true;
  for (const Item& it : items)
    if (!it.decided() && count_valid(a, it.begin, it.end) != it.end - it.begin) return false;
  return true;
}

void append_levels(Buffer& levels, int16_t first, int16_t rest, int64_t n) {
  int16_t* out = reinterpret_cast<int16_t*>(levels.extend(static_cast<size_t>(n) * sizeof(int16_t)));
  out[0] = first;
  std::fill(out + 1, out + n, rest);
}

void append_defs(Buffer& levels, const Array& a, int64_t begin, int64_t end, int16_t valid_def, int16_t null_def) {
  int16_t* out = reinterpret_cast<int16_t*>(levels.extend(static_cast<size_t>(end - begin) * sizeof(int16_t)));
  if (!has_nulls(a)) {
    std::fill(out, out + (end - begin), valid_def);
    return;
  }
  const uint8_t* bits = a.validity.data();
  for (int64_t i = begin; i < end; ++i) *out++ = bit(bits, i) ? valid_def : null_def;
}

class FieldShredder {
 public:
  FieldShredder(const Schema& schema, std::vector<ShreddedLeaf>& out) : schema_(schema), out_(out) {}

  void shred(const ArrayPlan& p, const Array& a, const Items& items, int16_t def_present) {
    path_.push_back(&p.name);
    const bool nullable = p.null_below > def_present;
    switch (p.kind) {
      case ArrayKind::kLeaf:
        if (!nullable && !reached_slots_valid(items, a)) fail_required();
        emit_leaf(p, a, items, def_present);
        break;
      case ArrayKind::kStruct: {
        const Items* slots = &items;
        if (has_nulls(a)) {
          if (!nullable && !reached_slots_valid(items, a)) fail_required();
          if (nullable) {
            scratch_.emplace_back();
            split_nulls(items, a, def_present, scratch_.back());
            slots = &scratch_.back();
          }
        }
        for (size_t i = 0; i < p.children.size(); ++i) shred(p.children[i], a.children[i], *slots, p.null_below);
        break;
      }
      case ArrayKind::kList:
      case ArrayKind::kMap: {
        Items elements;
        if (!expand_lists(items, a, p, def_present, elements)) fail_required();
        for (size_t i = 0; i < p.children.size(); ++i) shred(p.children[i], a.children[i], elements, p.empty_below);
        break;
      }
    }
    path_.pop_back();
  }

 private:
  // Nulls under a null parent are allowed (Arrow leaves them unspecified);
  // only slots the rows reach must be valid in a REQUIRED field.
  [[noreturn]] void fail_required() const {
    std::string path;
    for (const std::string* name : path_) path += (path.empty() ? "" : ".") + *name;
    throw Error("column " + path + ": is REQUIRED but has nulls", ErrorKind::kInvalidArgument);
  }

  void emit_leaf(const ArrayPlan& p, const Array& a, const Items& items, int16_t def_present) {
    ShreddedLeaf& leaf = out_[next_leaf_++];
    leaf.clear();
    leaf.column = p.leaf;
    leaf.array = &a;
    const ColumnDescriptor& column = schema_.column(static_cast<size_t>(p.leaf));
    const bool has_def = column.max_definition_level > 0;
    const bool has_rep = column.max_repetition_level > 0;
    for (const Item& it : items) {
      const int64_t n = it.end - it.begin;
      leaf.num_entries += n;
      if (has_rep) append_levels(leaf.rep, it.rep_first, it.rep_rest, n);
      if (it.decided()) {
        if (has_def) append_levels(leaf.def, it.def, it.def, n);
        continue;
      }
      if (has_def) append_defs(leaf.def, a, it.begin, it.end, p.null_below, def_present);
      if (!leaf.ranges.empty() && leaf.ranges.back().end == it.begin) {
        leaf.ranges.back().end = it.end;
      } else {
        leaf.ranges.push_back({it.begin, it.end});
      }
      leaf.num_values += count_valid(a, it.begin, it.end);
    }
  }

  const Schema& schema_;
  std::vector<ShreddedLeaf>& out_;
  size_t next_leaf_ = 0;
  // Split item lists live until the field is done (children read them); a
  // deque keeps them in place as more are added.
  std::deque<Items> scratch_;
  std::vector<const std::string*> path_;
};

// ---- checks ----

std::string join(const std::string& parent, const std::string& name) {
  return parent.empty() ? name : parent + "." + name;
}

const char* kind_name(ArrayKind k) {
  switch (k) {
    case ArrayKind::kLeaf:
      return "a leaf";
    case ArrayKind::kStruct:
      return "a struct";
    case ArrayKind::kList:
      return "a list";
    case ArrayKind::kMap:
      return "a map";
  }
  return "?";
}

class Checker {
 public:
  explicit Checker(const Schema& schema) : schema_(schema) {}

  void check(const ArrayPlan& p, const Array& a, int64_t length, const std::string& parent) {
    const std::string path = join(parent, p.name);
    if (a.kind != p.kind)
      fail(path, std::string("is ") + kind_name(a.kind) + " but the schema has " + kind_name(p.kind));
    if (a.length != length)
      fail(path, "has " + std::to_string(a.length) + " slots where " + std::to_string(length) + " are expected");
    if (!a.validity.empty() && a.validity.size() < static_cast<size_t>((length + 7) / 8))
      fail(path, "has a validity bitmap shorter than its length");
    const int64_t nulls = a.validity.empty() ? 0 : length - count_valid(a, 0, length);
    if (a.null_count != nulls && !(a.validity.empty() && a.null_count == 0))
      fail(path, "says it has " + std::to_string(a.null_count) + " nulls but its bitmap has " + std::to_string(nulls));
    if (a.children.size() != p.children.size())
      fail(path, "has " + std::to_string(a.children.size()) + " children where the schema has " +
                     std::to_string(p.children.size()));
    switch (p.kind) {
      case ArrayKind::kLeaf:
        check_leaf(p, a, length, path);
        return;
      case ArrayKind::kStruct:
        for (size_t i = 0; i < p.children.size(); ++i) check(p.children[i], a.children[i], length, path);
        return;
      case ArrayKind::kList:
      case ArrayKind::kMap: {
        const int64_t elements = check_offsets(a, length, path, "elements", INT64_MAX);
        for (size_t i = 0; i < p.children.size(); ++i) check(p.children[i], a.children[i], elements, path);
        return;
      }
    }
  }

 private:
  [[noreturn]] static void fail(const std::string& path, const std::string& what) {
    throw Error("column " + path + ": " + what, ErrorKind::kInvalidArgument);
  }

  // Checks offsets[0..length] and returns the last one (what the child or
  // the data must hold); `bound` caps it.
  static int64_t check_offsets(const Array& a, int64_t length, const std::string& path, const char* what,
                               int64_t bound) {
    if (a.offsets.size() < static_cast<size_t>(length + 1) * sizeof(int32_t))
      fail(path, "has " + std::to_string(a.offsets.size() / 4) + " offsets for " + std::to_string(length) + " slots");
    const int32_t* o = a.offsets_data();
    if (o[0] < 0) fail(path, "has a negative first offset");
    for (int64_t i = 0; i < length; ++i)
      if (o[i + 1] < o[i]) fail(path, "has decreasing offsets at slot " + std::to_string(i));
    if (o[length] > bound) fail(path, std::string("has offsets past its ") + what);
    return o[length];
  }

  void check_leaf(const ArrayPlan& p, const Array& a, int64_t length, const std::string& path) {
    const ValueType& want = schema_.column(static_cast<size_t>(p.leaf)).type;
    if (a.type.physical != want.physical ||
        (want.physical == format::Type::FIXED_LEN_BYTE_ARRAY && a.type.type_length != want.type_length))
      fail(path, std::string("holds ") + format::to_string(a.type.physical) + " values but the schema says " +
                     format::to_string(want.physical));
    if (want.physical == format::Type::BYTE_ARRAY) {
      check_offsets(a, length, path, "data", static_cast<int64_t>(a.values.size()));
      return;
    }
    const size_t need = want.physical == format::Type::BOOLEAN
                            ? static_cast<size_t>((length + 7) / 8)
                            : static_cast<size_t>(length) * static_cast<size_t>(a.value_width());
    if (a.values.size() < need)
      fail(path,
           "has " + std::to_string(a.values.size()) + " value bytes where " + std::to_string(need) + " are needed");
  }

  const Schema& schema_;
};

void collect_leaves(const ArrayPlan& p, std::vector<int>& out) {
  if (p.kind == ArrayKind::kLeaf) out.push_back(p.leaf);
  for (const auto& c : p.children) collect_leaves(c, out);
}

}  // namespace

Shredder::Shredder(const Schema& schema) : schema_(&schema) {
  std::vector<int> all(schema.num_columns());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  plans_ = plan_arrays(schema, all);
  for (const auto& p : plans_) {
    field_leaves_.emplace_back();
    collect_leaves(p, field_leaves_.back());
  }
}

void Shredder::check(const RecordBatch& batch) const {
  if (batch.columns.size() != plans_.size())
    throw Error("the batch has " + std::to_string(batch.columns.size()) + " columns where the schema has " +
                    std::to_string(plans_.size()) + " fields",
                ErrorKind::kInvalidArgument);
  if (batch.num_rows < 0) throw Error("the batch has a negative row count", ErrorKind::kInvalidArgument);
  Checker checker(*schema_);
  for (size_t i = 0; i < plans_.size(); ++i) checker.check(plans_[i], batch.columns[i], batch.num_rows, "");
}

void Shredder::shred(const RecordBatch& batch, size_t field, int64_t row_begin, int64_t row_end,
                     std::vector<ShreddedLeaf>& out) const {
  out.resize(field_leaves_[field].size());
  FieldShredder shredder(*schema_, out);
  Items top{{row_begin, row_end, 0, 0, -1}};
  if (row_begin == row_end) top.clear();
  shredder.shred(plans_[field], batch.columns[field], top, 0);
}

}  // namespace parq
