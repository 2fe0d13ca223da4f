// `parq count FILE [--where EXPR]`: the number of rows, alone on its line,
// for scripts. Without a filter it is the footer's count; with one, only
// the filter's columns are read, from the row groups the plan keeps.
#include <cstdio>
#include <string>

#include "args.h"
#include "command.h"
#include "dataset_args.h"
#include "key_args.h"
#include "list_options.h"
#include "parq/file/batch_reader.h"
#include "print_rows.h"

namespace parq::tool {
namespace {

int run_count(const std::vector<std::string>& argv) {
  Args args(argv, with_key_options(with_dataset_options(
                      {{"where", true}, {"row-groups", true}, {"threads", true}, {"no-verify-crc", false}})));
  const std::vector<std::string>& locations = expect_locations(args);
  ReadOptions options;
  if (auto v = args.value("row-groups")) options.row_groups = parse_indexes("row-groups", *v);
  if (auto v = args.value("where")) options.filter = parse_where(*v);
  if (auto v = args.value("threads"))
    options.threads = static_cast<int>(std::max<int64_t>(1, parse_count("threads", *v)));
  options.pages.verify_crc = !args.flag("no-verify-crc");
  int64_t rows = 0;
  if (!is_single_file(locations)) {
    if (!options.row_groups.empty()) throw UsageError("--row-groups names row groups of one file, not of a dataset");
    rows = count_rows(open_dataset(locations, args, options.threads, options.filter), options);
    std::printf("%lld\n", static_cast<long long>(rows));
    return 0;
  }
  auto file = FileReader::open(locations[0], reader_options(args, locations[0]));
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
    "usage: parq count FILE... [--where EXPR] [--row-groups 0,2] [--threads N] [--no-verify-crc]\n"
    "                          [--no-hive] [--by-field-id] [--partition-type KEY=TYPE]\n"
    "\n"
    "Prints the number of rows alone on its line. Without --where it comes from the\n"
    "footer; with it, only the filter's columns are decoded (see 'parq cat --help'\n"
    "for the syntax), and row groups whose statistics rule the filter out are not read.\n"
    "\n" PARQ_DATASET_HELP "\n" PARQ_KEY_HELP,
    run_count,
};

}  // namespace parq::tool
