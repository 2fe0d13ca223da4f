// The reading commands' many-file locations; see dataset_args.h.
#include "dataset_args.h"

namespace parq::tool {

std::vector<OptionSpec> with_dataset_options(std::vector<OptionSpec> options) {
  options.push_back({"no-hive", false});
  options.push_back({"by-field-id", false});
  return options;
}

bool is_single_file(const std::vector<std::string>& locations) {
  return locations.size() == 1 && !is_dataset_location(locations[0]);
}

std::shared_ptr<const Dataset> open_dataset(const std::vector<std::string>& locations, const Args& args, int threads,
                                            filter::ExpressionPtr filter) {
  DatasetOptions options;
  options.hive_partitioning = !args.flag("no-hive");
  if (args.flag("by-field-id")) options.schema_match = SchemaMatch::kByFieldId;
  options.threads = threads;
  options.filter = std::move(filter);
  return Dataset::open(locations, options);
}

const std::vector<std::string>& expect_locations(const Args& args) {
  if (args.positionals().empty()) throw UsageError("missing FILE... (files, folders, globs or a _metadata file)");
  return args.positionals();
}

}  // namespace parq::tool
