// A VARIANT value as canonical JSON text: the value types written as the
// column types of the same name are (../shared/golden/FORMAT.md): numbers
// for integers and floats, exact quoted decimals, quoted dates, times and
// timestamps (with "Z" when adjusted to UTC), base64 binary, 8-4-4-4-12
// UUIDs; objects with their keys in key order, arrays in order.
#pragma once

#include <string>

#include "parq/variant/variant.h"

namespace parq::text {

void append_variant_json(std::string& out, const variant::Value& value);

}  // namespace parq::text
