// `parq bench read FILE`: times decoding every value of every column
// (streaming batches into memory, nothing rendered), K times. The numbers go
// into the side-by-side comparison with other engines (bench/compare).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "args.h"
#include "bench_write.h"
#include "command.h"
#include "json_writer.h"
#include "list_options.h"
#include "parq/file/batch_reader.h"

namespace parq::tool {
namespace {

struct ReadRun {
  int64_t rows = 0;
  double seconds = 0;
};

ReadRun time_read(const std::string& path, const ReadOptions& options) {
  auto start = std::chrono::steady_clock::now();
  auto file = FileReader::open(path);
  auto source = read_batches(*file, options);
  RecordBatch batch;
  ReadRun run;
  while (source->next(batch)) run.rows += batch.num_rows;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

int run_bench_read(const std::vector<std::string>& argv) {
  Args args(argv, {{"threads", true}, {"repeat", true}, {"json", false}, {"batch-rows", true}, {"columns", true}});
  const std::string& path = args.expect_positionals({"read", "FILE"})[1];
  ReadOptions options;
  if (auto v = args.value("threads"))
    options.threads = static_cast<int>(std::max<int64_t>(1, parse_count("threads", *v)));
  if (auto v = args.value("batch-rows")) options.batch_rows = std::max<int64_t>(1, parse_count("batch-rows", *v));
  if (auto v = args.value("columns")) options.columns = split_list(*v);
  int64_t repeat = args.value("repeat") ? std::max<int64_t>(1, parse_count("repeat", *args.value("repeat"))) : 5;

  std::vector<double> seconds;
  int64_t rows = 0;
  for (int64_t k = 0; k < repeat; ++k) {
    ReadRun run = time_read(path, options);
    rows = run.rows;
    seconds.push_back(run.seconds);
  }
  auto file = FileReader::open(path);
  const int64_t bytes = static_cast<int64_t>(file->input().size());
  std::string out;
  if (args.flag("json")) {
    JsonWriter w(out);
    w.begin_object().field("file", path).field("rows", rows).field("bytes", bytes).field("threads", options.threads);
    w.key("seconds").begin_array();
    for (double s : seconds) w.raw(std::to_string(s));
    w.end_array().end_object();
  } else {
    std::vector<double> sorted = seconds;
    std::sort(sorted.begin(), sorted.end());
    double median = sorted[sorted.size() / 2];
    char line[256];
    std::snprintf(line, sizeof line, "%s: %lld rows, %lld bytes, %d thread(s)\n", path.c_str(),
                  static_cast<long long>(rows), static_cast<long long>(bytes), options.threads);
    out += line;
    for (double s : seconds) {
      std::snprintf(line, sizeof line, "  %.4f s\n", s);
      out += line;
    }
    std::snprintf(line, sizeof line, "median %.4f s, %.1f M rows/s, %.1f MB/s of file\n", median, rows / median / 1e6,
                  bytes / median / 1e6);
    out += line;
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

int run_bench(const std::vector<std::string>& argv) {
  if (argv.empty()) throw UsageError("missing what to time (read or write)");
  if (argv[0] == "read") return run_bench_read(argv);
  if (argv[0] == "write") return run_bench_write(argv);
  throw UsageError("unknown benchmark '" + argv[0] + "' (read or write)");
}

}  // namespace

const Command kBenchCommand = {
    "bench",
    "time reading or writing a file",
    "usage: parq bench read FILE [--threads N] [--repeat K] [--json] [--columns a,b]\n"
    "       parq bench write FILE [--codec NAME] [--threads N] [--repeat K] [--json]\n"
    "                             [--out PATH | --to-memory] [writer options]\n"
    "\n"
    "Decodes every value of every column (batches into memory, nothing\n"
    "rendered) K times (5 by default) and reports each run's wall time, the\n"
    "file's opening included. --json prints one object with \"rows\", \"bytes\"\n"
    "and \"seconds\" (the K run times).\n"
    "\n"
    "write: loads FILE's rows into memory, then writes them K times with the\n"
    "default settings changed only by the options given (see 'parq rewrite\n"
    "--help'), to a temporary file (or --out PATH, or memory), each run timed\n"
    "from opening the writer to the renamed, flushed file. --json prints one\n"
    "object with \"bytes\" (the output's size), \"seconds\" and the peak RSS.\n",
    run_bench,
};

}  // namespace parq::tool
