// `parq bloom FILE --column C --value V [--value V...] [--row-group N]`: asks
// each row group's bloom filter for the column whether the values can be in
// the chunk. A filter has false positives, never false negatives: "might be
// present" or "definitely absent".
#include <cstdio>
#include <string>

#include "args.h"
#include "chunk_args.h"
#include "command.h"
#include "dataset_args.h"
#include "key_args.h"
#include "list_options.h"
#include "parq/column/bloom_filter.h"
#include "parq/error.h"
#include "parq/file/bloom_filter_reader.h"
#include "parq/file/file_reader.h"
#include "parq/filter/literal.h"

namespace parq::tool {
namespace {

// One file's chunks of the column (a line naming the file first when there
// are `several`).
void file_bloom(const std::string& path, const Args& args, const std::vector<std::string>& values, bool several) {
  auto reader = FileReader::open(path, reader_options(args, path));
  const auto& md = reader->metadata();
  const ChunkChoice choice = choose_chunks(*reader, path, args);
  const size_t c = *choice.column;
  const std::optional<size_t> only_group = choice.row_group;
  const ColumnDescriptor& column = reader->schema().column(c);

  // Filters hash a value's PLAIN bytes, so the text becomes the column's
  // physical value first: a DATE's day count, a DECIMAL's unscaled integer,
  // a UUID's sixteen bytes.
  std::vector<uint64_t> hashes;
  for (const std::string& v : values) {
    try {
      hashes.push_back(BloomFilter::hash(filter::plain_bytes(column, filter::physical_value_from_text(column, v))));
    } catch (const Error& e) {
      throw UsageError("--value '" + v + "': " + e.what());
    }
  }

  std::string out = several ? "file: " + path + "\n" : "";
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    if (only_group && g != *only_group) continue;
    out += "row group " + std::to_string(g) + ", column " + column.dotted_path() + ": ";
    std::optional<BloomFilter> bloom = read_bloom_filter(*reader, g, c);
    if (!bloom) {
      out += "no bloom filter\n";
    } else {
      out += "bloom filter of " + std::to_string(bloom->num_bytes()) + " bytes\n";
      for (size_t i = 0; i < values.size(); ++i)
        out += "  " + values[i] + ": " + (bloom->might_contain(hashes[i]) ? "might be present" : "definitely absent") +
               "\n";
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    out.clear();
  }
}

int run_bloom(const std::vector<std::string>& argv) {
  Args args(argv, with_key_options({{"column", true}, {"value", true}, {"row-group", true}}));
  const std::vector<std::string> files = expect_files(args);
  if (!args.value("column")) throw UsageError("--column is required");
  const std::vector<std::string> values = args.all("value");
  if (values.empty()) throw UsageError("--value is required (at least one)");
  for (const std::string& path : files) file_bloom(path, args, values, files.size() > 1);
  return 0;
}

}  // namespace

const Command kBloomCommand = {
    "bloom",
    "whether values might be in a column's chunks, by their bloom filters",
    "usage: parq bloom FILE... --column C --value V [--value V...] [--row-group N]\n"
    "\n"
    "Asks each column chunk's split-block bloom filter about the values: a\n"
    "value \"might be present\" (filters have false positives) or is\n"
    "\"definitely absent\". A chunk without a filter says so. FILE... is files,\n"
    "folders, globs or URLs, one after another.\n"
    "\n"
    "Values are written as `parq cat` prints them and converted to the\n"
    "column's stored form before hashing: integers and floats as numbers,\n"
    "DATE as 2020-01-31, TIMESTAMP as 2020-01-31T10:00:00, DECIMAL as 12.50,\n"
    "UUID as its 8-4-4-4-12 hex, strings and binary as their bytes.\n"
    "\n"
    "  --column C      the column (dotted path, e.g. a.b); required\n"
    "  --value V       a value to look up; repeatable, at least one\n"
    "  --row-group N   only row group N (from 0)\n"
    "\n" PARQ_KEY_HELP,
    run_bloom,
};

}  // namespace parq::tool
