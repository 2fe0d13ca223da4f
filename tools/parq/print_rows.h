// The row printer behind `parq cat` and `parq head`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parq/filter/expression.h"

namespace parq::tool {

enum class Format { kJsonl, kCsv, kTable };

// Parses the reading options (--format, --columns, --where, --offset,
// --limit, --row-groups, --batch-rows, --threads, --explain,
// --no-verify-crc) and prints the rows; a negative default limit prints
// them all.
int print_rows(const std::vector<std::string>& argv, Format default_format, int64_t default_limit);

// --where's text as a filter; a syntax error is a usage error.
filter::ExpressionPtr parse_where(const std::string& text);

}  // namespace parq::tool
