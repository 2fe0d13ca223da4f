// `parq schema FILE`: the schema in the spec's message notation, with
// logical types, repetition and field ids.
#include <cstdio>
#include <string>

#include "args.h"
#include "command.h"
#include "parq/file/file_reader.h"

namespace parq::tool {
namespace {

int run_schema(const std::vector<std::string>& argv) {
  Args args(argv, {});
  const std::string& path = args.expect_positionals({"FILE"})[0];
  auto reader = FileReader::open(path);
  std::string out = reader->schema().to_string();
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace

const Command kSchemaCommand = {
    "schema",
    "the schema in message notation",
    "usage: parq schema FILE\n"
    "\n"
    "Prints the file's schema as the Parquet spec writes it:\n"
    "  message schema {\n"
    "    required int64 id;\n"
    "    optional binary name (STRING);\n"
    "  }\n",
    run_schema,
};

}  // namespace parq::tool
