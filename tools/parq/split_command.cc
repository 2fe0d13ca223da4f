// `parq split IN OUTDIR`: IN cut into pieces of so many rows, bytes or row
// groups, whole row groups copied byte for byte (file/row_group_copy.h).
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "args.h"
#include "command.h"
#include "list_options.h"
#include "parq/file/row_group_copy.h"

namespace parq::tool {
namespace {

std::string piece_name(size_t piece) {
  char name[48];
  std::snprintf(name, sizeof name, "part-%05zu.parquet", piece);
  return name;
}

// Whether `name` is the name piece_name gives a piece numbered `pieces`
// or more.
bool names_a_later_piece(const std::string& name, size_t pieces) {
  constexpr std::string_view kPrefix = "part-";
  const size_t digits = name.find_first_not_of("0123456789", kPrefix.size());
  if (name.compare(0, kPrefix.size(), kPrefix) != 0 || digits == kPrefix.size() || digits - kPrefix.size() > 18)
    return false;
  const auto n = static_cast<size_t>(std::stoull(name.substr(kPrefix.size(), digits - kPrefix.size())));
  return n >= pieces && piece_name(n) == name;
}

// Pieces of an earlier split into more pieces, left in OUTDIR beside this
// split's: read as one dataset with them, the folder would hold rows twice.
// Removed once every new piece is written, so that a failed split leaves
// the folder as it was apart from the pieces it replaced.
size_t remove_stale_pieces(const std::filesystem::path& dir, size_t pieces) {
  std::vector<std::filesystem::path> stale;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file() && names_a_later_piece(entry.path().filename().string(), pieces))
      stale.push_back(entry.path());
  for (const auto& path : stale) std::filesystem::remove(path);
  return stale.size();
}

int run_split(const std::vector<std::string>& argv) {
  Args args(argv, {{"rows", true}, {"bytes", true}, {"row-groups", true}});
  const auto& paths = args.expect_positionals({"IN", "OUTDIR"});
  const int given = int{args.value("rows").has_value()} + int{args.value("bytes").has_value()} +
                    int{args.value("row-groups").has_value()};
  if (given != 1) throw UsageError("give one of --rows N, --bytes N, --row-groups N");
  auto in = FileReader::open(paths[0]);
  check_copyable(*in);
  std::vector<RowRange> pieces;
  auto positive = [](const char* option, const std::string& text) {
    const int64_t n = parse_count(option, text);
    if (n < 1) throw UsageError(std::string("--") + option + " must be at least 1");
    return n;
  };
  if (auto v = args.value("rows")) pieces = pieces_by_rows(in->metadata(), positive("rows", *v));
  if (auto v = args.value("bytes")) pieces = pieces_by_bytes(in->metadata(), positive("bytes", *v));
  if (auto v = args.value("row-groups"))
    pieces = pieces_by_row_groups(in->metadata(), static_cast<size_t>(positive("row-groups", *v)));
  if (pieces.empty()) {
    std::printf("%s has no rows: nothing written\n", paths[0].c_str());
    return 0;
  }
  std::filesystem::create_directories(paths[1]);
  const WriteOptions options = copy_write_options(*in);
  for (size_t p = 0; p < pieces.size(); ++p) {
    const std::string out = (std::filesystem::path(paths[1]) / piece_name(p)).string();
    auto writer = FileWriter::open(out, in->schema(), options);
    writer->set_column_orders(in->metadata().column_orders);
    copy_rows(*in, pieces[p], *writer);
    writer->close();
    std::printf("%s: %lld rows in %zu row groups\n", out.c_str(), static_cast<long long>(writer->num_rows()),
                writer->metadata().row_groups.size());
  }
  if (const size_t removed = remove_stale_pieces(paths[1], pieces.size()))
    std::printf("removed %zu piece%s of an earlier split from %s\n", removed, removed == 1 ? "" : "s",
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
