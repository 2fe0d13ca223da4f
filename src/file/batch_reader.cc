// FileBatchReader: row groups -> leaf readers -> record assembly.
#include "parq/file/batch_reader.h"

#include <algorithm>
#include <deque>
#include <future>

#include "../column/leaf_reader.h"
#include "../record/array_plan.h"
#include "../record/assembler.h"
#include "parq/error.h"
#include "parq/util/thread_pool.h"

namespace parq {
namespace {

std::vector<int> select_leaves(const Schema& schema, const std::vector<std::string>& paths) {
  std::vector<int> leaves;
  if (paths.empty()) {
    for (size_t i = 0; i < schema.num_columns(); ++i) leaves.push_back(static_cast<int>(i));
    return leaves;
  }
  for (const std::string& path : paths) {
    bool found = false;
    for (size_t i = 0; i < schema.num_columns(); ++i) {
      std::string leaf = schema.column(i).dotted_path();
      if (leaf == path ||
          (leaf.size() > path.size() && leaf.compare(0, path.size(), path) == 0 && leaf[path.size()] == '.')) {
        leaves.push_back(static_cast<int>(i));
        found = true;
      }
    }
    if (!found) throw Error("no column '" + path + "' in the schema");
  }
  std::sort(leaves.begin(), leaves.end());
  leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
  return leaves;
}

// The pages that each column's next batch starts on, decompressed together
// (SNAPPY pages in pairs; with a pool, the tasks spread over its threads).
// Pages a column reaches in the middle of a batch decompress on their own.
void decompress_next_pages(const std::vector<std::unique_ptr<LeafReader>>& readers, ThreadPool* pool) {
  std::vector<PageDecompression> tasks;
  for (const auto& reader : readers) {
    PageDecompression task;
    if (reader->stage_page(task)) tasks.push_back(task);
  }
  if (pool == nullptr || tasks.size() < 2) return run_decompressions(tasks);
  const size_t pairs = (tasks.size() + 1) / 2;
  pool->parallel_for(pairs, [&](size_t i) {
    run_decompressions(std::span(tasks).subspan(2 * i, std::min<size_t>(2, tasks.size() - 2 * i)));
  });
}

class FileBatchReader final : public BatchSource {
 public:
  FileBatchReader(const FileReader& file, ReadOptions options) : file_(file), options_(std::move(options)) {
    if (options_.batch_rows <= 0) throw Error("batch size must be positive");
    if (options_.threads < 1) throw Error("thread count must be at least 1");
    if (options_.threads > 1) pool_ = std::make_unique<ThreadPool>(options_.threads);
    plans_ = plan_arrays(file.schema(), select_leaves(file.schema(), options_.columns));
    leaves_ = planned_leaves(plans_);
    if (options_.row_groups.empty()) {
      for (size_t g = 0; g < file.metadata().row_groups.size(); ++g) options_.row_groups.push_back(g);
    }
    for (size_t g : options_.row_groups)
      if (g >= file.metadata().row_groups.size())
        throw Error("row group " + std::to_string(g) + " does not exist (the file has " +
                    std::to_string(file.metadata().row_groups.size()) + ")");
  }

  RecordBatch prototype() const override { return empty_batch(plans_); }

  bool next(RecordBatch& out) override {
    if (leaves_.empty()) return false;
    if (parallel_groups()) return next_from_groups(out);
    for (;;) {
      if (readers_.empty() && !open_next_row_group()) return false;
      int64_t rows = read_leaves();
      if (rows > 0) {
        std::vector<LeafInput> inputs;
        for (size_t i = 0; i < readers_.size(); ++i)
          inputs.push_back({leaves_[i], readers_[i]->column().max_definition_level, &batches_[i]});
        out = assemble(plans_, inputs, rows);
        return true;
      }
      readers_.clear();  // this row group is done
    }
  }

 private:
  bool open_next_row_group() {
    if (next_group_ >= options_.row_groups.size()) return false;
    size_t g = options_.row_groups[next_group_++];
    batches_.resize(leaves_.size());
    for (int leaf : leaves_)
      readers_.push_back(std::make_unique<LeafReader>(
          file_.input(), file_.metadata(), g, file_.schema().column(static_cast<size_t>(leaf)), options_.pages));
    current_group_ = g;
    return true;
  }

  // With several threads and several row groups, whole row groups decode
  // side by side (each on one thread, as DuckDB splits work) and their
  // batches are handed out in file order; at most `threads` row groups are
  // decoded ahead. With few row groups per thread the last ones leave
  // threads idle (3 groups on 2 threads keep one busy a third of the time),
  // so column chunks of one row group decode side by side instead.
  bool parallel_groups() const {
    return options_.threads > 1 && options_.row_groups.size() >= 4 * static_cast<size_t>(options_.threads);
  }

  bool next_from_groups(RecordBatch& out) {
    while (ready_index_ >= ready_.size()) {
      while (in_flight_.size() < static_cast<size_t>(options_.threads) && next_group_ < options_.row_groups.size()) {
        size_t g = options_.row_groups[next_group_++];
        in_flight_.push_back(std::async(std::launch::async, [this, g] { return decode_group(g); }));
      }
      if (in_flight_.empty()) return false;
      ready_ = in_flight_.front().get();
      in_flight_.pop_front();
      ready_index_ = 0;
    }
    out = std::move(ready_[ready_index_++]);
    return true;
  }

  std::vector<RecordBatch> decode_group(size_t g) const {
    std::vector<std::unique_ptr<LeafReader>> readers;
    for (int leaf : leaves_)
      readers.push_back(std::make_unique<LeafReader>(file_.input(), file_.metadata(), g,
                                                     file_.schema().column(static_cast<size_t>(leaf)), options_.pages));
    std::vector<LeafBatch> batches(readers.size());
    std::vector<RecordBatch> out;
    for (;;) {
      decompress_next_pages(readers, nullptr);
      int64_t rows = -1;
      for (size_t i = 0; i < readers.size(); ++i) {
        batches[i].clear();
        int64_t got = readers[i]->read_records(options_.batch_rows, batches[i]);
        if (rows >= 0 && got != rows) throw mismatch(g, *readers[i], got, *readers[0], rows);
        rows = got;
      }
      if (rows <= 0) return out;
      std::vector<LeafInput> inputs;
      for (size_t i = 0; i < readers.size(); ++i)
        inputs.push_back({leaves_[i], readers[i]->column().max_definition_level, &batches[i]});
      out.push_back(assemble(plans_, inputs, rows));
    }
  }

  Error mismatch(size_t g, const LeafReader& a, int64_t a_rows, const LeafReader& b, int64_t b_rows) const {
    return Error(file_.name() + ": row group " + std::to_string(g) + ": column " + a.column().dotted_path() + " has " +
                 std::to_string(a_rows) + " records where column " + b.column().dotted_path() + " has " +
                 std::to_string(b_rows));
  }

  // Reads the next batch of records from every leaf; they must agree.
  int64_t read_leaves() {
    decompress_next_pages(readers_, pool_.get());
    std::vector<int64_t> got(readers_.size());
    auto read_one = [&](size_t i) {
      batches_[i].clear();
      got[i] = readers_[i]->read_records(options_.batch_rows, batches_[i]);
    };
    if (pool_) {
      pool_->parallel_for(readers_.size(), read_one);
    } else {
      for (size_t i = 0; i < readers_.size(); ++i) read_one(i);
    }
    for (size_t i = 1; i < readers_.size(); ++i)
      if (got[i] != got[0]) throw mismatch(current_group_, *readers_[i], got[i], *readers_[0], got[0]);
    return got.empty() ? 0 : got[0];
  }

  const FileReader& file_;
  ReadOptions options_;
  std::vector<ArrayPlan> plans_;
  std::vector<int> leaves_;
  std::vector<std::unique_ptr<LeafReader>> readers_;
  std::vector<LeafBatch> batches_;
  size_t next_group_ = 0;
  size_t current_group_ = 0;
  std::unique_ptr<ThreadPool> pool_;
  std::deque<std::future<std::vector<RecordBatch>>> in_flight_;
  std::vector<RecordBatch> ready_;
  size_t ready_index_ = 0;
};

}  // namespace

std::unique_ptr<BatchSource> read_batches(const FileReader& file, const ReadOptions& options) {
  return std::make_unique<FileBatchReader>(file, options);
}

}  // namespace parq
