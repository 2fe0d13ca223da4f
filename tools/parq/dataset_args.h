// What the reading commands share for many files: their locations (files,
// folders, globs, URLs, a _metadata file) made one dataset, and whether
// they are one plain file (which keeps the single-file options, such as
// --row-groups).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "args.h"
#include "parq/dataset/dataset.h"

namespace parq::tool {

// `options` and those of datasets: --no-hive, --by-field-id,
// --partition-type.
std::vector<OptionSpec> with_dataset_options(std::vector<OptionSpec> options);

// Help text for those options and for the locations (a macro, so that
// commands' help literals can include it).
#define PARQ_DATASET_HELP                                                         \
  "FILE... is one or more files, folders (every file below, leaving out names\n"  \
  "starting with '_' or '.'), globs ('*', '?', '**' for any depth; quote them)\n" \
  "or a _metadata summary file. Folders named key=value become columns.\n"        \
  "  --no-hive          do not read key=value folders as columns\n"               \
  "  --by-field-id      match the files' columns by field id, not by name\n"      \
  "  --partition-type KEY=TYPE  the type of a key=value folder's column, in\n"    \
  "                     the schema notation (int32, int64 (TIMESTAMP(MILLIS,\n"   \
  "                     true)), string, date, ...); others are inferred\n"

// Whether the locations are one file rather than a dataset.
bool is_single_file(const std::vector<std::string>& locations);

// `filter`: the read's, which leaves out files by their partition values
// before their footers are read.
std::shared_ptr<const Dataset> open_dataset(const std::vector<std::string>& locations, const Args& args,
                                            int threads = 1, filter::ExpressionPtr filter = nullptr,
                                            const std::string& key_prefix = "");

// The positionals, at least one ("FILE..." in the error).
const std::vector<std::string>& expect_locations(const Args& args);

// For the commands that show files one at a time (meta, pages, index,
// bloom, dictionary): the files the positionals name (list_files).
std::vector<std::string> expect_files(const Args& args);

}  // namespace parq::tool
