// ArrayPlan: the shape of the arrays a projection of the schema decodes
// into, with the level thresholds record assembly needs at every node.
//
// The Parquet schema becomes arrays by LogicalTypes.md's rules, including the
// backward-compatibility ones: a LIST group's element is its repeated child
// when that child is a primitive, has several fields, or is named "array" or
// "<list>_tuple" (old two-level lists), and the repeated child's only field
// otherwise; a MAP (or MAP_KEY_VALUE) group holds a repeated key/value group;
// a repeated field without such a parent is a list of itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parq/array/array.h"
#include "parq/schema/schema.h"

namespace parq {

struct ArrayPlan {
  ArrayKind kind = ArrayKind::kLeaf;
  std::string name;
  ValueType type;  // leaves; structs: the group's logical type (VARIANT)
  // A slot whose first level entry has a definition level below this is null.
  int16_t null_below = 0;
  // Lists and maps: a non-null slot whose first entry is below this is
  // empty; elements start at entries whose repetition level is element_rep.
  int16_t empty_below = 0;
  int16_t element_rep = 0;
  int leaf = -1;        // leaves: the column index in the schema
  int first_leaf = -1;  // the selected leaf whose levels shape this node
  std::vector<ArrayPlan> children;
};

// Plans for the top-level fields that contain at least one of `leaves`
// (column indexes); fields and struct members without a selected leaf are
// left out.
std::vector<ArrayPlan> plan_arrays(const Schema& schema, const std::vector<int>& leaves);

// The leaves a projection's dotted paths select (a group's path selects
// every leaf below it), ascending; every leaf for no paths. Throws
// parq::Error (kInvalidArgument) for a path the schema lacks.
std::vector<int> select_leaves(const Schema& schema, const std::vector<std::string>& paths);

// The leaf column indexes in `plans`, in schema order.
std::vector<int> planned_leaves(const std::vector<ArrayPlan>& plans);

}  // namespace parq
