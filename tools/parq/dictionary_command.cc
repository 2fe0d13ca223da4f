// `parq dictionary FILE --column C [--row-group N] [--limit N]`: the values
// of each chunk's dictionary page, and whether they cover every data page
// (what a filter needs to rule a chunk out from its dictionary alone).
#include <algorithm>
#include <cstdio>
#include <string>

#include "args.h"
#include "chunk_args.h"
#include "command.h"
#include "dataset_args.h"
#include "key_args.h"
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

// One file's dictionaries of the column (a line naming the file first when
// there are `several`).
void file_dictionary(const std::string& path, const Args& args, std::optional<int64_t> limit, bool several) {
  auto reader = FileReader::open(path, reader_options(args, path));
  const auto& md = reader->metadata();
  const ChunkChoice choice = choose_chunks(*reader, path, args);
  const size_t c = *choice.column;
  const std::optional<size_t> only_group = choice.row_group;
  const ColumnDescriptor& column = reader->schema().column(c);
  const text::ValueFormat value_format = text::value_format_of(column.type);

  std::string out = several ? "file: " + path + "\n" : "";
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    if (only_group && g != *only_group) continue;
    out += "row group " + std::to_string(g) + ", column " + column.dotted_path() + " (" +
           format::to_string(column.type.physical) + "): ";
    const auto& chunk = md.row_groups[g].columns.at(c);
    std::optional<Array> dict = read_dictionary(*reader, g, c);
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
}

int run_dictionary(const std::vector<std::string>& argv) {
  Args args(argv, with_key_options({{"column", true}, {"row-group", true}, {"limit", true}}));
  const std::vector<std::string> files = expect_files(args);
  if (!args.value("column")) throw UsageError("--column is required");
  std::optional<int64_t> limit;
  if (auto v = args.value("limit")) limit = parse_count("limit", *v);
  for (const std::string& path : files) file_dictionary(path, args, limit, files.size() > 1);
  return 0;
}

}  // namespace

const Command kDictionaryCommand = {
    "dictionary",
    "the dictionary values of a column's chunks",
    "usage: parq dictionary FILE... --column C [--row-group N] [--limit N]\n"
    "\n"
    "Shows the values of each column chunk's dictionary page, one a line as\n"
    "JSON text in the column's logical type, and whether every data page of\n"
    "the chunk is dictionary-encoded (from the chunk's encoding statistics or,\n"
    "without them, its list of encodings; unsure counts as no). A chunk\n"
    "without a dictionary page says so. FILE... is files, folders, globs or\n"
    "URLs, one after another.\n"
    "\n"
    "  --column C      the column (dotted path, e.g. a.b); required\n"
    "  --row-group N   only row group N (from 0)\n"
    "  --limit N       at most N values per chunk\n"
    "\n" PARQ_KEY_HELP,
    run_dictionary,
};

}  // namespace parq::tool
