// `parq split IN OUTDIR`: IN cut into pieces of so many rows, bytes or row
// groups, whole row groups copied byte for byte (file/row_group_copy.h).
#include <cstdio>
#include <string>
#include <vector>

#include "args.h"
#include "command.h"
#include "list_options.h"
#include "parq/file/row_group_copy.h"

namespace parq::tool {
namespace {

int run_split(const std::vector<std::string>& argv) {
  Args args(argv, {{"rows", true}, {"bytes", true}, {"row-groups", true}});
  const auto& paths = args.expect_positionals({"IN", "OUTDIR"});
  const int given = int{args.value("rows").has_value()} + int{args.value("bytes").has_value()} +
                    int{args.value("row-groups").has_value()};
  if (given != 1) throw UsageError("give one of --rows N, --bytes N, --row-groups N");
  auto positive = [](const char* option, const std::string& text) {
    const int64_t n = parse_count(option, text);
    if (n < 1) throw UsageError(std::string("--") + option + " must be at least 1");
    return n;
  };
  SplitOptions options;
  if (auto v = args.value("rows")) options.rows = positive("rows", *v);
  if (auto v = args.value("bytes")) options.bytes = positive("bytes", *v);
  if (auto v = args.value("row-groups")) options.row_groups = static_cast<size_t>(positive("row-groups", *v));
  const SplitResult result = split_file(paths[0], paths[1], options);
  if (result.pieces.empty()) std::printf("%s has no rows: nothing written\n", paths[0].c_str());
  for (const SplitPiece& piece : result.pieces)
    std::printf("%s: %lld rows in %zu row groups\n", piece.path.c_str(), static_cast<long long>(piece.rows),
                piece.row_groups);
  if (result.removed)
    std::printf("removed %zu piece%s of an earlier split from %s\n", result.removed, result.removed == 1 ? "" : "s",
                paths[1].c_str());
  return 0;
}

}  // namespace

const Command kSplitCommand = {
    "split",
    "cut a file into pieces, copying whole row groups byte for byte",
    "usage: parq split IN OUTDIR (--rows N | --bytes N | --row-groups N)\n"
    "\n"
    "Writes IN's rows, in order, to OUTDIR/part-00000.parquet, part-00001...\n"
    "(OUTDIR is created; pieces of the same names are replaced, and pieces of\n"
    "an earlier split beyond this one's last are removed once this one is\n"
    "written, so that OUTDIR reads as IN), one line per piece saying what it\n"
    "holds:\n"
    "  --rows N        N rows a piece (the last may have fewer)\n"
    "  --bytes N       about N stored bytes a piece: whole row groups while they\n"
    "                  fit, a larger row group cut into equal runs of rows\n"
    "  --row-groups N  N whole row groups a piece\n"
    "A row group that lies wholly in a piece is copied byte for byte with its\n"
    "statistics, page index and bloom filters; the rows of one cut by a piece's\n"
    "edge are re-encoded with the writer's defaults. Pieces keep IN's schema,\n"
    "key-value metadata and created_by. Encrypted files are refused.\n",
    run_split,
};

}  // namespace parq::tool
