// Paths into VARIANT columns: "v.user.age" is the column `v`, then the
// object field `user`, then its field `age`. A shredded file stores such a
// field in its own group of `value` and `typed_value` columns
// (VariantShredding.md), which filters and projections read alone.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parq/schema/schema.h"

namespace parq {

struct VariantFieldNodes {
  const SchemaNode* variant = nullptr;  // the VARIANT group
  const SchemaNode* field = nullptr;    // the field's group of value and typed_value
  // With unshredded fields allowed: the fields below `field` that are not
  // shredded, to be found by name in the values of its `value` column
  // (`field` is then the deepest shredded group on the way, or the variant).
  std::vector<std::string> rest;
};

// The groups of the field `path` names, or nullopt when the path does not
// lead into a VARIANT column (or names the column itself). When a field on
// the way is not shredded in this schema: throws parq::Error
// (kInvalidArgument) naming the path, or, with `allow_unshredded`, stops
// there and names the rest of the path in `rest`.
std::optional<VariantFieldNodes> find_variant_field(const Schema& schema, std::string_view path,
                                                    bool allow_unshredded = false);

}  // namespace parq
