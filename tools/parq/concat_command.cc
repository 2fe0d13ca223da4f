// `parq concat OUT IN...`: the row groups of the inputs, in order, in one
// file, copied byte for byte (file/row_group_copy.h).
#include <cstdio>
#include <string>

#include "args.h"
#include "command.h"
#include "parq/file/row_group_copy.h"

namespace parq::tool {
namespace {

int run_concat(const std::vector<std::string>& argv) {
  Args args(argv, {});
  const std::vector<std::string>& paths = args.positionals();
  if (paths.size() < 2) throw UsageError("expected OUT and at least one IN");
  const std::vector<std::string> inputs(paths.begin() + 1, paths.end());
  const ConcatResult result = concat_files(inputs, paths[0]);
  for (const std::string& in : result.without_statistics)
    std::fprintf(
        stderr, "parq concat: %s: written by another writer than %s; its statistics and column indexes were left out\n",
        in.c_str(), inputs.front().c_str());
  std::printf("%s: %lld rows in %zu row groups from %zu files\n", paths[0].c_str(), static_cast<long long>(result.rows),
              result.row_groups, inputs.size());
  return 0;
}

}  // namespace

const Command kConcatCommand = {
    "concat",
    "join files into one by copying their row groups (no re-encoding)",
    "usage: parq concat OUT IN...\n"
    "\n"
    "Writes the row groups of every IN, in order, to OUT, their column chunks\n"
    "copied byte for byte: nothing is decoded, so it runs at the speed of the\n"
    "disk. Statistics, page indexes and bloom filters come along. The inputs'\n"
    "schemas, column orders and sorting columns must match (the error names the\n"
    "first input that differs and how); encrypted inputs are refused.\n"
    "\n"
    "OUT takes the first input's key-value metadata (the others' are dropped)\n"
    "and its created_by, as readers judge statistics by the writer that wrote\n"
    "them: an input written by another writer keeps its rows, but its chunks'\n"
    "statistics and column indexes are left out (a warning names it).\n"
    "OUT appears (or is replaced) only once complete, so it may be one of the\n"
    "inputs: 'parq concat a.parquet a.parquet b.parquet' appends b to a.\n"
    "\n"
    "To re-encode into other row group sizes, see 'parq merge'.\n",
    run_concat,
};

}  // namespace parq::tool
