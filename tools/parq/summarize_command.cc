// `parq summarize DIR`: the folder's _metadata and _common_metadata, so
// that readers plan the whole dataset from one footer.
#include <cstdio>
#include <string>

#include "args.h"
#include "command.h"
#include "list_options.h"
#include "parq/dataset/dataset.h"

namespace parq::tool {
namespace {

int run_summarize(const std::vector<std::string>& argv) {
  Args args(argv, {{"threads", true}});
  const std::string& folder = args.expect_positionals({"DIR"})[0];
  DatasetOptions options;
  if (auto v = args.value("threads"))
    options.threads = static_cast<int>(std::max<int64_t>(1, parse_count("threads", *v)));
  const size_t files = write_summary_files(folder, options);
  std::printf("%zu files summarized in %s/_metadata\n", files, folder.c_str());
  return 0;
}

}  // namespace

const Command kSummarizeCommand = {
    "summarize",
    "write a folder's _metadata and _common_metadata",
    "usage: parq summarize DIR [--threads N]\n"
    "\n"
    "Writes DIR/_metadata, every data file's row groups in one footer (each column\n"
    "chunk's file_path naming its file, relative to DIR), and DIR/_common_metadata,\n"
    "the schema alone. The files (below DIR, leaving out names starting with '_' or\n"
    "'.') must share one schema. 'parq cat DIR/_metadata --where ...' then plans\n"
    "from that one footer and opens only the files whose row groups may match.\n",
    run_summarize,
};

}  // namespace parq::tool
