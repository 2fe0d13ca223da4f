// FileBatchReader: row groups -> leaf readers -> record assembly.
#include "parq/file/batch_reader.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>

#include "../filter/bound_filter.h"
#include "../plan/page_header_index.h"
#include "../plan/planner.h"
#include "../record/array_plan.h"
#include "../record/assembler.h"
#include "batch_pipeline.h"
#include "filter_judge.h"
#include "parq/error.h"
#include "parq/file/bloom_filter_reader.h"
#include "parq/file/dictionary_reader.h"
#include "parq/file/page_index.h"
#include "parq/variant/shredding.h"

namespace parq {
namespace {

// An input that serves reads inside blocks fetched ahead from memory, and
// any other from the input it wraps: what the planner's look-ups read
// through after will_need() fetched their bytes in one call.
class PrefetchedInput final : public io::RandomAccessInput {
 public:
  PrefetchedInput(io::RandomAccessInput& inner, const std::vector<std::pair<io::FileRange, io::ByteRange>>& blocks)
      : inner_(inner), blocks_(blocks) {}
  uint64_t size() const override { return inner_.size(); }
  const std::string& name() const override { return inner_.name(); }
  bool memory_resident() const override { return inner_.memory_resident(); }
  std::span<const uint8_t> view(uint64_t offset, size_t n) const override {
    for (const auto& [range, bytes] : blocks_)
      if (offset >= range.offset && offset - range.offset <= range.length && n <= range.end() - offset) {
        count_view(n);
        return bytes.span().subspan(static_cast<size_t>(offset - range.offset), n);
      }
    return inner_.view(offset, n);
  }

 protected:
  void do_read_at(uint64_t offset, size_t n, uint8_t* out) override { inner_.read_at(offset, n, out); }

 private:
  io::RandomAccessInput& inner_;
  const std::vector<std::pair<io::FileRange, io::ByteRange>>& blocks_;
};

// The planner's look-ups of dictionaries, bloom filters and page indexes,
// fetched on first use and kept for the plan. One that cannot be read (or
// fails validation) is left out: pruning is an optimisation, and the read
// still decodes the chunk and evaluates the filter on its rows.
class FileLookups final : public plan::ChunkLookups {
 public:
  FileLookups(const FileReader& file, const PageReaderOptions& pages) : file_(file), pages_(pages) {
    pages_.decryptor = file.footer().decryptor;
  }

  const Array* dictionary(size_t g, size_t column) override {
    auto [it, fresh] = dictionaries_.try_emplace({g, column});
    if (fresh) {
      const auto& chunk = file_.metadata().row_groups[g].columns[column];
      if (chunk.meta_data && all_pages_dictionary_encoded(*chunk.meta_data)) {
        try {
          PrefetchedInput input(file_.chunk_input(g, column), blocks_of(g, column));
          it->second = read_dictionary(input, file_.metadata(), file_.schema().column(column), g, pages_);
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
        PrefetchedInput input(file_.chunk_input(g, column), blocks_of(g, column));
        it->second = read_bloom_filter(input, file_.metadata(), g, column, file_.footer().decryptor.get());
      } catch (const Error&) {
      }
    }
    return it->second ? &*it->second : nullptr;
  }

  // will_need's blocks are of the file's own input: a chunk in another file
  // (a summary's file_path) reads its own.
  const std::vector<std::pair<io::FileRange, io::ByteRange>>& blocks_of(size_t g, size_t column) const {
    static const std::vector<std::pair<io::FileRange, io::ByteRange>> none;
    return &file_.chunk_input(g, column) == &file_.input() ? blocks_ : none;
  }

  // For an input not in memory, fetches in one call the dictionary pages
  // (the bytes before the first data page, where the metadata places the
  // dictionary there) and bloom filters (where their length is known) that
  // the plan may consult, and with them the page indexes it asks for next
  // (of these row groups only: the statistics ruled out the others), so
  // that both cost one round trip. Anything else is read on its own when
  // asked for.
  void will_need(const std::vector<size_t>& row_groups, const std::vector<int>& columns) override {
    if (file_.input().memory_resident() || !blocks_.empty()) return;
    std::vector<io::FileRange> ranges;
    const auto& md = file_.metadata();
    for (size_t g : row_groups)
      for (int c : columns) {
        if (&file_.chunk_input(g, static_cast<size_t>(c)) != &file_.input()) continue;
        const auto& chunk = md.row_groups[g].columns[static_cast<size_t>(c)];
        if (!chunk.meta_data) continue;
        const format::ColumnMetaData& m = *chunk.meta_data;
        if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 &&
            m.data_page_offset > *m.dictionary_page_offset && all_pages_dictionary_encoded(m))
          ranges.push_back({static_cast<uint64_t>(*m.dictionary_page_offset),
                            static_cast<uint64_t>(m.data_page_offset - *m.dictionary_page_offset)});
        if (m.bloom_filter_offset && m.bloom_filter_length && *m.bloom_filter_offset >= 0 && *m.bloom_filter_length > 0)
          ranges.push_back(
              {static_cast<uint64_t>(*m.bloom_filter_offset), static_cast<uint64_t>(*m.bloom_filter_length)});
      }
    const uint64_t size = file_.input().size();
    uint64_t total = 0;
    std::vector<io::FileRange> kept;
    for (const io::FileRange& r : ranges)
      if (r.offset <= size && r.length <= size - r.offset && (total += r.length) <= kMaxLookAhead) kept.push_back(r);
    // The page indexes of this file's own chunks join the call; those of
    // chunks in other files (a summary's file_path) are read per file.
    std::optional<io::FileRange> index_span;
    std::vector<Key> index_keys;
    std::call_once(prefetched_, [&] {
      if (prefetch_groups_.empty()) return;
      std::map<io::RandomAccessInput*, std::vector<Key>> by_input = page_index_keys(row_groups);
      if (auto own = by_input.find(&file_.input()); own != by_input.end()) {
        index_span = page_index_span(*own->first, own->second);
        index_keys = std::move(own->second);
        by_input.erase(own);
      }
      prefetch_page_indexes(by_input);
    });
    if (index_span) kept.push_back(*index_span);
    if (kept.empty()) return;
    try {
      std::vector<io::ByteRange> bytes = file_.input().read_ranges(kept);
      if (index_span) {
        decode_page_indexes(index_keys, bytes.back(), index_span->offset);
        bytes.pop_back();
        kept.pop_back();
      }
      for (size_t i = 0; i < kept.size(); ++i) blocks_.emplace_back(kept[i], std::move(bytes[i]));
    } catch (const Error&) {  // each is read (or found missing) on its own when asked for
      blocks_.clear();
    }
  }

  // Page indexes to prefetch, made when the plan first asks for one (so
  // that a file whose row groups the statistics rule out is not read) or
  // with will_need's look-ups.
  void prefetch_page_indexes_on_first_use(std::vector<size_t> row_groups, std::vector<int> columns) {
    prefetch_groups_ = std::move(row_groups);
    prefetch_columns_ = std::move(columns);
  }

  std::optional<PageIndex> page_index(size_t g, size_t column) override {
    std::call_once(prefetched_, [&] {
      if (!prefetch_groups_.empty()) prefetch_page_indexes(page_index_keys(prefetch_groups_));
    });
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

  // The chunks of these row groups (of those to prefetch) and the
  // prefetch's columns, by the input that holds them.
  std::map<io::RandomAccessInput*, std::vector<Key>> page_index_keys(const std::vector<size_t>& row_groups) const {
    std::vector<bool> wanted(file_.metadata().row_groups.size(), false);
    for (size_t g : prefetch_groups_) wanted[g] = true;
    std::map<io::RandomAccessInput*, std::vector<Key>> by_input;
    for (size_t g : row_groups) {
      if (g >= wanted.size() || !wanted[g]) continue;
      for (int c : prefetch_columns_)
        by_input[&file_.chunk_input(g, static_cast<size_t>(c))].push_back({g, static_cast<size_t>(c)});
    }
    return by_input;
  }

  // One range over these chunks' page indexes, when it is not too long.
  // Writers put every column index, then every offset index, between the
  // last row group and the footer: the union of the ranges is about the
  // page index itself.
  std::optional<io::FileRange> page_index_span(const io::RandomAccessInput& input, const std::vector<Key>& keys) const {
    uint64_t lo = UINT64_MAX, hi = 0;
    for (const Key& k : keys) {
      try {
        const PageIndexRanges r = page_index_ranges(file_.metadata(), k.first, k.second, input.size(), file_.name());
        for (const auto& range : {r.column_index, r.offset_index})
          if (range) {
            lo = std::min(lo, range->offset);
            hi = std::max(hi, range->end());
          }
      } catch (const Error&) {  // read (and left out) on its own later
      }
    }
    if (hi <= lo || hi - lo > kMaxLookAhead) return std::nullopt;
    return io::FileRange{lo, hi - lo};
  }

  void decode_page_indexes(const std::vector<Key>& keys, const io::ByteRange& bytes, uint64_t offset) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Key& k : keys) {
      auto [it, fresh] = indexes_.try_emplace(k);
      if (!fresh) continue;
      try {
        const uint64_t size = file_.chunk_input(k.first, k.second).size();
        it->second = decode_page_index(bytes.span(), offset, file_.metadata(), k.first, k.second, size, file_.name(),
                                       file_.footer().decryptor.get());
      } catch (const Error&) {
      }
    }
  }

  // Reads the page indexes of these chunks in one range per input, so that
  // an input that is not in memory (a remote one) spends a round trip on
  // them all rather than one per chunk and index.
  void prefetch_page_indexes(const std::map<io::RandomAccessInput*, std::vector<Key>>& by_input) {
    for (const auto& [input, keys] : by_input) {
      const auto span = page_index_span(*input, keys);
      if (!span) continue;
      try {
        decode_page_indexes(keys, io::ByteRange::read(*input, span->offset, static_cast<size_t>(span->length)),
                            span->offset);
      } catch (const Error&) {  // each is read (or found missing) on its own when asked for
      }
    }
  }

  // The most either prefetch reads in one go (a page index or the plan's
  // dictionaries and bloom filters beyond it are read one by one).
  static constexpr uint64_t kMaxLookAhead = uint64_t{64} << 20;
  const FileReader& file_;
  PageReaderOptions pages_;
  std::map<Key, std::optional<Array>> dictionaries_;
  std::map<Key, std::optional<BloomFilter>> blooms_;
  std::map<Key, std::optional<parq::PageIndex>> indexes_;
  std::mutex mutex_;
  std::once_flag prefetched_;
  std::vector<std::pair<io::FileRange, io::ByteRange>> blocks_;  // will_need's
  std::vector<size_t> prefetch_groups_;
  std::vector<int> prefetch_columns_;
};

class FileBatchReader final : public BatchSource {
 public:
  FileBatchReader(const FileReader& file, ReadOptions options) : file_(file), options_(std::move(options)) {
    if (options_.batch_rows <= 0) throw Error("batch size must be positive", ErrorKind::kInvalidArgument);
    if (options_.threads < 1) throw Error("thread count must be at least 1", ErrorKind::kInvalidArgument);
    if (options_.offset < 0) throw Error("the offset must not be negative", ErrorKind::kInvalidArgument);
    if (options_.memory_limit < 0) throw Error("the memory limit must not be negative", ErrorKind::kInvalidArgument);
    if (options_.max_batch_bytes < 0)
      throw Error("the batch byte limit must not be negative", ErrorKind::kInvalidArgument);
    start_bytes_ = file.bytes_read();
    options_.pages.decryptor = file.footer().decryptor;
    if (options_.stats == nullptr) options_.stats = &own_stats_;
    *options_.stats = ReadStats{};
    if (options_.no_columns && !options_.columns.empty())
      throw Error("columns listed with no_columns set", ErrorKind::kInvalidArgument);
    plans_ = options_.no_columns ? std::vector<ArrayPlan>{}
                                 : plan_arrays(file.schema(), select_leaves(file.schema(), options_.columns));
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
    check_keys(file);
    is_filter_slot_.assign(leaves_.size(), false);
    if (filter_) {
      for (int leaf : filter_->columns()) is_filter_slot_[slot_of(leaf)] = true;
    }
    if ((filter_ || options_.has_row_selection) && options_.pruning.page_index && !file.input().memory_resident()) {
      std::vector<size_t> groups;
      for (size_t g : options_.row_groups)
        if (g < file.metadata().row_groups.size()) groups.push_back(g);
      if (groups.empty())
        for (size_t g = 0; g < file.metadata().row_groups.size(); ++g) groups.push_back(g);
      lookups_.prefetch_page_indexes_on_first_use(std::move(groups), leaves_);
    }
    plan_ = plan_read(file, options_, options_.stats, filter_ ? &*filter_ : nullptr, &lookups_);
    planned_rows_pruned_by_pages_ = options_.stats->rows_pruned_by_pages;
    if (leaves_.empty() && options_.row_index_column.empty() && !options_.no_columns) plan_.row_groups.clear();

    PipelineConfig config;
    config.file = &file_;
    config.plan = &plan_;
    config.leaves = leaves_;
    config.early = is_filter_slot_;
    config.batch_rows = options_.batch_rows;
    config.threads = options_.threads;
    config.memory_limit = options_.memory_limit;
    config.max_batch_bytes = options_.max_batch_bytes;
    config.pages = options_.pages;
    config.use_offset_index = options_.pruning.page_index;
    config.lookups = &lookups_;
    if (filter_ && options_.pruning.page_index)
      config.page_header_ranges = [this](const RowGroupPlan& group,
                                         const std::function<const ChunkBytes*(size_t)>& chunk_of, int64_t& pages,
                                         int64_t& pruned) {
        return plan::page_header_ranges(*filter_, file_.metadata(), file_.schema(), group.row_group, chunk_of,
                                        file_.name(), pages, pruned, &lookups_);
      };
    if (filter_)
      judge_ = std::make_unique<FilterJudge>(*filter_, file.schema(), leaves_, options_.offset, options_.limit);
    // Without a column to decode (a count, a row index alone) the plan's
    // row ranges are the rows: no chunk is fetched.
    if (!leaves_.empty()) pipeline_ = std::make_unique<BatchPipeline>(std::move(config), judge_.get());
  }

  RecordBatch prototype() const override {
    RecordBatch b = empty_batch(plans_);
    if (options_.unshred_variants) variant::unshred_variants(b);
    if (!options_.row_index_column.empty()) b.columns.push_back(row_index_array({}, 0));
    return b;
  }

  // Every offset is a running sum of lengths the decoders checked.
  bool offsets_ordered() const override { return true; }

  bool next(RecordBatch& out) override {
    if (leaves_.empty()) return next_without_columns(out);
    bool more = false;
    DecodedBatch batch;
    while (pipeline_->next(batch)) {
      if (!filter_) rows_decoded_ += batch.rows;
      if (batch.kept == 0) continue;
      assemble_batch(batch, out);
      more = true;
      break;
    }
    const BatchPipeline::Counters counters = pipeline_->counters();
    ReadStats& stats = *options_.stats;
    if (judge_) {
      const FilterJudge::Counts counts = judge_->counts();
      stats.rows_decoded = counts.rows_decoded;
      stats.rows_filtered = counts.rows_filtered;
      stats.rows_skipped_by_offset = counts.rows_skipped_by_offset;
    } else {
      stats.rows_decoded = rows_decoded_;
    }
    stats.bytes_read = static_cast<int64_t>(file_.bytes_read() - start_bytes_);
    stats.pages_decompressed = counters.leaves.pages_decompressed;
    stats.values_decoded = counters.leaves.values_decoded;
    stats.header_pages = counters.header_pages;
    stats.batch_restarts = counters.batch_restarts;
    stats.read_tasks = counters.read_tasks;
    stats.peak_batches = counters.peak_window;
    stats.pages_pruned_by_headers = counters.header_pages_pruned;
    stats.rows_pruned_by_pages = planned_rows_pruned_by_pages_ + counters.header_rows_pruned;
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
                        std::to_string(file.metadata().row_groups.size()) + ")",
                    ErrorKind::kInvalidArgument);
    request.filter = filter;
    request.pruning = options.pruning;
    request.offset = options.offset;
    request.limit = options.limit;
    request.has_selection = options.has_row_selection;
    for (const RowRange& r : options.row_selection)
      if (r.begin < 0 || r.end < r.begin)
        throw Error("row selection range [" + std::to_string(r.begin) + ", " + std::to_string(r.end) +
                        ") is not a range of row indices",
                    ErrorKind::kInvalidArgument);
    request.selection = normalize_ranges(options.row_selection);
    std::optional<FileLookups> own;
    if (lookups == nullptr) lookups = &own.emplace(file, options.pages);
    request.lookups = lookups;
    ReadStats local;
    return plan::make_plan(request, stats ? *stats : local);
  }

  // An encrypted column whose key is not known has no metadata to plan
  // with: a read that selects it fails here, saying why its key is missing.
  void check_keys(const FileReader& file) const {
    const format::FileMetaData& md = file.metadata();
    for (size_t g = 0; g < md.row_groups.size(); ++g)
      for (int leaf : leaves_) {
        const format::ColumnChunk& chunk = md.row_groups[g].columns[static_cast<size_t>(leaf)];
        if (chunk.meta_data || !chunk.crypto_metadata) continue;
        const ErrorLocation at = chunk_location(file.name(), md, g, static_cast<size_t>(leaf));
        try {
          crypto::chunk_cipher(file.footer().decryptor.get(), md, g, static_cast<size_t>(leaf));
        } catch (const Error& e) {
          throw e.within(at);
        }
        throw Error(ErrorKind::kUnsupported, at, "the column's metadata is encrypted and was not decrypted");
      }
  }

 private:
  void assemble_batch(DecodedBatch& b, RecordBatch& out) {
    std::vector<LeafInput> inputs;
    for (size_t slot : out_slots_)
      inputs.push_back({leaves_[slot], file_.schema().column(static_cast<size_t>(leaves_[slot])).max_definition_level,
                        &b.leaves[slot]});
    out = assemble(plans_, inputs, b.kept);
    if (options_.unshred_variants) {
      try {
        variant::unshred_variants(out);
      } catch (const Error& e) {
        throw e.within({.file = file_.name(), .row_group = static_cast<int64_t>(b.group->row_group)});
      }
    }
    if (!options_.row_index_column.empty()) {
      std::vector<int64_t> index;
      index.reserve(static_cast<size_t>(b.kept));
      const int64_t first = b.group->first_row + b.first;
      for (int64_t r = 0; r < b.rows; ++r)
        if (b.keep.empty() || b.keep[static_cast<size_t>(r)]) index.push_back(first + r);
      out.columns.push_back(row_index_array(index, b.kept));
      out.num_rows = b.kept;
    }
  }

  // Batches of the planned rows' count (and row index) alone.
  bool next_without_columns(RecordBatch& out) {
    while (empty_group_ < plan_.row_groups.size()) {
      const RowGroupPlan& g = plan_.row_groups[empty_group_];
      if (empty_range_ >= g.ranges.size()) {
        ++empty_group_;
        empty_range_ = 0;
        empty_row_ = -1;
        continue;
      }
      const RowRange& r = g.ranges[empty_range_];
      if (empty_row_ < r.begin) empty_row_ = r.begin;
      if (empty_row_ >= r.end) {
        ++empty_range_;
        continue;
      }
      const int64_t n = std::min(options_.batch_rows, r.end - empty_row_);
      out = RecordBatch{};
      out.num_rows = n;
      if (!options_.row_index_column.empty()) {
        std::vector<int64_t> index(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) index[static_cast<size_t>(i)] = g.first_row + empty_row_ + i;
        out.columns.push_back(row_index_array(index, n));
      }
      empty_row_ += n;
      options_.stats->rows_decoded += n;
      options_.stats->rows_returned += n;
      return true;
    }
    return false;
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
  size_t empty_group_ = 0, empty_range_ = 0;  // next_without_columns' place
  int64_t empty_row_ = -1;
  FileLookups lookups_{file_, options_.pages};  // the plan's, kept for fetching
  ReadStats own_stats_;
  uint64_t start_bytes_ = 0;
  std::optional<filter::BoundFilter> filter_;
  std::vector<ArrayPlan> plans_;
  std::vector<int> leaves_;           // read, in schema order
  std::vector<size_t> out_slots_;     // the projection's leaves among leaves_
  std::vector<bool> is_filter_slot_;  // read before the verdict
  ReadPlan plan_;
  int64_t rows_decoded_ = 0;  // without a filter
  int64_t planned_rows_pruned_by_pages_ = 0;
  std::unique_ptr<FilterJudge> judge_;
  std::unique_ptr<BatchPipeline> pipeline_;  // last: its tasks use the members above
};

}  // namespace

std::unique_ptr<BatchSource> read_batches(const FileReader& file, const ReadOptions& options) {
  return std::make_unique<FileBatchReader>(file, options);
}

namespace {

// Keeps the file open for as long as its batches are read.
class OwningBatchSource final : public BatchSource {
 public:
  OwningBatchSource(std::shared_ptr<const FileReader> file, const ReadOptions& options)
      : file_(std::move(file)), batches_(read_batches(*file_, options)) {}
  RecordBatch prototype() const override { return batches_->prototype(); }
  bool next(RecordBatch& out) override { return batches_->next(out); }
  bool offsets_ordered() const override { return batches_->offsets_ordered(); }

 private:
  std::shared_ptr<const FileReader> file_;
  std::unique_ptr<BatchSource> batches_;  // after file_: destroyed before it
};

}  // namespace

std::unique_ptr<BatchSource> read_batches(std::shared_ptr<const FileReader> file, const ReadOptions& options) {
  if (file == nullptr) throw Error("read_batches: no file", ErrorKind::kInvalidArgument);
  return std::make_unique<OwningBatchSource>(std::move(file), options);
}

ReadPlan plan_read(const FileReader& file, const ReadOptions& options, ReadStats* stats) {
  std::optional<filter::BoundFilter> filter;
  if (options.filter) filter = filter::BoundFilter::bind(*options.filter, file.schema());
  return FileBatchReader::plan_read(file, options, stats, filter ? &*filter : nullptr);
}

}  // namespace parq
