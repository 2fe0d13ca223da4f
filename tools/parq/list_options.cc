// Comma-separated option values; see list_options.h.
#include "list_options.h"

#include <charconv>

namespace parq::tool {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

int64_t parse_count(const std::string& option, const std::string& text) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 0)
    throw UsageError("--" + option + " takes a non-negative number, not '" + text + "'");
  return v;
}

std::vector<size_t> parse_indexes(const std::string& option, const std::string& text) {
  std::vector<size_t> out;
  for (const std::string& item : split_list(text)) out.push_back(static_cast<size_t>(parse_count(option, item)));
  if (out.empty()) throw UsageError("--" + option + " needs at least one index");
  return out;
}

}  // namespace parq::tool
