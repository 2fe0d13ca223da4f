// `parq head FILE`: the first rows as a text table.
#include "command.h"
#include "key_args.h"
#include "print_rows.h"

namespace parq::tool {
namespace {

int run_head(const std::vector<std::string>& argv) { return print_rows(argv, Format::kTable, 10); }

}  // namespace

const Command kHeadCommand = {
    "head",
    "the first rows as a table",
    "usage: parq head FILE... [--limit N] [--columns a,b.c] [--format=table|jsonl|csv]\n"
    "\n"
    "Prints the first rows (10 unless --limit says otherwise) as a table.\n"
    "\n" PARQ_KEY_HELP,
    run_head,
};

}  // namespace parq::tool
