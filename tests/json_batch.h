// A batch of rows written as JSON objects, through the text input, for
// tests that need small data of a schema in message notation.
#pragma once

#include <string>
#include <vector>

#include "parq/array/array.h"
#include "parq/schema/schema_text.h"
#include "parq/text/text_input.h"

namespace parq::testing {

inline RecordBatch batch_from_json(const Schema& schema, const std::vector<std::string>& rows) {
  text::BatchBuilder builder(text::type_of(schema));
  for (const std::string& r : rows) {
    text::TextRow row;
    text::parse_json(r, row);
    builder.add(row);
  }
  return builder.finish();
}

inline RecordBatch batch_from_json(const std::string& schema_text, const std::vector<std::string>& rows) {
  return batch_from_json(parse_schema_text(schema_text), rows);
}

}  // namespace parq::testing
