// Paths into VARIANT columns; see parq/schema/variant_path.h.
#include "parq/schema/variant_path.h"

#include <string>
#include <vector>

#include "parq/error.h"

namespace parq {
namespace {

const SchemaNode* child_named(const SchemaNode& n, std::string_view name) {
  for (const SchemaNode* c : n.children())
    if (c->name() == name) return c;
  return nullptr;
}

bool is_variant(const SchemaNode& n) { return n.is_group() && n.logical_type().VARIANT.has_value(); }

}  // namespace

std::optional<VariantFieldNodes> find_variant_field(const Schema& schema, std::string_view path,
                                                    bool allow_unshredded) {
  std::vector<std::string_view> parts;
  for (size_t at = 0; at <= path.size();) {
    const size_t dot = std::min(path.find('.', at), path.size());
    parts.push_back(path.substr(at, dot - at));
    at = dot + 1;
  }
  const SchemaNode* node = &schema.root();
  size_t i = 0;
  while (i < parts.size() && !is_variant(*node)) {
    node = node->is_group() ? child_named(*node, parts[i]) : nullptr;
    if (node == nullptr) return std::nullopt;
    ++i;
  }
  if (!is_variant(*node) || i == parts.size()) return std::nullopt;
  VariantFieldNodes out;
  out.variant = node;
  for (; i < parts.size(); ++i) {
    const SchemaNode* typed = child_named(*node, "typed_value");
    const SchemaNode* field =
        typed && typed->is_group() && !typed->logical_type().LIST ? child_named(*typed, parts[i]) : nullptr;
    if ((field == nullptr || !field->is_group()) && allow_unshredded) {
      out.field = node;
      for (; i < parts.size(); ++i) out.rest.emplace_back(parts[i]);
      return out;
    }
    if (field == nullptr || !field->is_group())
      throw Error(std::string(path) + ": the variant field '" + std::string(parts[i]) +
                      "' is not shredded in this file (only shredded fields can be read alone)",
                  ErrorKind::kInvalidArgument);
    node = field;
  }
  out.field = node;
  return out;
}

}  // namespace parq
