// FileBatchReader: row groups -> leaf readers -> record assembly.
#include "parq/file/batch_reader.h"

#include <algorithm>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <optional>

#include "../column/leaf_reader.h"
#include "../fetch/chunk_fetch.h"
#include "../filter/bound_filter.h"
#include "../plan/planner.h"
#include "../record/array_plan.h"
#include "../record/assembler.h"
#include "../record/record_selection.h"
#include "parq/error.h"
#include "parq/file/bloom_filter_reader.h"
#include "parq/file/dictionary_reader.h"
#include "parq/file/page_index.h"
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
void decompress_next_pages(const std::vector<LeafReader*>& readers, ThreadPool* pool) {
  std::vector<PageDecompression> tasks;
  for (LeafReader* reader : readers) {
    PageDecompression task;
    if (reader->stage_page(task)) tasks.push_back(task);
  }
  if (pool == nullptr || tasks.size() < 2) return run_decompressions(tasks);
  const size_t pairs = (tasks.size() + 1) / 2;
  pool->parallel_for(pairs, [&](size_t i) {
    run_decompressions(std::span(tasks).subspan(2 * i, std::min<size_t>(2, tasks.size() - 2 * i)));
  });
}

// The planner's look-ups of dictionaries, bloom filters and page indexes,
// fetched on first use and kept for the plan. One that cannot be read (or
// fails validation) is left out: pruning is an optimisation, and the read
// still decodes the chunk and evaluates the filter on its rows.
class FileLookups final : public plan::ChunkLookups {
 public:
  FileLookups(const FileReader& file, const PageReaderOptions& pages) : file_(file), pages_(pages) {}

  const Array* dictionary(size_t g, size_t column) override {
    auto [it, fresh] = dictionaries_.try_emplace({g, column});
    if (fresh) {
      const auto& chunk = file_.metadata().row_groups[g].columns[column];
      if (chunk.meta_data && all_pages_dictionary_encoded(*chunk.meta_data)) {
        try {
          it->second = read_dictionary(file_, g, column, pages_);
        } catch (const Error&) {
        }
      }
    }
    return it->second ? &*it->second : nullptr;
  }

  const BloomFilter* bloom_filter(size_t g, size_t column) override {
    auto [it, fresh] = blooms_.try_emplace({g, column});
    if (fresh) {
      try {
        it->second = read_bloom_filter(file_, g, column);
      } catch (const Error&) {
      }
    }
    return it->second ? &*it->second : nullptr;
  }

  std::optional<PageIndex> page_index(size_t g, size_t column) override {
    std::lock_guard<std::mutex> lock(mutex_);  // row groups open on several threads
    auto [it, fresh] = indexes_.try_emplace({g, column});
    if (fresh) {
      try {
        it->second = read_page_index(file_, g, column);
      } catch (const Error&) {
      }
    }
    if (!it->second || !it->second->offset_index) return std::nullopt;
    PageIndex out;
    out.offset_index = &*it->second->offset_index;
    out.column_index = it->second->column_index ? &*it->second->column_index : nullptr;
    return out;
  }

 private:
  using Key = std::pair<size_t, size_t>;
  const FileReader& file_;
  PageReaderOptions pages_;
  std::map<Key, std::optional<Array>> dictionaries_;
  std::map<Key, std::optional<BloomFilter>> blooms_;
  std::map<Key, std::optional<parq::PageIndex>> indexes_;
  std::mutex mutex_;
};

// The reading of one planned row group: its leaf readers (the projection's
// leaves and the filter's), their batches, and where the read is.
struct GroupCursor {
  RowGroupPlan plan;
  std::vector<std::unique_ptr<LeafReader>> readers;
  std::vector<LeafBatch> batches;
  int64_t row = 0;   // the next row to read, in the row group
  size_t range = 0;  // the first of plan.ranges not behind `row`
};

// Late columns are read run by run only when the kept rows come in runs of
// at least this many rows on average; shorter runs cost more in calls than
// decoding the rows between them.
constexpr int64_t kLateRunRows = 32;

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
    is_filter_slot_.assign(leaves_.size(), false);
    if (filter_) {
      for (const auto& test : filter_->tests()) test_slots_.push_back(slot_of(test.column));
      for (int leaf : filter_->columns()) {
        filter_slots_.push_back(slot_of(leaf));
        is_filter_slot_[slot_of(leaf)] = true;
      }
    }
    for (size_t i = 0; i < leaves_.size(); ++i) {
      all_slots_.push_back(i);
      if (filter_ && !is_filter_slot_[i]) late_slots_.push_back(i);
    }
    plan_ = plan_read(file, options_, options_.stats, filter_ ? &*filter_ : nullptr, &lookups_);
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
    LeafReadCounters open = closed_;
    if (cursor_) add_counters(*cursor_, open);
    std::lock_guard<std::mutex> lock(stats_mutex_);
    stats.pages_decompressed = open.pages_decompressed;
    stats.values_decoded = open.values_decoded;
    if (more) stats.rows_returned += out.num_rows;
    return more;
  }

  static ReadPlan plan_read(const FileReader& file, const ReadOptions& options, ReadStats* stats,
                            const filter::BoundFilter* filter, FileLookups* lookups = nullptr) {
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
    request.offset = options.offset;
    request.limit = options.limit;
    request.has_selection = options.has_row_selection;
    for (const RowRange& r : options.row_selection)
      if (r.begin < 0 || r.end < r.begin)
        throw Error("row selection range [" + std::to_string(r.begin) + ", " + std::to_string(r.end) +
                    ") is not a range of row indices");
    request.selection = normalize_ranges(options.row_selection);
    std::optional<FileLookups> own;
    if (lookups == nullptr) lookups = &own.emplace(file, options.pages);
    request.lookups = lookups;
    ReadStats local;
    return plan::make_plan(request, stats ? *stats : local);
  }

 private:
  bool read_next(RecordBatch& out) {
    if (leaves_.empty() && options_.row_index_column.empty()) return false;
    if (filter_ && options_.limit >= 0 && returned_ >= options_.limit) return false;
    if (parallel_groups()) return next_from_groups(out);
    for (;;) {
      if (!cursor_ && !open_next_row_group()) return false;
      if (finish_batch(*cursor_, read_batch(*cursor_, pool_.get()), out, true)) return true;
      if (cursor_->range >= cursor_->plan.ranges.size()) close_cursor();  // this row group is done
      if (filter_ && options_.limit >= 0 && returned_ >= options_.limit) return false;
    }
  }

  static void add_counters(const GroupCursor& c, LeafReadCounters& to) {
    for (const auto& r : c.readers) {
      to.pages_decompressed += r->counters().pages_decompressed;
      to.pages_skipped += r->counters().pages_skipped;
      to.values_decoded += r->counters().values_decoded;
      to.values_skipped += r->counters().values_skipped;
    }
  }

  void close_cursor() {
    std::lock_guard<std::mutex> lock(stats_mutex_);
    add_counters(*cursor_, closed_);
    cursor_.reset();
  }

  // Fetches what the row group's plan needs of each leaf's chunk (only the
  // pages of its row ranges, where the offset index tells where they are)
  // in one read, and gives each leaf reader its bytes.
  std::unique_ptr<GroupCursor> open_group(const RowGroupPlan& plan) {
    auto c = std::make_unique<GroupCursor>();
    c->plan = plan;
    const bool all_rows = plan.ranges.size() == 1 && plan.ranges[0].begin == 0 && plan.ranges[0].end >= plan.num_rows;
    std::vector<fetch::ChunkRequest> requests;
    for (int leaf : leaves_) {
      const auto column = static_cast<size_t>(leaf);
      const format::OffsetIndex* index = nullptr;
      if (!all_rows && options_.pruning.page_index)
        if (auto pi = lookups_.page_index(plan.row_group, column)) index = pi->offset_index;
      try {
        requests.push_back(fetch::chunk_request(file_.metadata(), plan.row_group, column, file_.input().size(), index,
                                                plan.ranges, plan.num_rows));
      } catch (const Error& e) {
        throw Error(file_.name() + ": column " + file_.schema().column(column).dotted_path() + ", row group " +
                    std::to_string(plan.row_group) + ": " + e.what());
      }
    }
    std::vector<ChunkBytes> bytes = fetch::fetch_chunks(file_.input(), requests);
    for (size_t i = 0; i < leaves_.size(); ++i)
      c->readers.push_back(
          std::make_unique<LeafReader>(std::move(bytes[i]), file_.name(), file_.metadata(), plan.row_group,
                                       file_.schema().column(static_cast<size_t>(leaves_[i])), options_.pages));
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
    return options_.threads > 1 && (!filter_ || (options_.offset == 0 && options_.limit < 0)) &&
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
    std::lock_guard<std::mutex> lock(stats_mutex_);
    add_counters(*cursor, closed_);
    return out;
  }

  Error mismatch(size_t g, const LeafReader& a, int64_t a_rows, const LeafReader& b, int64_t b_rows) const {
    return Error(file_.name() + ": row group " + std::to_string(g) + ": column " + a.column().dotted_path() + " has " +
                 std::to_string(a_rows) + " records where column " + b.column().dotted_path() + " has " +
                 std::to_string(b_rows));
  }

  // Reads the next batch of records, from the cursor's next selected row to
  // at most the end of its range: of the filter's leaves when there is a
  // filter (the others wait for its verdict, in finish_batch), else of
  // every leaf. Leaves must agree on the count. Rows between ranges are
  // skipped by every leaf, not decoded.
  int64_t read_batch(GroupCursor& c, ThreadPool* pool) {
    const auto& ranges = c.plan.ranges;
    while (c.range < ranges.size() && ranges[c.range].end <= c.row) ++c.range;
    if (c.range >= ranges.size()) return 0;
    if (c.row < ranges[c.range].begin) {
      const int64_t gap = ranges[c.range].begin - c.row;
      for_each_reader(all_slots_, pool, [&](size_t i) { check_count(c, i, c.readers[i]->skip_records(gap), gap); });
      c.row += gap;
    }
    const int64_t want = std::min(options_.batch_rows, ranges[c.range].end - c.row);
    const std::vector<size_t>& first = filter_ ? filter_slots_ : all_slots_;
    std::vector<LeafReader*> staged;
    for (size_t i : first) staged.push_back(c.readers[i].get());
    decompress_next_pages(staged, pool);
    for_each_reader(first, pool, [&](size_t i) {
      c.batches[i].clear();
      check_count(c, i, c.readers[i]->read_records(want, c.batches[i]), want);
    });
    c.row += want;
    return want;
  }

  // Runs fn(slot) for each slot, over the pool when there is one.
  template <class Fn>
  void for_each_reader(const std::vector<size_t>& slots, ThreadPool* pool, Fn fn) {
    if (pool && slots.size() > 1) {
      pool->parallel_for(slots.size(), [&](size_t k) { fn(slots[k]); });
    } else {
      for (size_t i : slots) fn(i);
    }
  }

  // Every leaf holds the row group's num_rows records.
  void check_count(const GroupCursor& c, size_t slot, int64_t got, int64_t wanted) const {
    if (got == wanted) return;
    throw Error(file_.name() + ": row group " + std::to_string(c.plan.row_group) + ": column " +
                c.readers[slot]->column().dotted_path() + " ends after " + std::to_string(c.row + got) +
                " records where the row group has " + std::to_string(c.plan.num_rows));
  }

  // The leaves that waited for the filter's verdict on the batch's `rows`
  // rows: nothing decoded when no row is kept; every row decoded and the
  // kept ones compacted when most are kept or the kept rows come in short
  // runs (a skip costs about what decoding a few values does); else the
  // kept runs read and the others skipped.
  void materialize_late(GroupCursor& c, const std::vector<uint8_t>& keep, int64_t rows, int64_t kept,
                        ThreadPool* pool) {
    if (late_slots_.empty()) return;
    if (kept == 0) {
      for_each_reader(late_slots_, pool, [&](size_t i) { check_count(c, i, c.readers[i]->skip_records(rows), rows); });
      return;
    }
    std::vector<std::pair<int64_t, bool>> runs;  // (length, kept)
    for (int64_t r = 0; r < rows; ++r) {
      const bool k = keep.empty() || keep[static_cast<size_t>(r)];
      if (!runs.empty() && runs.back().second == k) {
        ++runs.back().first;
      } else {
        runs.push_back({1, k});
      }
    }
    const bool dense = kept * 2 >= rows || static_cast<int64_t>(runs.size()) * kLateRunRows > rows;
    if (dense) {
      std::vector<LeafReader*> staged;
      for (size_t i : late_slots_) staged.push_back(c.readers[i].get());
      decompress_next_pages(staged, pool);
    }
    for_each_reader(late_slots_, pool, [&](size_t i) {
      LeafBatch& b = c.batches[i];
      b.clear();
      if (dense) {
        check_count(c, i, c.readers[i]->read_records(rows, b), rows);
        if (kept < rows) keep_records(b, file_.schema().column(static_cast<size_t>(leaves_[i])), keep.data(), rows);
        return;
      }
      for (const auto& [length, k] : runs)
        check_count(c, i, k ? c.readers[i]->read_records(length, b) : c.readers[i]->skip_records(length), length);
    });
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
        const filter::DenseValues values =
            filter::dense_values(column, b.values.fixed.data(), b.values.bytes.offsets(), b.values.bytes.data());
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
    // Without a filter the plan has applied the offset and the limit.
    if (ordered && filter_ && (options_.offset > skipped_ || options_.limit >= 0)) {
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
    materialize_late(c, keep, rows, kept, ordered ? pool_.get() : nullptr);
    if (kept == 0) return false;
    std::vector<LeafInput> inputs;
    for (size_t i = 0; i < out_slots_.size(); ++i) {
      const size_t slot = out_slots_[i];
      LeafBatch& b = c.batches[slot];
      const ColumnDescriptor& column = file_.schema().column(static_cast<size_t>(leaves_[slot]));
      if (kept < rows && is_filter_slot_[slot]) keep_records(b, column, keep.data(), rows);
      inputs.push_back({leaves_[slot], column.max_definition_level, &b});
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
  FileLookups lookups_{file_, options_.pages};  // the plan's, kept for fetching
  ReadStats own_stats_;
  std::mutex stats_mutex_;
  uint64_t start_bytes_ = 0;
  std::optional<filter::BoundFilter> filter_;
  std::vector<ArrayPlan> plans_;
  std::vector<int> leaves_;           // read, in schema order
  std::vector<size_t> out_slots_;     // the projection's leaves among leaves_
  std::vector<size_t> test_slots_;    // each filter test's leaf among leaves_
  std::vector<size_t> all_slots_;     // 0 .. leaves_.size() - 1
  std::vector<size_t> filter_slots_;  // the filter's leaves, read first
  std::vector<size_t> late_slots_;    // the others, read for the rows the filter keeps
  std::vector<bool> is_filter_slot_;
  ReadPlan plan_;
  std::unique_ptr<GroupCursor> cursor_;
  LeafReadCounters closed_;  // of the row groups done
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
