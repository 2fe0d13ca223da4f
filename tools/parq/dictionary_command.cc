// `parq dictionary FILE --column C [--row-group N] [--limit N]`: the values
// of each chunk's dictionary page, and whether they cover every data page
// (what a filter needs to rule a chunk out from its dictionary alone).
#include <algorithm>
#include <cstdio>
#include <string>

#include "args.h"
#include "command.h"
#include "list_options.h"
#include "parq/error.h"
#include "parq/file/dictionary_reader.h"
#include "parq/file/file_reader.h"
#include "parq/text/value_text.h"

namespace parq::tool {
namespace {

// Entry i of a dictionary leaf in PLAIN form, as append_plain_value takes it.
std::string_view plain_entry(const Array& dict, int64_t i, char& boolean) {
  const auto* values = reinterpret_cast<const char*>(dict.values.data());
  switch (dict.type.physical) {
    case format::Type::BOOLEAN:
      boolean = static_cast<char>(dict.values.data()[i >> 3] >> (i & 7) & 1);
      return {&boolean, 1};
    case format::Type::BYTE_ARRAY: {
      const int32_t* o = dict.offsets_data();
      return {values + o[i], static_cast<size_t>(o[i + 1] - o[i])};
    }
    default: {
      const auto width = static_cast<size_t>(dict.value_width());
      return {values + static_cast<size_t>(i) * width, width};
    }
  }
}

int run_dictionary(const std::vector<std::string>& argv) {
  Args args(argv, {{"column", true}, {"row-group", true}, {"limit", true}});
  const std::string& path = args.expect_positionals({"FILE"})[0];
  auto column_name = args.value("column");
  if (!column_name) throw UsageError("--column is required");
  std::optional<size_t> only_group;
  if (auto v = args.value("row-group")) only_group = static_cast<size_t>(parse_count("row-group", *v));
  std::optional<int64_t> limit;
  if (auto v = args.value("limit")) limit = parse_count("limit", *v);

  auto reader = FileReader::open(path);
  const auto& md = reader->metadata();
  const int c = reader->schema().find_column(*column_name);
  if (c < 0) throw UsageError("--column: the file has no column '" + *column_name + "'");
  if (only_group && *only_group >= md.row_groups.size())
    throw UsageError("--row-group " + std::to_string(*only_group) + ": the file has " +
                     std::to_string(md.row_groups.size()) + " row groups");
  const ColumnDescriptor& column = reader->schema().column(static_cast<size_t>(c));
  const text::ValueFormat value_format = text::value_format_of(column.type);

  std::string out;
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    if (only_group && g != *only_group) continue;
    out += "row group " + std::to_string(g) + ", column " + column.dotted_path() + " (" +
           format::to_string(column.type.physical) + "): ";
    const auto& chunk = md.row_groups[g].columns.at(static_cast<size_t>(c));
    std::optional<Array> dict = read_dictionary(*reader, g, static_cast<size_t>(c));
    if (!dict) {
      out += "no dictionary page (not dictionary-encoded)\n";
    } else {
      out += std::to_string(dict->length) + " values, ";
      out += chunk.meta_data && all_pages_dictionary_encoded(*chunk.meta_data)
                 ? "every data page dictionary-encoded\n"
                 : "not known to cover every data page (some may be encoded otherwise)\n";
      const int64_t shown = limit ? std::min(*limit, dict->length) : dict->length;
      char boolean = 0;
      for (int64_t i = 0; i < shown; ++i) {
        out += "  " + std::to_string(i) + ": ";
        text::append_plain_value(out, value_format, plain_entry(*dict, i, boolean));
        out += '\n';
        if (out.size() >= (1 << 16)) {
          std::fwrite(out.data(), 1, out.size(), stdout);
          out.clear();
        }
      }
      if (shown < dict->length) out += "  ... " + std::to_string(dict->length - shown) + " more\n";
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    out.clear();
  }
  return 0;
}

}  // namespace

const Command kDictionaryCommand = {
    "dictionary",
    "the dictionary values of a column's chunks",
    "usage: parq dictionary FILE --column C [--row-group N] [--limit N]\n"
    "\n"
    "Shows the values of each column chunk's dictionary page, one a line as\n"
    "JSON text in the column's logical type, and whether every data page of\n"
    "the chunk is dictionary-encoded (from the chunk's encoding statistics or,\n"
    "without them, its list of encodings; unsure counts as no). A chunk\n"
    "without a dictionary page says so.\n"
    "\n"
    "  --column C      the column (dotted path, e.g. a.b); required\n"
    "  --row-group N   only row group N (from 0)\n"
    "  --limit N       at most N values per chunk\n",
    run_dictionary,
};

}  // namespace parq::tool
