// parq recover: a file cut short, back to a readable one (file/recover.h).
#include <cstdio>

#include "args.h"
#include "command.h"
#include "parq/file/footer.h"
#include "parq/file/recover.h"
#include "parq/io/input.h"

namespace parq::tool {
namespace {

int run_recover(const std::vector<std::string>& argv) {
  Args args(argv, {{"schema", true}, {"no-scan", false}});
  const auto& paths = args.expect_positionals({"BROKEN", "OUT"});
  file::RecoverOptions options;
  options.scan_pages = !args.flag("no-scan");
  if (auto schema_path = args.value("schema")) {
    auto like = io::open_file(*schema_path);
    options.schema_from = file::read_footer(*like).metadata;
  }
  auto input = io::open_file(paths[0]);
  const file::RecoveryReport r = file::recover_file(*input, paths[1], options);
  if (r.whole) {
    std::printf("%s is whole (%lld rows); copied to %s\n", paths[0].c_str(), static_cast<long long>(r.rows),
                paths[1].c_str());
    return 0;
  }
  std::printf("recovered %lld rows in %lld row groups (%lld from the last checkpoint, %lld from scanning pages)\n",
              static_cast<long long>(r.rows), static_cast<long long>(r.checkpoint_row_groups + r.scanned_row_groups),
              static_cast<long long>(r.checkpoint_row_groups), static_cast<long long>(r.scanned_row_groups));
  std::printf("kept %llu bytes of %s; lost the last %llu bytes\n", static_cast<unsigned long long>(r.bytes_kept),
              paths[0].c_str(), static_cast<unsigned long long>(r.bytes_lost));
  if (!r.found_checkpoint) std::printf("no checkpoint found\n");
  if (!r.scan_stopped.empty()) std::printf("scanning stopped at %s\n", r.scan_stopped.c_str());
  std::printf("wrote %s\n", paths[1].c_str());
  return 0;
}

}  // namespace

const Command kRecoverCommand = {
    "recover",
    "recover the row groups of a file cut short",
    "usage: parq recover BROKEN OUT [--schema FILE] [--no-scan]\n"
    "\n"
    "Writes OUT (atomically) with every row group of BROKEN that can be recovered:\n"
    "those its newest checkpoint lists (files written with --checkpoint), then those\n"
    "whose pages past it are all there, complete and CRC-valid, found by scanning\n"
    "page headers. Reports the rows and row groups recovered and the bytes lost.\n"
    "\n"
    "  --schema FILE   the schema (and codecs) to scan pages with, from a Parquet\n"
    "                  file written like BROKEN; needed when BROKEN has no checkpoint\n"
    "  --no-scan       stop at the newest checkpoint\n"
    "\n"
    "A whole file is copied as it is.\n",
    run_recover,
};

}  // namespace parq::tool
