// Schema, SchemaNode and ColumnDescriptor accessors that need more than a
// line: paths, lookups and copying.
#include "parq/schema/schema.h"

#include <algorithm>

#include "parq/error.h"

namespace parq {
namespace {

std::vector<format::SchemaElement> empty_message() {
  format::SchemaElement root;
  root.name = "schema";
  root.num_children = 0;
  return {root};
}

[[noreturn]] void out_of_range(const char* what, size_t i, size_t size) {
  throw Error(std::string(what) + " index " + std::to_string(i) + " is out of range; there are " + std::to_string(size),
              ErrorKind::kInvalidArgument);
}

}  // namespace

const SchemaNode& SchemaNode::child(size_t i) const {
  if (i >= children_.size()) out_of_range("child", i, children_.size());
  return *children_[i];
}

std::vector<std::string> SchemaNode::path() const {
  std::vector<std::string> out;
  for (const SchemaNode* n = this; n->parent_ != nullptr; n = n->parent_) out.push_back(n->name_);
  std::reverse(out.begin(), out.end());
  return out;
}

std::string ColumnDescriptor::dotted_path() const {
  std::string out;
  for (const std::string& part : path) {
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

Schema::Schema() : Schema(from_elements(empty_message())) {}

// Rebuilding is simpler than re-pointing every parent, child and column
// pointer, and the elements were already validated once.
Schema::Schema(const Schema& other) : Schema(from_elements(other.elements_)) {}

Schema& Schema::operator=(const Schema& other) {
  if (this != &other) *this = from_elements(other.elements_);
  return *this;
}

const ColumnDescriptor& Schema::column(size_t i) const {
  if (i >= columns_.size()) out_of_range("column", i, columns_.size());
  return columns_[i];
}

const SchemaNode& Schema::node(size_t element_index) const {
  if (element_index >= nodes_.size()) out_of_range("schema node", element_index, nodes_.size());
  return nodes_[element_index];
}

const format::SchemaElement& Schema::element(size_t i) const {
  if (i >= elements_.size()) out_of_range("schema element", i, elements_.size());
  return elements_[i];
}

int Schema::find_column(std::string_view dotted_path) const {
  auto it = column_by_path_.find(std::string(dotted_path));
  return it == column_by_path_.end() ? -1 : it->second;
}

std::vector<format::SchemaElement> Schema::field_elements(size_t field) const {
  const SchemaNode& top = root();
  const size_t begin = top.child(field).element_index();
  const size_t end = field + 1 < top.num_children() ? top.child(field + 1).element_index() : elements_.size();
  return {elements_.begin() + static_cast<std::ptrdiff_t>(begin), elements_.begin() + static_cast<std::ptrdiff_t>(end)};
}

}  // namespace parq
