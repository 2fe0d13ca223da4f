// Building ArrayPlans from the schema tree; see array_plan.h.
#include "array_plan.h"

#include <algorithm>
#include <optional>

#include "parq/error.h"
#include "parq/schema/variant_path.h"

namespace parq {
namespace {

using format::ConvertedType;
using format::FieldRepetitionType;

bool annotated_list(const SchemaNode& n) {
  return n.logical_type().LIST.has_value() || n.converted_type() == ConvertedType::LIST;
}

bool annotated_map(const SchemaNode& n) {
  return n.logical_type().MAP.has_value() || n.converted_type() == ConvertedType::MAP ||
         n.converted_type() == ConvertedType::MAP_KEY_VALUE;
}

bool single_repeated_child(const SchemaNode& n) {
  return n.is_group() && n.num_children() == 1 && n.child(0).repetition() == FieldRepetitionType::REPEATED;
}

// The node that holds a LIST group's elements, and whether that node is the
// repeated child itself (whose repetition the list then consumes).
const SchemaNode& list_element(const SchemaNode& list, bool& is_repeated_child) {
  const SchemaNode& rep = list.child(0);
  is_repeated_child =
      rep.is_leaf() || rep.num_children() > 1 || rep.name() == "array" || rep.name() == list.name() + "_tuple";
  return is_repeated_child ? rep : rep.child(0);
}

class Planner {
 public:
  explicit Planner(const std::vector<int>& leaves) : leaves_(leaves) {}

  std::optional<ArrayPlan> build(const SchemaNode& n, bool repetition_consumed) {
    if (n.repetition() == FieldRepetitionType::REPEATED && !repetition_consumed) return bare_list(n);
    if (n.is_leaf()) return leaf(n);
    if (annotated_list(n) && single_repeated_child(n)) return list(n);
    if (annotated_map(n) && single_repeated_child(n) && n.child(0).is_group() && n.child(0).num_children() <= 2)
      return map(n);
    return structure(n);
  }

 private:
  bool selected(int column) const { return std::binary_search(leaves_.begin(), leaves_.end(), column); }

  static ArrayPlan base(ArrayKind kind, const SchemaNode& n, int16_t null_below) {
    ArrayPlan p;
    p.kind = kind;
    p.name = n.name();
    p.null_below = null_below;
    return p;
  }

  std::optional<ArrayPlan> leaf(const SchemaNode& n) {
    if (!selected(n.column_index())) return std::nullopt;
    ArrayPlan p = base(ArrayKind::kLeaf, n, n.max_definition_level());
    p.leaf = p.first_leaf = n.column_index();
    return p;
  }

  // A repeated field outside a LIST/MAP group: a list that is never null.
  std::optional<ArrayPlan> bare_list(const SchemaNode& n) {
    auto element = build(n, true);
    if (!element) return std::nullopt;
    ArrayPlan p = base(ArrayKind::kList, n, static_cast<int16_t>(n.max_definition_level() - 1));
    p.empty_below = n.max_definition_level();
    p.element_rep = n.max_repetition_level();
    return with_children(std::move(p), {std::move(*element)});
  }

  std::optional<ArrayPlan> list(const SchemaNode& n) {
    const SchemaNode& rep = n.child(0);
    bool element_is_rep = false;
    const SchemaNode& element_node = list_element(n, element_is_rep);
    auto element = build(element_node, element_is_rep);
    if (!element) return std::nullopt;
    ArrayPlan p = base(ArrayKind::kList, n, n.max_definition_level());
    p.empty_below = rep.max_definition_level();
    p.element_rep = rep.max_repetition_level();
    return with_children(std::move(p), {std::move(*element)});
  }

  std::optional<ArrayPlan> map(const SchemaNode& n) {
    const SchemaNode& kv = n.child(0);
    std::vector<ArrayPlan> children;
    for (size_t i = 0; i < kv.num_children(); ++i) {
      auto child = build(kv.child(i), false);
      if (!child) {
        if (i == 0) return std::nullopt;  // no keys selected: nothing to show
        continue;
      }
      children.push_back(std::move(*child));
    }
    ArrayPlan p = base(ArrayKind::kMap, n, n.max_definition_level());
    p.empty_below = kv.max_definition_level();
    p.element_rep = kv.max_repetition_level();
    return with_children(std::move(p), std::move(children));
  }

  std::optional<ArrayPlan> structure(const SchemaNode& n) {
    std::vector<ArrayPlan> children;
    for (size_t i = 0; i < n.num_children(); ++i)
      if (auto child = build(n.child(i), false)) children.push_back(std::move(*child));
    if (children.empty()) return std::nullopt;
    ArrayPlan p = base(ArrayKind::kStruct, n, n.max_definition_level());
    p.type.logical = n.logical_type();  // VARIANT groups are told apart by it
    return with_children(std::move(p), std::move(children));
  }

  static ArrayPlan with_children(ArrayPlan p, std::vector<ArrayPlan> children) {
    p.children = std::move(children);
    p.first_leaf = p.children.front().first_leaf;
    return p;
  }

  const std::vector<int>& leaves_;
};

void collect_leaves(const ArrayPlan& p, std::vector<int>& out) {
  if (p.kind == ArrayKind::kLeaf) out.push_back(p.leaf);
  for (const auto& c : p.children) collect_leaves(c, out);
}

}  // namespace

std::vector<ArrayPlan> plan_arrays(const Schema& schema, const std::vector<int>& leaves) {
  std::vector<int> sorted = leaves;
  std::sort(sorted.begin(), sorted.end());
  Planner planner(sorted);
  std::vector<ArrayPlan> plans;
  const SchemaNode& root = schema.root();
  for (size_t i = 0; i < root.num_children(); ++i)
    if (auto p = planner.build(root.child(i), false)) plans.push_back(std::move(*p));
  // Leaves carry their value types, taken from the schema's descriptors.
  std::vector<ArrayPlan*> stack;
  for (auto& p : plans) stack.push_back(&p);
  while (!stack.empty()) {
    ArrayPlan* p = stack.back();
    stack.pop_back();
    if (p->kind == ArrayKind::kLeaf) p->type = schema.column(static_cast<size_t>(p->leaf)).type;
    for (auto& c : p->children) stack.push_back(&c);
  }
  return plans;
}

std::vector<int> planned_leaves(const std::vector<ArrayPlan>& plans) {
  std::vector<int> out;
  for (const auto& p : plans) collect_leaves(p, out);
  return out;
}

std::vector<int> select_leaves(const Schema& schema, const std::vector<std::string>& paths) {
  std::vector<int> leaves;
  if (paths.empty()) {
    for (size_t i = 0; i < schema.num_columns(); ++i) leaves.push_back(static_cast<int>(i));
    return leaves;
  }
  for (const std::string& path : paths) {
    bool found = false;
    for (size_t i = 0; i < schema.num_columns(); ++i) {
      std::string leaf = schema.column(i).dotted_path();
      if (leaf == path ||
          (leaf.size() > path.size() && leaf.compare(0, path.size(), path) == 0 && leaf[path.size()] == '.')) {
        leaves.push_back(static_cast<int>(i));
        found = true;
      }
    }
    if (!found) {
      // A field inside a shredded VARIANT: its columns, and the variant's
      // metadata (which its values' field ids refer to).
      if (const auto v = find_variant_field(schema, path)) {
        auto add_under = [&](const SchemaNode& n) {
          std::string prefix;
          for (const std::string& part : n.path()) prefix += (prefix.empty() ? "" : ".") + part;
          for (size_t i = 0; i < schema.num_columns(); ++i) {
            const std::string leaf = schema.column(i).dotted_path();
            if (leaf == prefix || leaf.rfind(prefix + ".", 0) == 0) leaves.push_back(static_cast<int>(i));
          }
        };
        add_under(*v->field);
        for (const SchemaNode* c : v->variant->children())
          if (c->name() == "metadata") add_under(*c);
        continue;
      }
      throw Error("no column '" + path + "' in the schema", ErrorKind::kInvalidArgument);
    }
  }
  std::sort(leaves.begin(), leaves.end());
  leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
  return leaves;
}

}  // namespace parq
