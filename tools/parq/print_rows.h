// The row printer behind `parq cat` and `parq head`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace parq::tool {

enum class Format { kJsonl, kCsv, kTable };

// Parses the reading options (--format, --columns, --limit, --row-groups,
// --batch-rows, --no-verify-crc) and prints the rows; a negative default
// limit prints them all.
int print_rows(const std::vector<std::string>& argv, Format default_format, int64_t default_limit);

}  // namespace parq::tool
