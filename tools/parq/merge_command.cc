// `parq merge OUT IN...`: the rows of the inputs, in order, in one file,
// re-encoded into row groups of the asked size.
#include <cstdio>
#include <string>

#include "args.h"
#include "command.h"
#include "parq/file/merge.h"
#include "write_options.h"

namespace parq::tool {
namespace {

int run_merge(const std::vector<std::string>& argv) {
  Args args(argv, with_write_options({}));
  const std::vector<std::string>& paths = args.positionals();
  if (paths.size() < 2) throw UsageError("expected OUT and at least one IN");
  const std::vector<std::string> inputs(paths.begin() + 1, paths.end());
  const MergeResult r = merge_files(inputs, paths[0], parse_write_options(args));
  std::printf("%s: %lld rows in %zu row groups from %zu files\n", paths[0].c_str(), static_cast<long long>(r.rows),
              r.row_groups, inputs.size());
  return 0;
}

}  // namespace

const Command kMergeCommand = {
    "merge",
    "join files into one, re-encoding their rows into new row groups",
    "usage: parq merge OUT IN... [OPTIONS]\n"
    "\n"
    "Reads the rows of every IN, in order, and writes them to OUT in row groups\n"
    "of --row-group-rows / --row-group-bytes (the writer's defaults otherwise),\n"
    "with the writer options below. The inputs' schemas must match (the error\n"
    "names the first input that differs and how). OUT takes the first input's\n"
    "key-value metadata and appears (or is replaced; it may be an input)\n"
    "only once complete.\n"
    "\n"
    "To join files without re-encoding them, see 'parq concat'.\n"
    "\n" PARQ_WRITE_OPTIONS_HELP,
    run_merge,
};

}  // namespace parq::tool
