// `parq count FILE [--where EXPR]`: the number of rows, alone on its line,
// for scripts. Without a filter it is the footer's count; with one, only
// the filter's columns are read, from the row groups the plan keeps.
#include <cstdio>
#include <string>

#include "args.h"
#include "command.h"
#include "list_options.h"
#include "parq/file/batch_reader.h"
#include "print_rows.h"

namespace parq::tool {
namespace {

int run_count(const std::vector<std::string>& argv) {
  Args args(argv, {{"where", true}, {"row-groups", true}, {"threads", true}, {"no-verify-crc", false}});
  const std::string& path = args.expect_positionals({"FILE"})[0];
  ReadOptions options;
  if (auto v = args.value("row-groups")) options.row_groups = parse_indexes("row-groups", *v);
  if (auto v = args.value("where")) options.filter = parse_where(*v);
  if (auto v = args.value("threads"))
    options.threads = static_cast<int>(std::max<int64_t>(1, parse_count("threads", *v)));
  options.pages.verify_crc = !args.flag("no-verify-crc");
  auto file = FileReader::open(path);
  int64_t rows = 0;
  if (!options.filter) {
    for (const RowGroupPlan& g : plan_read(*file, options).row_groups) rows += g.num_rows;
  } else {
    options.columns = options.filter->columns();
    auto source = read_batches(*file, options);
    RecordBatch batch;
    while (source->next(batch)) rows += batch.num_rows;
  }
  std::printf("%lld\n", static_cast<long long>(rows));
  return 0;
}

}  // namespace

const Command kCountCommand = {
    "count",
    "count rows (that match a filter)",
    "usage: parq count FILE [--where EXPR] [--row-groups 0,2] [--threads N] [--no-verify-crc]\n"
    "\n"
    "Prints the number of rows alone on its line. Without --where it comes from the\n"
    "footer; with it, only the filter's columns are decoded (see 'parq cat --help'\n"
    "for the syntax), and row groups whose statistics rule the filter out are not read.\n",
    run_count,
};

}  // namespace parq::tool
