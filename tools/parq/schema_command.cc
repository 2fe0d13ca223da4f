// `parq schema FILE`: the schema in the spec's message notation, with
// logical types, repetition and field ids.
#include <cstdio>
#include <string>

#include "args.h"
#include "command.h"
#include "dataset_args.h"
#include "key_args.h"
#include "parq/file/file_reader.h"

namespace parq::tool {
namespace {

int run_schema(const std::vector<std::string>& argv) {
  Args args(argv, with_key_options(with_dataset_options({})));
  const std::vector<std::string>& locations = expect_locations(args);
  std::string out = is_single_file(locations)
                        ? FileReader::open(locations[0], reader_options(args, locations[0]))->schema().to_string()
                        : open_dataset(locations, args)->schema().to_string();
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace

const Command kSchemaCommand = {
    "schema",
    "the schema in message notation",
    "usage: parq schema FILE... [--no-hive] [--by-field-id] [--partition-type KEY=TYPE]\n"
    "\n"
    "Prints the schema as the Parquet spec writes it (of several files, the one\n"
    "schema they are read with, partition columns last):\n"
    "  message schema {\n"
    "    required int64 id;\n"
    "    optional binary name (STRING);\n"
    "  }\n"
    "\n" PARQ_DATASET_HELP "\n" PARQ_KEY_HELP,
    run_schema,
};

}  // namespace parq::tool
