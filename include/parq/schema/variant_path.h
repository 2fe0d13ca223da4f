// Paths into VARIANT columns: "v.user.age" is the column `v`, then the
// object field `user`, then its field `age`. A shredded file stores such a
// field in its own group of `value` and `typed_value` columns
// (VariantShredding.md), which filters and projections read alone.
#pragma once

#include <optional>
#include <string_view>

#include "parq/schema/schema.h"

namespace parq {

struct VariantFieldNodes {
  const SchemaNode* variant = nullptr;  // the VARIANT group
  const SchemaNode* field = nullptr;    // the field's group of value and typed_value
};

// The groups of the field `path` names, or nullopt when the path does not
// lead into a VARIANT column (or names the column itself). Throws
// parq::Error (kInvalidArgument) naming the path when a field on the way is
// not shredded in this schema.
std::optional<VariantFieldNodes> find_variant_field(const Schema& schema, std::string_view path);

}  // namespace parq
