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

}  // namespace

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
  if (i >= columns_.size())
    throw Error("column index " + std::to_string(i) + " is out of range; the schema has " +
                std::to_string(columns_.size()) + " leaf columns");
  return columns_[i];
}

int Schema::find_column(std::string_view dotted_path) const {
  auto it = column_by_path_.find(std::string(dotted_path));
  return it == column_by_path_.end() ? -1 : it->second;
}

}  // namespace parq
