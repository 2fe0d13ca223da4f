// Schema::from_elements: turns the footer's depth-first element list into the
// node tree, validating as it goes (see schema.h for what is rejected and
// what is tolerated).
//
// The walk is iterative with an explicit stack of open groups, bounded by
// kMaxSchemaDepth, so a hostile footer cannot exhaust the call stack.
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "parq/error.h"
#include "parq/schema/schema.h"

namespace parq::detail {
namespace {

using format::FieldRepetitionType;
using format::SchemaElement;
using format::Type;

static_assert(kMaxSchemaDepth < std::numeric_limits<int16_t>::max(),
              "levels grow by at most one per depth and must fit int16_t");

std::string quoted_name(const std::string& name) {
  // Hostile names can be megabytes long; the start identifies the element.
  constexpr size_t kShown = 64;
  if (name.size() <= kShown) return "\"" + name + "\"";
  return "\"" + name.substr(0, kShown) + "...\"";
}

bool known_type(Type t) {
  auto v = static_cast<int32_t>(t);
  return v >= static_cast<int32_t>(Type::BOOLEAN) && v <= static_cast<int32_t>(Type::FIXED_LEN_BYTE_ARRAY);
}

bool known_repetition(FieldRepetitionType r) {
  auto v = static_cast<int32_t>(r);
  return v >= static_cast<int32_t>(FieldRepetitionType::REQUIRED) &&
         v <= static_cast<int32_t>(FieldRepetitionType::REPEATED);
}

std::optional<format::ConvertedType> known_converted(std::optional<format::ConvertedType> c) {
  if (!c) return std::nullopt;
  auto v = static_cast<int32_t>(*c);
  if (v < static_cast<int32_t>(format::ConvertedType::UTF8) ||
      v > static_cast<int32_t>(format::ConvertedType::INTERVAL))
    return std::nullopt;
  return c;
}

std::string type_name(Type physical, int32_t type_length) {
  std::string name = format::to_string(physical);
  if (physical == Type::FIXED_LEN_BYTE_ARRAY) name += '(' + std::to_string(type_length) + ')';
  return name;
}

// What a leaf's annotation resolves to once checked against its storage.
struct LeafAnnotation {
  format::LogicalType logical;
  std::optional<format::ConvertedType> converted;
  bool order_unknown = false;  // dropped, or from a newer writer
};

}  // namespace

class SchemaBuilder {
 public:
  explicit SchemaBuilder(const std::vector<SchemaElement>& elements) : elements_(elements) {}

  Schema build() {
    if (elements_.empty()) throw Error("schema: the element list is empty; it needs at least the root");
    schema_.elements_ = elements_;
    schema_.nodes_.reserve(elements_.size());
    path_bytes_.reserve(elements_.size());
    // Every leaf adds a column; reserving for the worst case avoids moving
    // descriptors (each holds a LogicalType) as the vector grows.
    schema_.columns_.reserve(elements_.size());
    schema_.column_by_path_.reserve(elements_.size());
    add_root();
    while (!open_.empty()) step();
    if (next_ < elements_.size())
      fail(next_, "is left over: the root's subtree ends at element " + std::to_string(next_ - 1));
    return std::move(schema_);
  }

 private:
  // A group whose children are still being read.
  struct OpenGroup {
    size_t node;
    int32_t declared;
    int32_t remaining;
  };

  [[noreturn]] void fail(size_t i, const std::string& what) const {
    throw Error("schema element " + std::to_string(i) + " " + quoted_name(elements_[i].name) + " " + what);
  }

  int32_t checked_num_children(size_t i) const {
    const SchemaElement& e = elements_[i];
    int32_t n = e.num_children.value_or(0);
    if (n < 0) fail(i, "has a negative num_children (" + std::to_string(n) + ")");
    size_t following = elements_.size() - i - 1;
    if (static_cast<size_t>(n) > following)
      fail(i,
           "declares " + std::to_string(n) + " children but only " + std::to_string(following) + " elements follow it");
    return n;
  }

  void add_root() {
    const SchemaElement& e = elements_[0];
    // Old and odd writers mark the root REPEATED or give it a physical type
    // beside its children; other readers take it as the root group all the
    // same, and so does this one. Its stored element is made a plain group,
    // so that a rewrite writes a valid root.
    if (e.type && !e.num_children)
      fail(0, "is the root, which must be a group, but has physical type " + std::string(format::to_string(*e.type)) +
                  " and no children");
    check_repetition(0);
    SchemaElement& stored = schema_.elements_[0];
    stored.type.reset();
    stored.type_length.reset();
    stored.repetition_type.reset();
    int32_t n = checked_num_children(0);
    SchemaNode root;
    fill_common(root, 0);
    root.repetition_ = FieldRepetitionType::REQUIRED;  // levels start below the root
    push_node(std::move(root), 0);
    path_bytes_.push_back(0);
    open_.push_back({0, n, n});
  }

  void step() {
    OpenGroup& top = open_.back();
    if (top.remaining == 0) {
      open_.pop_back();
      return;
    }
    if (next_ >= elements_.size())
      fail(top.node, "declares " + std::to_string(top.declared) + " children but the element list ends after " +
                         std::to_string(top.declared - top.remaining) + " of them");
    --top.remaining;
    size_t parent = top.node;  // `top` dangles once add_child opens a group
    add_child(next_++, parent);
  }

  void check_repetition(size_t i) const {
    const auto& r = elements_[i].repetition_type;
    if (r && !known_repetition(*r)) fail(i, "has an invalid repetition_type " + std::string(format::to_string(*r)));
  }

  // A leaf has a type; a group has num_children and no type.
  bool is_group(size_t i) const {
    const SchemaElement& e = elements_[i];
    if (e.num_children && *e.num_children < 0)
      fail(i, "has a negative num_children (" + std::to_string(*e.num_children) + ")");
    if (e.type) {
      if (e.num_children.value_or(0) > 0)
        fail(i, "has both a physical type (" + std::string(format::to_string(*e.type)) + ") and " +
                    std::to_string(*e.num_children) + " children");
      return false;
    }
    if (!e.num_children) fail(i, "is a leaf without a physical type (it has neither a type nor num_children)");
    return true;
  }

  void fill_common(SchemaNode& node, size_t i) const {
    const SchemaElement& e = elements_[i];
    node.name_ = e.name;
    node.repetition_ = e.repetition_type.value_or(FieldRepetitionType::REQUIRED);
    node.converted_type_ = known_converted(e.converted_type);
    node.field_id_ = e.field_id;
    node.element_index_ = i;
  }

  void set_levels(SchemaNode& node, const SchemaNode& parent) const {
    node.parent_ = &parent;
    bool root_parent = parent.is_root();
    int16_t def = root_parent ? 0 : parent.max_definition_level_;
    int16_t rep = root_parent ? 0 : parent.max_repetition_level_;
    if (node.repetition_ != FieldRepetitionType::REQUIRED) ++def;
    if (node.repetition_ == FieldRepetitionType::REPEATED) ++rep;
    node.max_definition_level_ = def;
    node.max_repetition_level_ = rep;
  }

  void add_child(size_t i, size_t parent) {
    size_t depth = open_.size();
    if (depth > static_cast<size_t>(kMaxSchemaDepth))
      fail(i, "nests deeper than the limit of " + std::to_string(kMaxSchemaDepth) + " levels");
    check_repetition(i);
    SchemaNode node;
    fill_common(node, i);
    set_levels(node, schema_.nodes_[parent]);
    add_path_bytes(i, parent);
    if (is_group(i)) {
      add_group(std::move(node), i, parent);
    } else {
      add_leaf(std::move(node), i, parent);
    }
  }

  void add_path_bytes(size_t i, size_t parent) {
    path_bytes_.push_back(path_bytes_[parent] + sizeof(std::string) + elements_[i].name.size());
  }

  void add_group(SchemaNode node, size_t i, size_t parent) {
    format::LogicalType logical = resolve_logical_type(elements_[i]);
    if (logical_type_applies_to_group(logical)) node.logical_type_ = std::move(logical);
    int32_t n = checked_num_children(i);
    push_node(std::move(node), parent);
    open_.push_back({i, n, n});
  }

  void add_leaf(SchemaNode node, size_t i, size_t parent) {
    const SchemaElement& e = elements_[i];
    Type physical = *e.type;
    if (!known_type(physical)) fail(i, "has an unknown physical type " + std::string(format::to_string(physical)));
    int32_t length = fixed_length(i);
    LeafAnnotation a = leaf_annotation(i, physical, length);
    node.is_leaf_ = true;
    node.physical_type_ = physical;
    node.type_length_ = length;
    node.logical_type_ = a.logical;
    node.column_index_ = static_cast<int>(schema_.columns_.size());
    const SchemaNode& placed = push_node(std::move(node), parent);
    add_column(placed, ValueType{physical, length, std::move(a.logical), a.converted}, a.order_unknown);
  }

  int32_t fixed_length(size_t i) const {
    const SchemaElement& e = elements_[i];
    if (*e.type != Type::FIXED_LEN_BYTE_ARRAY) return 0;
    if (!e.type_length || *e.type_length <= 0)
      fail(i, "is FIXED_LEN_BYTE_ARRAY without a positive type_length (" +
                  (e.type_length ? std::to_string(*e.type_length) : std::string("none")) + ")");
    return *e.type_length;
  }

  LeafAnnotation leaf_annotation(size_t i, Type physical, int32_t length) const {
    const SchemaElement& e = elements_[i];
    LeafAnnotation a{resolve_logical_type(e), known_converted(e.converted_type)};
    bool newer = e.logical_type && !has_logical_type(*e.logical_type);
    if (a.logical.DECIMAL) check_decimal(i, *a.logical.DECIMAL, physical, length);
    if (!annotation_fits(a, physical, length)) return LeafAnnotation{{}, std::nullopt, true};
    // INTERVAL or MAP_KEY_VALUE beside a LogicalType contradict it; a reader
    // that looks at the converted type first would decode the wrong way.
    if (has_logical_type(a.logical) && a.converted &&
        !has_logical_type(logical_type_from_converted(*a.converted, 0, 1)))
      a.converted.reset();
    a.order_unknown = newer && !has_logical_type(a.logical);
    return a;
  }

  static bool annotation_fits(const LeafAnnotation& a, Type physical, int32_t length) {
    if (has_logical_type(a.logical)) return logical_type_applies_to_primitive(a.logical, physical, length);
    if (!a.converted) return true;
    // Only the converted types without a LogicalType counterpart get here.
    if (*a.converted == format::ConvertedType::INTERVAL) return physical == Type::FIXED_LEN_BYTE_ARRAY && length == 12;
    return false;  // MAP_KEY_VALUE annotates groups
  }

  void check_decimal(size_t i, const format::DecimalType& d, Type physical, int32_t length) const {
    int32_t max = max_decimal_precision(physical, length);
    std::string where = "DECIMAL(" + std::to_string(d.precision) + "," + std::to_string(d.scale) + ")";
    if (max == 0) fail(i, "has " + where + ", which cannot annotate " + type_name(physical, length));
    if (d.precision < 1) fail(i, "has " + where + ": the precision must be at least 1");
    if (d.scale < 0 || d.scale > d.precision)
      fail(i, "has " + where + ": the scale must be between 0 and the precision");
    if (d.precision > max)
      fail(i,
           "has " + where + ": " + type_name(physical, length) + " holds at most " + std::to_string(max) + " digits");
  }

  const SchemaNode& push_node(SchemaNode node, size_t parent) {
    schema_.nodes_.push_back(std::move(node));
    SchemaNode& placed = schema_.nodes_.back();
    if (placed.element_index_ != 0) schema_.nodes_[parent].children_.push_back(&placed);
    return placed;
  }

  void add_column(const SchemaNode& leaf, ValueType type, bool order_unknown) {
    size_t i = leaf.element_index_;
    total_path_bytes_ += path_bytes_[i];
    if (total_path_bytes_ > kMaxSchemaPathBytes)
      fail(i, "brings the leaf paths above the limit of " + std::to_string(kMaxSchemaPathBytes) + " bytes");
    ColumnDescriptor c;
    c.column_index = leaf.column_index_;
    c.path = leaf.path();
    c.sort_order = order_unknown ? SortOrder::kUnknown : sort_order(type);
    c.type = std::move(type);
    c.max_definition_level = leaf.max_definition_level_;
    c.max_repetition_level = leaf.max_repetition_level_;
    c.repetition = leaf.repetition_;
    c.node = &leaf;
    schema_.column_by_path_.try_emplace(c.dotted_path(), c.column_index);
    schema_.columns_.push_back(std::move(c));
  }

  const std::vector<SchemaElement>& elements_;
  Schema schema_{Schema::EmptyTag{}};
  std::vector<OpenGroup> open_;
  // Per element: sizeof(std::string) + name length, summed from below the
  // root down to it. Indexed by element, as nodes are created in order.
  std::vector<size_t> path_bytes_;
  size_t total_path_bytes_ = 0;
  size_t next_ = 1;
};

}  // namespace parq::detail

namespace parq {

Schema Schema::from_elements(const std::vector<format::SchemaElement>& elements) {
  return detail::SchemaBuilder(elements).build();
}

}  // namespace parq
