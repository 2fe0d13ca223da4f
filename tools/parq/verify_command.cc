// `parq verify FILE... [--columns a,b] [--quiet]`: reads every page of every
// file and reports each problem on a line of its own (verify_file does the
// checking), then a summary. Exit 0 when every file is clean, 1 when any
// problem was found; a file that cannot be opened at all is one problem.
#include <cstdio>
#include <string>

#include "args.h"
#include "command.h"
#include "dataset_args.h"
#include "key_args.h"
#include "list_options.h"
#include "parq/error.h"
#include "parq/file/file_reader.h"
#include "parq/file/verify.h"

namespace parq::tool {
namespace {

struct Totals {
  int64_t files = 0, files_with_problems = 0, problems = 0, chunks = 0, pages = 0;
};

void verify_one(const std::string& path, const Args& args, bool quiet, Totals& totals) {
  ++totals.files;
  int64_t problems = 0;
  VerifyOptions options;
  options.max_kept_problems = 0;  // printed as found
  options.on_problem = [&](const VerifyProblem& p) {
    if (!quiet) std::printf("%s\n", p.to_string().c_str());
  };
  try {
    auto reader = FileReader::open(path, reader_options(args, path));
    if (auto columns = args.value("columns")) {
      for (const std::string& name : split_list(*columns)) {
        const int i = reader->schema().find_column(name);
        if (i < 0) throw UsageError("--columns: " + path + " has no column '" + name + "'");
        options.columns.push_back(static_cast<size_t>(i));
      }
    }
    const VerifyReport report = verify_file(*reader, options);
    problems = report.problem_count;
    totals.chunks += report.chunks;
    totals.pages += report.pages;
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    // A file whose footer cannot be read has nothing else to verify.
    ++problems;
    if (!quiet) std::printf("%s\n", e.location().file.empty() ? (path + ": " + e.what()).c_str() : e.what());
  }
  totals.problems += problems;
  if (problems > 0) ++totals.files_with_problems;
  std::fflush(stdout);
}

int run_verify(const std::vector<std::string>& argv) {
  Args args(argv, with_key_options({{"columns", true}, {"quiet", false}}));
  const std::vector<std::string> files = expect_files(args);
  const bool quiet = args.flag("quiet");
  Totals totals;
  for (const std::string& path : files) verify_one(path, args, quiet, totals);
  std::printf("verified %lld file%s, %lld column chunks, %lld pages: ", static_cast<long long>(totals.files),
              totals.files == 1 ? "" : "s", static_cast<long long>(totals.chunks),
              static_cast<long long>(totals.pages));
  if (totals.problems == 0)
    std::printf("no problems\n");
  else
    std::printf("%lld problem%s in %lld file%s\n", static_cast<long long>(totals.problems),
                totals.problems == 1 ? "" : "s", static_cast<long long>(totals.files_with_problems),
                totals.files_with_problems == 1 ? "" : "s");
  return totals.problems == 0 ? 0 : 1;
}

}  // namespace

const Command kVerifyCommand = {
    "verify",
    "read every page and check it against the metadata",
    "usage: parq verify FILE... [--columns a,b.c] [--quiet]\n"
    "\n"
    "Reads every page of every column chunk and checks: page CRCs, page sizes\n"
    "against the chunk, decompression, levels and values (dictionary indexes\n"
    "inside the dictionary), value, null and row counts against the page\n"
    "headers and the metadata, statistics (null counts, min and max) against\n"
    "the values, the page index against the pages, and that every offset in\n"
    "the footer lies inside the file, chunks do not overlap and bloom filters\n"
    "decode. Each problem is one line: file, column, row group, page where it\n"
    "applies, and what is wrong (expected against found); a summary follows.\n"
    "Exit status 0 when no problem was found, 1 otherwise, 2 for a usage error.\n"
    "\n"
    "FILE... is files, folders, globs or URLs, one after another.\n"
    "\n"
    "  --columns a,b.c  verify these leaf columns' pages only (file-level\n"
    "                   checks cover every column)\n"
    "  --quiet          print the summary line only\n"
    "\n" PARQ_KEY_HELP
    "Without the keys of an encrypted column, each of its chunks is reported as\n"
    "a problem (a key is needed to verify it).\n",
    run_verify,
};

}  // namespace parq::tool
