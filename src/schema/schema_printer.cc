// Schema::to_string: parquet-java's message notation (what its
// MessageTypeParser reads and parquet-cli prints).
#include <cctype>
#include <string>

#include "parq/schema/schema.h"

namespace parq {
namespace {

std::string lower(const char* s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string physical_name(const SchemaNode& leaf) {
  format::Type t = *leaf.physical_type();
  if (t == format::Type::BYTE_ARRAY) return "binary";
  if (t == format::Type::FIXED_LEN_BYTE_ARRAY)
    return "fixed_len_byte_array(" + std::to_string(leaf.type_length()) + ")";
  return lower(format::to_string(t));
}

// The legacy annotations without a LogicalType that survived validation:
// INTERVAL on a leaf (kept in its column's ValueType), MAP_KEY_VALUE on a group.
const char* legacy_annotation(const Schema& schema, const SchemaNode& node) {
  if (node.is_leaf()) {
    auto converted = schema.column(static_cast<size_t>(node.column_index())).type.converted;
    if (converted == format::ConvertedType::INTERVAL) return "INTERVAL";
    return nullptr;
  }
  if (node.converted_type() == format::ConvertedType::MAP_KEY_VALUE) return "MAP_KEY_VALUE";
  return nullptr;
}

std::string annotation(const Schema& schema, const SchemaNode& node) {
  if (has_logical_type(node.logical_type())) return " (" + logical_type_to_string(node.logical_type()) + ")";
  if (const char* legacy = legacy_annotation(schema, node)) return std::string(" (") + legacy + ")";
  return "";
}

std::string field_line(const Schema& schema, const SchemaNode& node) {
  std::string line = lower(format::to_string(node.repetition()));
  line += ' ';
  line += node.is_leaf() ? physical_name(node) : "group";
  line += ' ';
  line += node.name();
  line += annotation(schema, node);
  if (node.field_id()) line += " = " + std::to_string(*node.field_id());
  return line;
}

// Recursion is safe: from_elements bounds the depth at kMaxSchemaDepth.
void print_fields(const Schema& schema, const SchemaNode& group, size_t depth, std::string& out) {
  std::string indent(2 * depth, ' ');
  for (const SchemaNode* child : group.children()) {
    out += indent + field_line(schema, *child);
    if (child->is_leaf()) {
      out += ";\n";
      continue;
    }
    out += " {\n";
    print_fields(schema, *child, depth + 1, out);
    out += indent + "}\n";
  }
}

}  // namespace

std::string Schema::to_string() const {
  std::string out = "message " + root().name() + " {\n";
  print_fields(*this, root(), 1, out);
  out += "}\n";
  return out;
}

}  // namespace parq
