// Parsing of comma-separated option values shared by the reading commands:
// --columns a,b.c and --row-groups 0,2.
#pragma once

#include <string>
#include <vector>

#include "args.h"

namespace parq::tool {

std::vector<std::string> split_list(const std::string& text);
std::vector<size_t> parse_indexes(const std::string& option, const std::string& text);
int64_t parse_count(const std::string& option, const std::string& text);

}  // namespace parq::tool
