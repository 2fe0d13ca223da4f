// The schema of a file: the tree described by the footer's flat, depth-first
// list of SchemaElements, with each node's Dremel levels and one
// ColumnDescriptor per leaf (in the order of the row groups' column chunks).
//
// Schema::from_elements validates the list. It throws parq::Error naming the
// element (index and name) for:
//   - an empty list; a root with a physical type and no children;
//   - num_children negative, more than the elements left, or a subtree that
//     runs past the end of the list; elements left over after the root's
//     subtree;
//   - an element with both a type and children, or with neither (a leaf
//     without a type); a physical type or repetition outside the enums;
//   - FIXED_LEN_BYTE_ARRAY without a positive type_length;
//   - DECIMAL with precision < 1, scale < 0 or > precision, precision above
//     what the physical type holds (INT32: 9, INT64: 18,
//     FIXED_LEN_BYTE_ARRAY(n): floor(log10(2^(8n-1) - 1))), or on a physical
//     type that cannot store decimals. The spec calls these errors, and
//     reading the unscaled numbers instead would silently give values off by
//     10^scale;
//   - nesting deeper than kMaxSchemaDepth, and leaf paths that together
//     would take more than kMaxSchemaPathBytes (a hostile footer could
//     otherwise ask for depth x leaves strings). The builder is iterative, so
//     no schema can exhaust the stack.
//
// Leniency, for files from the wild:
//   - The root is the root group whatever its repetition (REQUIRED,
//     OPTIONAL and REPEATED roots occur) and even with a physical type beside
//     its children; it adds no level, and elements() holds it as a plain group.
//   - A non-root element without repetition_type is REQUIRED, the Thrift
//     default, as Arrow C++ reads it.
//   - An empty group (num_children = 0, no type) is kept and has no leaves.
//   - An annotation that does not fit its node (STRING on INT32, DATE on
//     BYTE_ARRAY, UUID on other than FIXED_LEN_BYTE_ARRAY(16), INTEGER(64)
//     on INT32, a bit width other than 8/16/32/64, LIST on a primitive,
//     STRING on a group, INTERVAL not on FIXED_LEN_BYTE_ARRAY(12), a TIME
//     unit this version does not know, ...) is dropped: the values read as
//     their physical type, and the column's sort order becomes kUnknown so
//     its statistics are not trusted. The node still reports the element's
//     original converted_type.
//   - A LogicalType from a newer writer (no member this version knows) falls
//     back to converted_type; with none, the column reads as its physical
//     type with sort order kUnknown.
//   - A converted_type outside the enum is ignored. type_length on other
//     than FIXED_LEN_BYTE_ARRAY is ignored.
//   - Duplicate names are allowed; find_column returns the first match.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "parq/format/metadata.h"
#include "parq/schema/logical_type.h"
#include "parq/schema/value_type.h"

namespace parq {

// Deepest node accepted, the root being at depth 0. Levels grow by at most
// one per depth, so they stay far below INT16_MAX.
inline constexpr int kMaxSchemaDepth = 1000;
// Budget for all leaves' path components (sizeof(std::string) + name length
// each).
inline constexpr size_t kMaxSchemaPathBytes = size_t{64} << 20;

namespace detail {
class SchemaBuilder;
}

class SchemaNode {
 public:
  // Nodes live inside their Schema, which other nodes and columns point into.
  SchemaNode(const SchemaNode&) = delete;
  SchemaNode& operator=(const SchemaNode&) = delete;
  SchemaNode(SchemaNode&&) = default;
  SchemaNode& operator=(SchemaNode&&) = default;

  const std::string& name() const { return name_; }
  // REQUIRED for a root without one.
  format::FieldRepetitionType repetition() const { return repetition_; }
  bool is_leaf() const { return is_leaf_; }
  bool is_group() const { return !is_leaf_; }
  bool is_root() const { return parent_ == nullptr; }

  // Leaves only; nullopt for groups.
  std::optional<format::Type> physical_type() const { return physical_type_; }
  // FIXED_LEN_BYTE_ARRAY width; 0 otherwise.
  int32_t type_length() const { return type_length_; }
  // Resolved and validated; empty when none or dropped (see the file comment).
  const format::LogicalType& logical_type() const { return logical_type_; }
  // As in the element (nullopt when outside the enum).
  std::optional<format::ConvertedType> converted_type() const { return converted_type_; }
  std::optional<int32_t> field_id() const { return field_id_; }

  const std::vector<const SchemaNode*>& children() const { return children_; }
  size_t num_children() const { return children_.size(); }
  // Throws parq::Error when `i` is out of range.
  const SchemaNode& child(size_t i) const;
  const SchemaNode* parent() const { return parent_; }

  // Position of this node's SchemaElement in Schema::elements().
  size_t element_index() const { return element_index_; }
  int16_t max_definition_level() const { return max_definition_level_; }
  int16_t max_repetition_level() const { return max_repetition_level_; }
  // Leaf column index; -1 for groups.
  int column_index() const { return column_index_; }
  // Names from below the root down to this node; empty for the root.
  std::vector<std::string> path() const;

 private:
  friend class detail::SchemaBuilder;
  SchemaNode() = default;

  std::string name_;
  format::FieldRepetitionType repetition_ = format::FieldRepetitionType::REQUIRED;
  bool is_leaf_ = false;
  std::optional<format::Type> physical_type_;
  int32_t type_length_ = 0;
  format::LogicalType logical_type_;
  std::optional<format::ConvertedType> converted_type_;
  std::optional<int32_t> field_id_;
  std::vector<const SchemaNode*> children_;
  const SchemaNode* parent_ = nullptr;
  size_t element_index_ = 0;
  int16_t max_definition_level_ = 0;
  int16_t max_repetition_level_ = 0;
  int column_index_ = -1;
};

// A leaf column. `node` points into the Schema it came from and is valid as
// long as that Schema (moving the Schema keeps it valid).
struct ColumnDescriptor {
  int column_index = 0;
  std::vector<std::string> path;
  ValueType type;
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  format::FieldRepetitionType repetition = format::FieldRepetitionType::REQUIRED;
  // sort_order(type), except kUnknown when the element's annotation was
  // dropped or is unknown to this version.
  SortOrder sort_order = SortOrder::kUnknown;
  const SchemaNode* node = nullptr;

  // Path components joined by '.', as in path_in_schema printouts.
  std::string dotted_path() const;
};

class Schema {
 public:
  // An empty message named "schema" with no columns.
  Schema();
  // Copies rebuild the tree so that node pointers refer to the copy.
  Schema(const Schema& other);
  Schema& operator=(const Schema& other);
  Schema(Schema&&) noexcept = default;
  Schema& operator=(Schema&&) noexcept = default;

  // Builds and validates; see the file comment for what is rejected.
  static Schema from_elements(const std::vector<format::SchemaElement>& elements);

  const SchemaNode& root() const { return nodes_.front(); }
  size_t num_columns() const { return columns_.size(); }
  // Throws parq::Error when `i` is out of range.
  const ColumnDescriptor& column(size_t i) const;
  const std::vector<ColumnDescriptor>& columns() const { return columns_; }
  // Index of the leaf whose dotted path matches exactly; -1 if none.
  int find_column(std::string_view dotted_path) const;

  // Every node, in element order (node(0) is the root).
  size_t num_nodes() const { return nodes_.size(); }
  // Throws parq::Error when out of range, as element() does.
  const SchemaNode& node(size_t element_index) const;

  // The elements as given, so the schema can be written back unchanged.
  const std::vector<format::SchemaElement>& elements() const { return elements_; }
  // The elements of top-level field `field`'s subtree, in schema order.
  std::vector<format::SchemaElement> field_elements(size_t field) const;
  const format::SchemaElement& element(size_t i) const;

  // parquet-java's message notation, two-space indented, one field a line:
  //   message schema {
  //     required int64 id = 1;
  //     optional binary name (STRING);
  //     optional group tags (LIST) {
  //       repeated group list {
  //         optional binary element (STRING);
  //       }
  //     }
  //     optional fixed_len_byte_array(12) span (INTERVAL);
  //   }
  // Annotations are the resolved, validated ones (logical_type_to_string);
  // a node without one but with INTERVAL or MAP_KEY_VALUE shows that name.
  std::string to_string() const;

 private:
  friend class detail::SchemaBuilder;
  struct EmptyTag {};
  // No nodes at all: only the builder's starting point.
  explicit Schema(EmptyTag) {}

  std::vector<format::SchemaElement> elements_;
  // Built once with its final size, so node and column pointers into it stay
  // valid (and survive moves of the vector).
  std::vector<SchemaNode> nodes_;
  std::vector<ColumnDescriptor> columns_;
  std::unordered_map<std::string, int> column_by_path_;
};

}  // namespace parq
