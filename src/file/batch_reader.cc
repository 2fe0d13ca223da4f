// FileBatchReader: row groups -> leaf readers -> record assembly.
#include "parq/file/batch_reader.h"

#include <algorithm>
#include <deque>
#include <future>
#include <mutex>
#include <optional>

#include "../column/leaf_reader.h"
#include "../filter/bound_filter.h"
#include "../plan/planner.h"
#include "../record/array_plan.h"
#include "../record/assembler.h"
#include "../record/record_selection.h"
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

// The reading of one planned row group: its leaf readers (the projection's
// leaves and the filter's), their batches, and where the read is.
struct GroupCursor {
  RowGroupPlan plan;
  std::vector<std::unique_ptr<LeafReader>> readers;
  std::vector<LeafBatch> batches;
  int64_t row = 0;   // the next row to read, in the row group
  size_t range = 0;  // the first of plan.ranges not behind `row`
};

// Passes over `records` records of a leaf: read in batches and dropped.
int64_t skip_records(LeafReader& reader, int64_t records) {
  LeafBatch scratch;
  int64_t done = 0;
  while (done < records) {
    scratch.clear();
    const int64_t got = reader.read_records(std::min<int64_t>(records - done, 64 * 1024), scratch);
    if (got == 0) break;
    done += got;
  }
  return done;
}

class FileBatchReader final : public BatchSource {
 public:
  FileBatchReader(const FileReader& file, ReadOptions options) : file_(file), options_(std::move(options)) {
    if (options_.batch_rows <= 0) throw Error("batch size must be positive");
    if (options_.threads < 1) throw Error("thread count must be at least 1");
    if (options_.offset < 0) throw Error("the offset must not be negative");
    if (options_.threads > 1) pool_ = std::make_unique<ThreadPool>(options_.threads);
    start_bytes_ = file.input().bytes_read();
    if (options_.stats == nullptr) options_.stats = &own_stats_;
    *options_.stats = ReadStats{};
    plans_ = plan_arrays(file.schema(), select_leaves(file.schema(), options_.columns));
    const std::vector<int> out_leaves = planned_leaves(plans_);
    if (options_.filter) filter_ = filter::BoundFilter::bind(*options_.filter, file.schema());
    // The leaves read: the projection's and the filter's, in schema order.
    leaves_ = out_leaves;
    if (filter_) leaves_.insert(leaves_.end(), filter_->columns().begin(), filter_->columns().end());
    std::sort(leaves_.begin(), leaves_.end());
    leaves_.erase(std::unique(leaves_.begin(), leaves_.end()), leaves_.end());
    auto slot_of = [&](int leaf) {
      return static_cast<size_t>(std::lower_bound(leaves_.begin(), leaves_.end(), leaf) - leaves_.begin());
    };
    for (int leaf : out_leaves) out_slots_.push_back(slot_of(leaf));
    if (filter_)
      for (const auto& test : filter_->tests()) test_slots_.push_back(slot_of(test.column));
    plan_ = plan_read(file, options_, options_.stats, filter_ ? &*filter_ : nullptr);
  }

  RecordBatch prototype() const override {
    RecordBatch b = empty_batch(plans_);
    if (!options_.row_index_column.empty()) b.columns.push_back(row_index_array({}, 0));
    return b;
  }

  bool next(RecordBatch& out) override {
    const bool more = read_next(out);
    ReadStats& stats = *options_.stats;
    stats.bytes_read = static_cast<int64_t>(file_.input().bytes_read() - start_bytes_);
    if (more) stats.rows_returned += out.num_rows;
    return more;
  }

  static ReadPlan plan_read(const FileReader& file, const ReadOptions& options, ReadStats* stats,
                            const filter::BoundFilter* filter) {
    plan::PlanRequest request;
    request.metadata = &file.metadata();
    request.schema = &file.schema();
    request.row_groups = options.row_groups;
    if (request.row_groups.empty())
      for (size_t g = 0; g < file.metadata().row_groups.size(); ++g) request.row_groups.push_back(g);
    for (size_t g : request.row_groups)
      if (g >= file.metadata().row_groups.size())
        throw Error("row group " + std::to_string(g) + " does not exist (the file has " +
                    std::to_string(file.metadata().row_groups.size()) + ")");
    request.filter = filter;
    request.pruning = options.pruning;
    request.has_selection = options.has_row_selection;
    for (const RowRange& r : options.row_selection)
      if (r.begin < 0 || r.end < r.begin)
        throw Error("row selection range [" + std::to_string(r.begin) + ", " + std::to_string(r.end) +
                    ") is not a range of row indices");
    request.selection = normalize_ranges(options.row_selection);
    ReadStats local;
    return plan::make_plan(request, stats ? *stats : local);
  }

 private:
  bool read_next(RecordBatch& out) {
    if (leaves_.empty() && options_.row_index_column.empty()) return false;
    if (options_.limit >= 0 && returned_ >= options_.limit) return false;
    if (parallel_groups()) return next_from_groups(out);
    for (;;) {
      if (!cursor_ && !open_next_row_group()) return false;
      if (finish_batch(*cursor_, read_batch(*cursor_, pool_.get()), out, true)) return true;
      if (cursor_->range >= cursor_->plan.ranges.size()) cursor_.reset();  // this row group is done
      if (options_.limit >= 0 && returned_ >= options_.limit) return false;
    }
  }

  std::unique_ptr<GroupCursor> open_group(const RowGroupPlan& plan) const {
    auto c = std::make_unique<GroupCursor>();
    c->plan = plan;
    for (int leaf : leaves_)
      c->readers.push_back(std::make_unique<LeafReader>(file_.input(), file_.metadata(), plan.row_group,
                                                        file_.schema().column(static_cast<size_t>(leaf)),
                                                        options_.pages));
    c->batches.resize(leaves_.size());
    return c;
  }

  bool open_next_row_group() {
    if (next_group_ >= plan_.row_groups.size()) return false;
    cursor_ = open_group(plan_.row_groups[next_group_++]);
    return true;
  }

  // With several threads and several row groups, whole row groups decode
  // side by side (each on one thread, as DuckDB splits work) and their
  // batches are handed out in file order; at most `threads` row groups are
  // decoded ahead. With few row groups per thread the last ones leave
  // threads idle (3 groups on 2 threads keep one busy a third of the time),
  // so column chunks of one row group decode side by side instead. An
  // offset or a limit counts rows in file order, so it reads one group at
  // a time.
  bool parallel_groups() const {
    return options_.threads > 1 && options_.offset == 0 && options_.limit < 0 &&
           plan_.row_groups.size() >= 4 * static_cast<size_t>(options_.threads);
  }

  bool next_from_groups(RecordBatch& out) {
    while (ready_index_ >= ready_.size()) {
      while (in_flight_.size() < static_cast<size_t>(options_.threads) && next_group_ < plan_.row_groups.size()) {
        const RowGroupPlan& plan = plan_.row_groups[next_group_++];
        in_flight_.push_back(std::async(std::launch::async, [this, &plan] { return decode_group(plan); }));
      }
      if (in_flight_.empty()) return false;
      ready_ = in_flight_.front().get();
      in_flight_.pop_front();
      ready_index_ = 0;
    }
    out = std::move(ready_[ready_index_++]);
    return true;
  }

  std::vector<RecordBatch> decode_group(const RowGroupPlan& plan) {
    auto cursor = open_group(plan);
    std::vector<RecordBatch> out;
    RecordBatch batch;
    while (cursor->range < cursor->plan.ranges.size()) {
      const int64_t rows = read_batch(*cursor, nullptr);
      if (finish_batch(*cursor, rows, batch, false)) out.push_back(std::move(batch));
    }
    return out;
  }

  Error mismatch(size_t g, const LeafReader& a, int64_t a_rows, const LeafReader& b, int64_t b_rows) const {
    return Error(file_.name() + ": row group " + std::to_string(g) + ": column " + a.column().dotted_path() + " has " +
                 std::to_string(a_rows) + " records where column " + b.column().dotted_path() + " has " +
                 std::to_string(b_rows));
  }

  // Reads the next batch of records from every leaf, from the cursor's
  // next selected row to at most the end of its range; they must agree.
  // Rows between ranges are skipped, not decoded.
  int64_t read_batch(GroupCursor& c, ThreadPool* pool) {
    const auto& ranges = c.plan.ranges;
    while (c.range < ranges.size() && ranges[c.range].end <= c.row) ++c.range;
    if (c.range >= ranges.size()) return 0;
    if (c.row < ranges[c.range].begin) {
      const int64_t gap = ranges[c.range].begin - c.row;
      for (size_t i = 0; i < c.readers.size(); ++i) {
        const int64_t skipped = skip_records(*c.readers[i], gap);
        if (skipped != gap)
          throw mismatch(c.plan.row_group, *c.readers[i], c.row + skipped, *c.readers[0], c.row + gap);
      }
      c.row += gap;
    }
    const int64_t want = std::min(options_.batch_rows, ranges[c.range].end - c.row);
    decompress_next_pages(c.readers, pool);
    std::vector<int64_t> got(c.readers.size());
    auto read_one = [&](size_t i) {
      c.batches[i].clear();
      got[i] = c.readers[i]->read_records(want, c.batches[i]);
    };
    if (pool) {
      pool->parallel_for(c.readers.size(), read_one);
    } else {
      for (size_t i = 0; i < c.readers.size(); ++i) read_one(i);
    }
    for (size_t i = 1; i < c.readers.size(); ++i)
      if (got[i] != got[0]) throw mismatch(c.plan.row_group, *c.readers[i], got[i], *c.readers[0], got[0]);
    const int64_t rows = c.readers.empty() ? want : got[0];
    if (rows < want)
      throw Error(file_.name() + ": row group " + std::to_string(c.plan.row_group) + " ends after " +
                  std::to_string(c.row + rows) + " rows where its metadata says " + std::to_string(c.plan.num_rows));
    c.row += rows;
    return rows;
  }

  // Applies the filter, the offset and the limit to the batch just read
  // (`rows` rows ending at the cursor's row) and assembles what is left;
  // false when nothing is.
  bool finish_batch(GroupCursor& c, int64_t rows, RecordBatch& out, bool ordered) {
    if (rows <= 0) return false;
    const int64_t first = c.row - rows;  // in the row group
    std::vector<uint8_t> keep;
    int64_t kept = rows;
    {
      std::lock_guard<std::mutex> lock(stats_mutex_);
      options_.stats->rows_decoded += rows;
    }
    if (filter_) {
      const auto& tests = filter_->tests();
      std::vector<std::vector<uint8_t>> truths(tests.size());
      for (size_t t = 0; t < tests.size(); ++t) {
        const LeafBatch& b = c.batches[test_slots_[t]];
        const ColumnDescriptor& column = file_.schema().column(static_cast<size_t>(tests[t].column));
        filter::DenseValues values;
        values.fixed = b.values.fixed.data();
        values.offsets = b.values.bytes.offsets();
        values.data = b.values.bytes.data();
        values.width = column.type.type_length;
        if (column.type.physical != format::Type::BYTE_ARRAY) values.offsets = nullptr;
        truths[t].resize(static_cast<size_t>(rows));
        filter::evaluate_test(tests[t], values, b.def.empty() ? nullptr : b.def_levels(), column.max_definition_level,
                              rows, truths[t].data());
      }
      keep.resize(static_cast<size_t>(rows));
      filter::evaluate_tree(filter_->root(), truths, rows, keep.data());
      kept = 0;
      for (auto& k : keep) {
        k = k == filter::kRowTrue;
        kept += k;
      }
      std::lock_guard<std::mutex> lock(stats_mutex_);
      options_.stats->rows_filtered += rows - kept;
    }
    if (ordered && (options_.offset > skipped_ || options_.limit >= 0)) {
      if (keep.empty()) keep.assign(static_cast<size_t>(rows), 1);
      for (auto& k : keep) {
        if (!k) continue;
        if (skipped_ < options_.offset) {
          k = 0;
          ++skipped_;
          ++options_.stats->rows_skipped_by_offset;
          --kept;
        } else if (options_.limit >= 0 && returned_ + 1 > options_.limit) {
          k = 0;
          --kept;
        } else {
          ++returned_;
        }
      }
    } else if (ordered) {
      returned_ += kept;
    }
    if (kept == 0) return false;
    std::vector<LeafInput> inputs;
    for (size_t i = 0; i < out_slots_.size(); ++i) {
      LeafBatch& b = c.batches[out_slots_[i]];
      const ColumnDescriptor& column = file_.schema().column(static_cast<size_t>(leaves_[out_slots_[i]]));
      if (kept < rows) keep_records(b, column, keep.data(), rows);
      inputs.push_back({leaves_[out_slots_[i]], column.max_definition_level, &b});
    }
    out = assemble(plans_, inputs, kept);
    if (!options_.row_index_column.empty()) {
      std::vector<int64_t> index;
      index.reserve(static_cast<size_t>(kept));
      for (int64_t r = 0; r < rows; ++r)
        if (keep.empty() || keep[static_cast<size_t>(r)]) index.push_back(c.plan.first_row + first + r);
      out.columns.push_back(row_index_array(index, kept));
      out.num_rows = kept;
    }
    return true;
  }

  Array row_index_array(const std::vector<int64_t>& index, int64_t rows) const {
    Array a;
    a.kind = ArrayKind::kLeaf;
    a.name = options_.row_index_column;
    a.type.physical = format::Type::INT64;
    a.length = rows;
    a.values.append(index.data(), index.size() * sizeof(int64_t));
    return a;
  }

  const FileReader& file_;
  ReadOptions options_;
  ReadStats own_stats_;
  std::mutex stats_mutex_;
  uint64_t start_bytes_ = 0;
  std::optional<filter::BoundFilter> filter_;
  std::vector<ArrayPlan> plans_;
  std::vector<int> leaves_;         // read, in schema order
  std::vector<size_t> out_slots_;   // the projection's leaves among leaves_
  std::vector<size_t> test_slots_;  // each filter test's leaf among leaves_
  ReadPlan plan_;
  std::unique_ptr<GroupCursor> cursor_;
  size_t next_group_ = 0;
  int64_t skipped_ = 0;   // rows dropped by the offset so far
  int64_t returned_ = 0;  // rows handed out so far (ordered reads)
  std::unique_ptr<ThreadPool> pool_;
  std::deque<std::future<std::vector<RecordBatch>>> in_flight_;
  std::vector<RecordBatch> ready_;
  size_t ready_index_ = 0;
};

}  // namespace

std::unique_ptr<BatchSource> read_batches(const FileReader& file, const ReadOptions& options) {
  return std::make_unique<FileBatchReader>(file, options);
}

ReadPlan plan_read(const FileReader& file, const ReadOptions& options, ReadStats* stats) {
  std::optional<filter::BoundFilter> filter;
  if (options.filter) filter = filter::BoundFilter::bind(*options.filter, file.schema());
  return FileBatchReader::plan_read(file, options, stats, filter ? &*filter : nullptr);
}

}  // namespace parq
