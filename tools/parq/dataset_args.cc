// The reading commands' many-file locations; see dataset_args.h.
#include "dataset_args.h"

#include "key_args.h"
#include "parq/schema/schema_text.h"

namespace parq::tool {

std::vector<OptionSpec> with_dataset_options(std::vector<OptionSpec> options) {
  options.push_back({"no-hive", false});
  options.push_back({"by-field-id", false});
  options.push_back({"partition-type", true});
  return options;
}

bool is_single_file(const std::vector<std::string>& locations) {
  return locations.size() == 1 && !is_dataset_location(locations[0]);
}

std::shared_ptr<const Dataset> open_dataset(const std::vector<std::string>& locations, const Args& args, int threads,
                                            filter::ExpressionPtr filter, const std::string& key_prefix) {
  DatasetOptions options;
  options.hive_partitioning = !args.flag("no-hive");
  if (args.flag("by-field-id")) options.schema_match = SchemaMatch::kByFieldId;
  for (const std::string& declared : args.all("partition-type")) {
    const size_t eq = declared.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--partition-type takes KEY=TYPE (year=int32, day=date, region=string), not '" + declared + "'");
    options.partition_types.emplace_back(declared.substr(0, eq), parse_leaf_type(declared.substr(eq + 1)));
  }
  options.threads = threads;
  options.filter = std::move(filter);
  options.reader.footer.decryption = decryption_options(args, "", key_prefix);
  return Dataset::open(locations, options);
}

std::vector<std::string> expect_files(const Args& args) {
  if (args.positionals().empty()) throw UsageError("missing FILE... (files, folders, globs or URLs)");
  return list_files(args.positionals());
}

const std::vector<std::string>& expect_locations(const Args& args) {
  if (args.positionals().empty()) throw UsageError("missing FILE... (files, folders, globs or a _metadata file)");
  return args.positionals();
}

}  // namespace parq::tool
