// Statistics bounds as text for `parq meta` and `parq pages`.
#pragma once

#include <string>

#include "parq/schema/value_type.h"

namespace parq::tool {

// A bound (PLAIN-encoded value) as JSON text in the column's logical type; a
// bound that does not decode (corrupt statistics) shows as base64 of its
// bytes instead of failing the whole report.
std::string render_bound(const ValueType& type, const std::string& bytes);

}  // namespace parq::tool
