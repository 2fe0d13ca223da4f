// `parq bench write FILE`: loads FILE's rows into memory, then times writing
// them K times with the default settings (and the chosen codec), for the
// side-by-side comparison with other engines (bench/compare). Each run
// writes a file through the normal path (temporary, fsync, rename) unless
// --to-memory asks for a buffer.
#include "bench_write.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "args.h"
#include "json_writer.h"
#include "list_options.h"
#include "parq/file/batch_reader.h"
#include "parq/file/file_writer.h"
#include "write_options.h"

namespace parq::tool {
namespace {

int64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;
}

struct Loaded {
  Schema schema;
  std::vector<RecordBatch> batches;
  int64_t rows = 0;
};

Loaded load(const std::string& path) {
  auto file = FileReader::open(path);
  Loaded loaded{file->schema(), {}, 0};
  auto source = read_batches(*file);
  RecordBatch batch;
  while (source->next(batch)) {
    loaded.rows += batch.num_rows;
    loaded.batches.push_back(std::move(batch));
    batch = RecordBatch{};
  }
  return loaded;
}

struct WriteRun {
  uint64_t bytes = 0;
  size_t peak_buffered = 0;
};

WriteRun write_once(const Loaded& data, const WriteOptions& options, const std::string& out_path) {
  std::unique_ptr<FileWriter> writer;
  io::BufferOutput* memory = nullptr;
  if (out_path.empty()) {
    auto out = std::make_unique<io::BufferOutput>();
    memory = out.get();
    writer = FileWriter::open(std::move(out), data.schema, options);
  } else {
    writer = FileWriter::open(out_path, data.schema, options);
  }
  for (const RecordBatch& b : data.batches) writer->write(b);
  writer->close();
  return {memory ? memory->buffer().size() : std::filesystem::file_size(out_path), writer->peak_buffered_bytes()};
}

}  // namespace

int run_bench_write(const std::vector<std::string>& argv) {
  Args args(argv, with_write_options({{"repeat", true}, {"json", false}, {"out", true}, {"to-memory", false}}));
  const std::string& path = args.expect_positionals({"write", "FILE"})[1];
  WriteOptions options = parse_write_options(args);
  const int64_t repeat = args.value("repeat") ? std::max<int64_t>(1, parse_count("repeat", *args.value("repeat"))) : 5;
  std::string out_path;
  if (!args.flag("to-memory"))
    out_path =
        args.value("out").value_or((std::filesystem::temp_directory_path() / "parq-bench-write.parquet").string());

  Loaded data = load(path);
  const int64_t loaded_rss = peak_rss_bytes();
  std::vector<double> seconds;
  uint64_t bytes = 0;
  size_t peak_buffered = 0;
  for (int64_t k = 0; k < repeat; ++k) {
    // The run before's file goes first, untimed: replacing it frees its
    // blocks (tens of milliseconds for a large file), which is the file
    // system's work on the old file, not the writing of the new.
    if (!out_path.empty()) std::filesystem::remove(out_path);
    auto start = std::chrono::steady_clock::now();
    WriteRun run = write_once(data, options, out_path);
    bytes = run.bytes;
    peak_buffered = run.peak_buffered;
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  const int64_t peak = peak_rss_bytes();

  std::string out;
  if (args.flag("json")) {
    JsonWriter w(out);
    w.begin_object().field("file", path).field("rows", data.rows).field("bytes", static_cast<int64_t>(bytes));
    w.field("threads", options.threads).field("codec", format::to_string(options.codec.id));
    w.field("loaded_rss_bytes", loaded_rss).field("peak_rss_bytes", peak);
    w.field("writer_peak_buffered_bytes", static_cast<int64_t>(peak_buffered));
    w.key("seconds").begin_array();
    for (double s : seconds) w.raw(std::to_string(s));
    w.end_array().end_object();
    out += '\n';
  } else {
    std::vector<double> sorted = seconds;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[sorted.size() / 2];
    char line[256];
    std::snprintf(line, sizeof line, "%s: %lld rows written as %llu bytes (%s), %d thread(s)\n", path.c_str(),
                  static_cast<long long>(data.rows), static_cast<unsigned long long>(bytes),
                  format::to_string(options.codec.id), options.threads);
    out += line;
    for (double s : seconds) {
      std::snprintf(line, sizeof line, "  %.4f s\n", s);
      out += line;
    }
    std::snprintf(line, sizeof line,
                  "median %.4f s, %.1f M rows/s; peak RSS %.1f MiB (%.1f MiB after loading); the writer held at "
                  "most %.1f MiB of pages\n",
                  median, data.rows / median / 1e6, peak / 1048576.0, loaded_rss / 1048576.0,
                  peak_buffered / 1048576.0);
    out += line;
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (!out_path.empty() && !args.value("out")) std::filesystem::remove(out_path);
  return 0;
}

}  // namespace parq::tool
