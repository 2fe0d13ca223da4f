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
#include "key_args.h"
#include "list_options.h"
#include "parq/file/batch_reader.h"
#include "print_rows.h"

namespace parq::tool {
namespace {

struct ReadRun {
  int64_t rows = 0;
  double seconds = 0;
  ReadStats stats;
};

// A run is what a caller waits for: opening the file, every batch, and
// closing it again (the reader's threads joined, the file unmapped).
ReadRun time_read(const std::string& path, ReadOptions options, const ReaderOptions& reader) {
  auto start = std::chrono::steady_clock::now();
  ReadRun run;
  {
    auto file = FileReader::open(path, reader);
    options.stats = &run.stats;
    auto source = read_batches(*file, options);
    RecordBatch batch;
    while (source->next(batch)) run.rows += batch.num_rows;
    run.stats.bytes_read = static_cast<int64_t>(file->bytes_read());  // the footer included
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

int run_bench_read(const std::vector<std::string>& argv) {
  Args args(argv, with_key_options({{"threads", true},
                                    {"repeat", true},
                                    {"json", false},
                                    {"batch-rows", true},
                                    {"columns", true},
                                    {"where", true},
                                    {"offset", true},
                                    {"limit", true}}));
  const std::string& path = args.expect_positionals({"read", "FILE"})[1];
  const ReaderOptions reader = reader_options(args, path);
  ReadOptions options;
  // A list of thread counts takes turns run by run: the machine's drift
  // over seconds then lands on every count alike, and their ratio compares
  // one machine, where runs of one count after the other's would not.
  std::vector<int> thread_counts{options.threads};
  if (auto v = args.value("threads")) {
    thread_counts.clear();
    for (const std::string& item : split_list(*v))
      thread_counts.push_back(static_cast<int>(std::max<int64_t>(1, parse_count("threads", item))));
    if (thread_counts.empty()) throw UsageError("--threads needs at least one count");
  }
  if (auto v = args.value("batch-rows")) options.batch_rows = std::max<int64_t>(1, parse_count("batch-rows", *v));
  if (auto v = args.value("columns")) options.columns = split_list(*v);
  if (auto v = args.value("where")) options.filter = parse_where(*v);
  if (auto v = args.value("offset")) options.offset = parse_count("offset", *v);
  if (auto v = args.value("limit")) options.limit = parse_count("limit", *v);
  int64_t repeat = args.value("repeat") ? std::max<int64_t>(1, parse_count("repeat", *args.value("repeat"))) : 5;

  std::vector<std::vector<double>> seconds(thread_counts.size());
  int64_t rows = 0;
  ReadStats stats;
  for (int64_t k = 0; k < repeat; ++k)
    for (size_t t = 0; t < thread_counts.size(); ++t) {
      options.threads = thread_counts[t];
      ReadRun run = time_read(path, options, reader);
      rows = run.rows;
      stats = run.stats;
      seconds[t].push_back(run.seconds);
    }
  auto file = FileReader::open(path, reader);
  const int64_t bytes = static_cast<int64_t>(file->input().size());
  std::string out;
  const bool several = thread_counts.size() > 1;
  if (args.flag("json")) {
    JsonWriter w(out);
    w.begin_object().field("file", path).field("rows", rows).field("bytes", bytes);
    auto doubles = [&](const std::vector<double>& xs) {
      w.begin_array();
      for (double s : xs) w.raw(std::to_string(s));
      w.end_array();
    };
    if (several) {
      w.key("threads").begin_array();
      for (int t : thread_counts) w.raw(std::to_string(t));
      w.end_array();
    } else {
      w.field("threads", thread_counts[0]);
    }
    w.field("bytes_read", stats.bytes_read).field("rows_decoded", stats.rows_decoded);
    w.field("row_groups_pruned", stats.row_groups_pruned_by_statistics + stats.row_groups_pruned_by_dictionary +
                                     stats.row_groups_pruned_by_bloom_filter);
    w.field("pages_pruned", stats.pages_pruned_by_index);
    w.key("seconds");
    if (several) {
      w.begin_array();
      for (const auto& xs : seconds) doubles(xs);
      w.end_array();
    } else {
      doubles(seconds[0]);
    }
    w.end_object();
  } else {
    char line[256];
    for (size_t t = 0; t < thread_counts.size(); ++t) {
      std::vector<double> sorted = seconds[t];
      std::sort(sorted.begin(), sorted.end());
      double median = sorted[sorted.size() / 2];
      std::snprintf(line, sizeof line, "%s: %lld rows, %lld bytes, %d thread(s)\n", path.c_str(),
                    static_cast<long long>(rows), static_cast<long long>(bytes), thread_counts[t]);
      out += line;
      for (double s : seconds[t]) {
        std::snprintf(line, sizeof line, "  %.4f s\n", s);
        out += line;
      }
      std::snprintf(line, sizeof line, "median %.4f s, %.1f M rows/s, %.1f MB/s of file\n", median, rows / median / 1e6,
                    bytes / median / 1e6);
      out += line;
    }
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
    "usage: parq bench read FILE [--threads N[,N...]] [--repeat K] [--json] [--columns a,b]\n"
    "                            [--where EXPR] [--offset N] [--limit N]\n"
    "       parq bench write FILE [--codec NAME] [--threads N] [--repeat K] [--json]\n"
    "                             [--out PATH | --to-memory] [writer options]\n"
    "\n"
    "Decodes every value of every column (batches into memory, nothing\n"
    "rendered) K times (5 by default) and reports each run's wall time, from\n"
    "opening the file to closing it. --json prints one object with \"rows\",\n"
    "\"bytes\" and \"seconds\" (the K run times), and what the read cost: \"bytes_read\"\n"
    "(from the file, the footer included), \"rows_decoded\", \"row_groups_pruned\"\n"
    "and \"pages_pruned\". --where, --offset and --limit read as 'parq cat' does.\n"
    "Several thread counts (--threads 1,2) take turns run by run, K runs each;\n"
    "--json then gives \"threads\" as a list and \"seconds\" as a list per count.\n"
    "\n"
    "write: loads FILE's rows into memory, then writes them K times with the\n"
    "default settings changed only by the options given (see 'parq rewrite\n"
    "--help'), to a temporary file (or --out PATH, or memory), each run timed\n"
    "from opening the writer to the renamed, flushed file (the file of the run\n"
    "before is deleted first, untimed). --json prints one object with \"bytes\"\n"
    "(the output's size), \"seconds\" and the peak RSS.\n"
    "\n" PARQ_KEY_HELP,
    run_bench,
};

}  // namespace parq::tool
