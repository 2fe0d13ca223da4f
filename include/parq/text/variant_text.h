// A VARIANT value as canonical JSON text: the value types written as the
// column types of the same name are (../shared/golden/FORMAT.md): numbers
// for integers and floats, exact quoted decimals, quoted dates, times and
// timestamps (with "Z" when adjusted to UTC), base64 binary, 8-4-4-4-12
// UUIDs; objects with their keys in key order, arrays in order.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parq/text/text_input.h"
#include "parq/util/buffer.h"
#include "parq/variant/variant.h"

namespace parq::text {

void append_variant_json(std::string& out, const variant::Value& value);

// JSON values as variants: encode() appends the value at row.nodes[at]
// to `value` and a sorted dictionary of the object keys it uses to
// `metadata`. Integers take the narrowest of int8..int64 (wider ones a
// decimal16 of scale 0 up to 38 digits), other numbers a double, strings a
// string (no date or number is guessed from text), true/false/null
// themselves. Throws parq::Error for an object with a key twice. One
// encoder serves many values, reusing its key list.
class JsonVariantEncoder {
 public:
  void encode(const TextRow& row, size_t at, Buffer& metadata, Buffer& value);

 private:
  std::vector<std::string_view> keys_;
};

}  // namespace parq::text
