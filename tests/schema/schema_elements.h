// Builders of flat SchemaElement lists for the schema tests.
#pragma once

#include <optional>
#include <string>

#include "parq/format/metadata.h"

namespace parq::testing {

inline constexpr auto kRequired = format::FieldRepetitionType::REQUIRED;
inline constexpr auto kOptional = format::FieldRepetitionType::OPTIONAL;
inline constexpr auto kRepeated = format::FieldRepetitionType::REPEATED;

inline format::SchemaElement root(int32_t children) {
  format::SchemaElement e;
  e.name = "schema";
  e.num_children = children;
  return e;
}

inline format::SchemaElement group(std::string name, format::FieldRepetitionType rep, int32_t children,
                                   std::optional<format::ConvertedType> converted = std::nullopt) {
  format::SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = rep;
  e.num_children = children;
  e.converted_type = converted;
  return e;
}

inline format::SchemaElement leaf(std::string name, format::FieldRepetitionType rep, format::Type type,
                                  std::optional<format::ConvertedType> converted = std::nullopt) {
  format::SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = rep;
  e.type = type;
  e.converted_type = converted;
  return e;
}

}  // namespace parq::testing
