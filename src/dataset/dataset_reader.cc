// Reading a dataset: per file, the filter with the file's partition values
// (and the columns it lacks) put in, the file's own read of what is left,
// and its batches made the dataset's shape. With threads, files are read
// ahead in parallel into short queues, handed out in the dataset's order.
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>

#include "../filter/bound_filter.h"
#include "../record/array_plan.h"
#include "../record/assembler.h"
#include "dataset_parts.h"
#include "parq/dataset/dataset.h"
#include "parq/error.h"
#include "parq/util/thread_pool.h"

namespace parq {
namespace {

using dataset::kTrue;
using dataset::node_truth;
using dataset::test_truth;
using filter::Expression;
using filter::ExpressionPtr;

// The name of the root's `f`th child in a valid schema's elements.
std::string top_level_name(const std::vector<format::SchemaElement>& elements, size_t f) {
  size_t i = 1;
  for (size_t c = 0; c < f; ++c) {
    size_t pending = 1;
    while (pending > 0) {
      pending += static_cast<size_t>(std::max(0, elements.at(i).num_children.value_or(0)));
      --pending;
      ++i;
    }
  }
  return elements.at(i).name;
}

// The first component of a dotted path.
std::string head_of(const std::string& path) { return path.substr(0, path.find('.')); }

// What a dataset read knows of one file: its partition values, which of
// the dataset's fields it has and under which name.
struct FileView {
  const Dataset* dataset;
  size_t file;
  // The partition column's index among partition_columns(), or -1.
  int partition_of(const std::string& name) const {
    const auto& p = dataset->partition_columns();
    auto it = std::find(p.begin(), p.end(), name);
    return it == p.end() ? -1 : static_cast<int>(it - p.begin());
  }
  // The dataset's top-level field index of a name (partitions excluded), or -1.
  int field_of(const std::string& name) const {
    const SchemaNode& root = dataset->schema().root();
    const size_t fields = root.num_children() - dataset->partition_columns().size();
    for (size_t u = 0; u < fields; ++u)
      if (root.child(u).name() == name) return static_cast<int>(u);
    return -1;
  }
};

struct Rewritten {
  enum Kind { kTrue, kFalse, kExpr } kind = kTrue;
  ExpressionPtr expr;
};

// The filter for one file, in negation normal form at the partition and
// missing-column atoms: those become constants (under NOT negated, SQL's
// unknown becoming false, which no AND or OR above can turn true), the rest
// stays (renamed to the file's names).
class FilterRewriter {
 public:
  FilterRewriter(const FileView& view, std::vector<std::optional<filter::PhysicalValue>> partition_values,
                 std::vector<std::optional<std::string>> renamed)
      : view_(view), values_(std::move(partition_values)), renamed_(std::move(renamed)) {}

  Rewritten rewrite(const Expression& e, bool negated) {
    using K = Expression::Kind;
    switch (e.kind()) {
      case K::kNot:
        return rewrite(*e.children()[0], !negated);
      case K::kAnd:
      case K::kOr: {
        const bool conjunction = (e.kind() == K::kAnd) != negated;
        std::vector<ExpressionPtr> kept;
        for (const auto& c : e.children()) {
          Rewritten r = rewrite(*c, negated);
          if (r.kind == Rewritten::kExpr) {
            kept.push_back(r.expr);
          } else if ((r.kind == Rewritten::kFalse) == conjunction) {
            return r;  // false in an AND, true in an OR
          }
        }
        if (kept.empty()) return {conjunction ? Rewritten::kTrue : Rewritten::kFalse, nullptr};
        if (kept.size() == 1) return {Rewritten::kExpr, kept[0]};
        return {Rewritten::kExpr, conjunction ? Expression::all_of(kept) : Expression::any_of(kept)};
      }
      default:
        return atom(e, negated);
    }
  }

 private:
  Rewritten atom(const Expression& e, bool negated) {
    const std::string head = head_of(e.column());
    const int p = view_.partition_of(head);
    if (p >= 0) {
      ExpressionPtr bound_expr = rebuild(e, e.column());
      if (negated) bound_expr = Expression::negate(bound_expr);
      const filter::BoundFilter f = filter::BoundFilter::bind(*bound_expr, view_.dataset->schema());
      std::vector<std::optional<filter::PhysicalValue>> by_test(f.tests().size(), values_[static_cast<size_t>(p)]);
      return node_truth(f.root(), f, by_test) == kTrue ? Rewritten{Rewritten::kTrue, nullptr}
                                                       : Rewritten{Rewritten::kFalse, nullptr};
    }
    const int u = view_.field_of(head);
    if (u < 0 || !renamed_[static_cast<size_t>(u)]) {
      // The file lacks the column: every value is null.
      // IS NULL is true (false under NOT); every other test is unknown,
      // under NOT too.
      const bool is_null = e.kind() == Expression::Kind::kIsNull;
      return {is_null && !negated ? Rewritten::kTrue : Rewritten::kFalse, nullptr};
    }
    const std::string& name = *renamed_[static_cast<size_t>(u)];
    std::string path = name + e.column().substr(head.size());
    ExpressionPtr out = rebuild(e, path);
    return {Rewritten::kExpr, negated ? Expression::negate(out) : out};
  }

  static ExpressionPtr rebuild(const Expression& e, const std::string& column) {
    using K = Expression::Kind;
    switch (e.kind()) {
      case K::kCompare:
        return Expression::compare(column, e.op(), e.literals()[0]);
      case K::kIn:
        return Expression::in(column, e.literals());
      case K::kIsNull:
        return Expression::is_null(column);
      case K::kStartsWith:
        return Expression::starts_with(column, e.literals()[0].text);
      default:
        throw Error("not a column test", ErrorKind::kInvalidArgument);
    }
  }

  const FileView& view_;
  std::vector<std::optional<filter::PhysicalValue>> values_;
  std::vector<std::optional<std::string>> renamed_;
};

void add_stats(ReadStats& to, const ReadStats& s) {
  to.row_groups += s.row_groups;
  to.row_groups_pruned_by_selection += s.row_groups_pruned_by_selection;
  to.row_groups_pruned_by_statistics += s.row_groups_pruned_by_statistics;
  to.row_groups_pruned_by_dictionary += s.row_groups_pruned_by_dictionary;
  to.row_groups_pruned_by_bloom_filter += s.row_groups_pruned_by_bloom_filter;
  to.pages += s.pages;
  to.pages_pruned_by_index += s.pages_pruned_by_index;
  to.header_pages += s.header_pages;
  to.pages_pruned_by_headers += s.pages_pruned_by_headers;
  to.rows += s.rows;
  to.rows_pruned_by_row_groups += s.rows_pruned_by_row_groups;
  to.rows_pruned_by_pages += s.rows_pruned_by_pages;
  to.rows_pruned_by_selection += s.rows_pruned_by_selection;
  to.rows_decoded += s.rows_decoded;
  to.rows_filtered += s.rows_filtered;
  to.rows_skipped_by_offset += s.rows_skipped_by_offset;
  to.rows_returned += s.rows_returned;
  to.bytes_read += s.bytes_read;
  to.pages_decompressed += s.pages_decompressed;
  to.values_decoded += s.values_decoded;
  to.batch_restarts += s.batch_restarts;
}

// INT32 -> INT64 and FLOAT -> DOUBLE, the widenings a dataset's schema
// allows.
void widen(Array& a, const ValueType& to) {
  if (a.kind != ArrayKind::kLeaf || a.type.physical == to.physical) {
    a.type = a.kind == ArrayKind::kLeaf ? to : a.type;
    return;
  }
  const auto n = static_cast<size_t>(a.length);
  Buffer out(n * 8);
  if (a.type.physical == format::Type::INT32 && to.physical == format::Type::INT64) {
    const int32_t* in = a.values.data_as<int32_t>();
    int64_t* o = out.data_as<int64_t>();
    for (size_t i = 0; i < n; ++i) o[i] = in[i];
  } else if (a.type.physical == format::Type::FLOAT && to.physical == format::Type::DOUBLE) {
    const float* in = a.values.data_as<float>();
    double* o = out.data_as<double>();
    for (size_t i = 0; i < n; ++i) o[i] = in[i];
  } else {
    throw Error("column " + a.name + ": cannot widen " + format::to_string(a.type.physical) + " to " +
                    format::to_string(to.physical),
                ErrorKind::kInvalidArgument);
  }
  a.values = std::move(out);
  a.type = to;
}

// One file's part of a dataset read.
class FilePart {
 public:
  FilePart(const Dataset& ds, size_t file, const DatasetReadOptions& options, const RecordBatch& prototype,
           const std::vector<std::string>& out_fields, const filter::ExpressionPtr& filter, int threads,
           int64_t memory_limit)
      : ds_(ds), file_(file), options_(options), prototype_(prototype), out_fields_(out_fields) {
    view_ = FileView{&ds, file};
    const size_t fields = ds.schema().root().num_children() - ds.partition_columns().size();
    std::vector<std::optional<std::string>> renamed(fields);
    const auto& elements = ds.footer(file).metadata.schema;
    for (size_t u = 0; u < fields; ++u) {
      const int f = ds.file_columns(file).field_of[u];
      if (f >= 0) renamed[u] = top_level_name(elements, static_cast<size_t>(f));
    }
    renamed_ = renamed;
    const DatasetFile& f = ds.files()[file];
    const size_t first_partition = ds.schema().num_columns() - ds.partition_columns().size();
    for (size_t p = 0; p < ds.partition_columns().size(); ++p) {
      const auto& text = f.partition_values[p];
      partition_values_.push_back(
          text ? std::optional(filter::physical_value_from_text(ds.schema().column(first_partition + p), *text))
               : std::nullopt);
    }
    read_ = options.read;
    read_.threads = threads;
    read_.memory_limit = memory_limit;
    read_.stats = &stats_;
    read_.filter = nullptr;
    if (filter) {
      FilterRewriter rewriter(view_, partition_values_, renamed);
      Rewritten r = rewriter.rewrite(*filter, false);
      if (r.kind == Rewritten::kFalse) {
        pruned_ = true;
        return;
      }
      read_.filter = r.expr;
    }
    // The file's columns: the requested paths under the fields it has.
    read_.columns.clear();
    std::vector<std::string> requested = options.read.columns;
    if (requested.empty())
      for (const std::string& name : out_fields_) requested.push_back(name);
    for (const std::string& path : requested) {
      const std::string head = head_of(path);
      const int u = view_.field_of(head);
      if (u < 0 || !renamed[static_cast<size_t>(u)]) continue;
      read_.columns.push_back(*renamed[static_cast<size_t>(u)] + path.substr(head.size()));
    }
    read_.no_columns = read_.columns.empty();
  }

  bool pruned() const { return pruned_; }
  // A serial read's offset and limit left over from the files before.
  void set_window(int64_t offset, int64_t limit) {
    read_.offset = offset;
    read_.limit = limit;
  }

  // Starts the file's read (opening its footer's reader, not its input).
  void start() {
    reader_ = ds_.open_file(file_);
    source_ = read_batches(*reader_, read_);
  }

  bool next(RecordBatch& out) {
    RecordBatch b;
    if (!source_->next(b)) return false;
    adapt(b, out);
    return true;
  }

  const ReadStats& stats() const { return stats_; }
  bool opened() const {
    auto* lazy = reader_ ? dynamic_cast<const dataset::LazyInput*>(&reader_->input()) : nullptr;
    return lazy == nullptr || lazy->opened();
  }

 private:
  // The file's batch in the dataset's shape: its columns renamed and
  // widened where the dataset's are, nulls where it lacks a column,
  // partition values, the row index and file name.
  void adapt(RecordBatch& in, RecordBatch& out) {
    out.num_rows = in.num_rows;
    out.columns.clear();
    const size_t fields = ds_.schema().root().num_children() - ds_.partition_columns().size();
    const size_t first_partition = ds_.schema().num_columns() - ds_.partition_columns().size();
    for (size_t k = 0; k < out_fields_.size(); ++k) {
      const Array& proto = prototype_.columns[k];
      const int p = view_.partition_of(out_fields_[k]);
      if (p >= 0) {
        out.columns.push_back(dataset::constant_array(proto.name, ds_.schema().column(first_partition + p).type,
                                                      partition_values_[static_cast<size_t>(p)], in.num_rows));
        continue;
      }
      const int u = view_.field_of(out_fields_[k]);
      const auto& name = u >= 0 && static_cast<size_t>(u) < fields ? renamed_[static_cast<size_t>(u)] : std::nullopt;
      Array* found = nullptr;
      if (name)
        for (Array& a : in.columns)
          if (a.name == *name) {
            found = &a;
            break;
          }
      if (!found) {
        out.columns.push_back(dataset::null_array(proto, in.num_rows));
        continue;
      }
      Array a = std::move(*found);
      a.name = proto.name;
      if (a.kind == ArrayKind::kLeaf && !(a.type == proto.type)) widen(a, proto.type);
      out.columns.push_back(std::move(a));
    }
    if (!options_.read.row_index_column.empty()) out.columns.push_back(std::move(in.columns.back()));
    if (!options_.file_name_column.empty()) {
      ValueType t;
      t.physical = format::Type::BYTE_ARRAY;
      t.logical.STRING = format::StringType{};
      filter::PhysicalValue v;
      v.bytes = ds_.files()[file_].location;
      out.columns.push_back(dataset::constant_array(options_.file_name_column, t, v, in.num_rows));
    }
  }

  const Dataset& ds_;
  size_t file_;
  const DatasetReadOptions& options_;
  const RecordBatch& prototype_;
  const std::vector<std::string>& out_fields_;
  FileView view_{};
  std::vector<std::optional<std::string>> renamed_;
  std::vector<std::optional<filter::PhysicalValue>> partition_values_;
  ReadOptions read_;
  ReadStats stats_;
  bool pruned_ = false;
  std::unique_ptr<FileReader> reader_;
  std::unique_ptr<BatchSource> source_;
};

class DatasetBatchReader final : public BatchSource {
 public:
  DatasetBatchReader(std::shared_ptr<const Dataset> ds, DatasetReadOptions options)
      : ds_(std::move(ds)), options_(std::move(options)) {
    const ReadOptions& r = options_.read;
    if (!r.row_groups.empty() || r.has_row_selection)
      throw Error("row groups and row selections name rows of one file, not of a dataset", ErrorKind::kInvalidArgument);
    if (r.threads < 1) throw Error("thread count must be at least 1", ErrorKind::kInvalidArgument);
    if (r.offset < 0) throw Error("the offset must not be negative", ErrorKind::kInvalidArgument);
    if (r.batch_rows <= 0) throw Error("batch size must be positive", ErrorKind::kInvalidArgument);
    stats_ = r.stats != nullptr ? r.stats : &own_stats_;
    *stats_ = ReadStats{};
    const Schema& schema = ds_->schema();
    if (r.filter) (void)filter::BoundFilter::bind(*r.filter, schema);  // names an unknown column, a bad literal
    const std::vector<ArrayPlan> plans =
        r.no_columns ? std::vector<ArrayPlan>{} : plan_arrays(schema, select_leaves(schema, r.columns));
    prototype_ = empty_batch(plans);
    for (const Array& a : prototype_.columns) out_fields_.push_back(a.name);
    if (!r.row_index_column.empty()) {
      Array a;
      a.name = r.row_index_column;
      a.type.physical = format::Type::INT64;
      prototype_.columns.push_back(a);
    }
    if (!options_.file_name_column.empty()) {
      Array a;
      a.name = options_.file_name_column;
      a.type.physical = format::Type::BYTE_ARRAY;
      a.type.logical.STRING = format::StringType{};
      a.offsets.resize(4);
      a.offsets.data_as<int32_t>()[0] = 0;
      prototype_.columns.push_back(a);
    }
    files_ = files_to_read(*ds_, r.filter);
    stats_->files = static_cast<int64_t>(ds_->files().size()) + ds_->files_pruned_at_open();
    stats_->files_pruned_by_partitions =
        static_cast<int64_t>(ds_->files().size() - files_.size()) + ds_->files_pruned_at_open();
    offset_left_ = r.offset;
    limit_left_ = r.limit;
    // Files in parallel, each on one thread, when there are several and no
    // offset or limit needs them counted in order.
    parallel_ = r.threads > 1 && files_.size() > 1 && r.offset == 0 && r.limit < 0;
    if (parallel_) {
      window_ = static_cast<size_t>(r.threads);
      slots_.resize(files_.size());
      pool_ = std::make_unique<ThreadPool>(r.threads + 1);
      fill_window();
    }
  }

  ~DatasetBatchReader() override {
    if (!pool_) return;
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return running_ == 0; });
  }

  RecordBatch prototype() const override { return prototype_; }

  bool next(RecordBatch& out) override { return parallel_ ? next_parallel(out) : next_serial(out); }

 private:
  std::unique_ptr<FilePart> make_part(size_t file, int threads, int64_t memory_limit) {
    return std::make_unique<FilePart>(*ds_, file, options_, prototype_, out_fields_, options_.read.filter, threads,
                                      memory_limit);
  }

  void finish_file(const FilePart& part) {
    add_stats(*stats_, part.stats());
    if (part.opened())
      ++stats_->files_opened;
    else
      ++stats_->files_pruned_by_statistics;
  }

  bool next_serial(RecordBatch& out) {
    while (true) {
      if (limit_left_ == 0) return false;
      if (!current_) {
        if (next_file_ >= files_.size()) return false;
        current_ = make_part(files_[next_file_++], options_.read.threads, options_.read.memory_limit);
        if (current_->pruned()) {
          ++stats_->files_pruned_by_partitions;
          current_.reset();
          continue;
        }
        current_->set_window(offset_left_, limit_left_);
        current_->start();
      }
      if (current_->next(out)) {
        if (limit_left_ > 0) limit_left_ -= out.num_rows;
        return true;
      }
      offset_left_ -= std::min(offset_left_, current_->stats().rows_skipped_by_offset);
      finish_file(*current_);
      current_.reset();
    }
  }

  struct Slot {
    std::unique_ptr<FilePart> part;
    std::deque<RecordBatch> queue;
    bool done = false;
    std::exception_ptr error;
  };

  // Starts files until `window_` are in flight past the one handed out.
  void fill_window() {
    while (started_ < files_.size() && started_ < consumed_ + window_) {
      const size_t k = started_++;
      ++running_;
      pool_->post([this, k] { produce(k); });
    }
  }

  void produce(size_t k) {
    Slot& slot = slots_[k];
    try {
      {
        std::lock_guard lock(mutex_);
        if (stopping_) throw std::runtime_error("stopped");
      }
      const int64_t limit = options_.read.memory_limit > 0
                                ? std::max<int64_t>(1, options_.read.memory_limit / static_cast<int64_t>(window_))
                                : 0;
      auto part = make_part(files_[k], 1, limit);
      if (!part->pruned()) part->start();
      {
        std::lock_guard lock(mutex_);
        slot.part = std::move(part);
      }
      RecordBatch b;
      while (!slot.part->pruned() && slot.part->next(b)) {
        std::unique_lock lock(mutex_);
        slot.queue.push_back(std::move(b));
        changed_.notify_all();
        changed_.wait(lock, [&] { return stopping_ || slot.queue.size() < kQueueBatches; });
        if (stopping_) break;
      }
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!stopping_) slot.error = std::current_exception();
    }
    std::lock_guard lock(mutex_);
    slot.done = true;
    --running_;
    changed_.notify_all();
  }

  bool next_parallel(RecordBatch& out) {
    std::unique_lock lock(mutex_);
    while (consumed_ < files_.size()) {
      Slot& slot = slots_[consumed_];
      changed_.wait(lock, [&] { return !slot.queue.empty() || slot.done; });
      if (!slot.queue.empty()) {
        out = std::move(slot.queue.front());
        slot.queue.pop_front();
        changed_.notify_all();
        return true;
      }
      if (slot.error) std::rethrow_exception(slot.error);
      if (slot.part) {
        if (slot.part->pruned())
          ++stats_->files_pruned_by_partitions;
        else
          finish_file(*slot.part);
      }
      slot.part.reset();
      ++consumed_;
      fill_window();
    }
    return false;
  }

  static constexpr size_t kQueueBatches = 2;

  std::shared_ptr<const Dataset> ds_;
  DatasetReadOptions options_;
  ReadStats own_stats_;
  ReadStats* stats_ = nullptr;
  RecordBatch prototype_;
  std::vector<std::string> out_fields_;
  std::vector<size_t> files_;
  int64_t offset_left_ = 0, limit_left_ = -1;
  bool parallel_ = false;

  // Serial.
  size_t next_file_ = 0;
  std::unique_ptr<FilePart> current_;

  // Parallel.
  size_t window_ = 1;
  std::vector<Slot> slots_;
  size_t started_ = 0, consumed_ = 0, running_ = 0;
  bool stopping_ = false;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::unique_ptr<ThreadPool> pool_;
};

}  // namespace

std::vector<size_t> files_to_read(const Dataset& dataset, const filter::ExpressionPtr& filter) {
  std::vector<size_t> out;
  const size_t parts = dataset.partition_columns().size();
  if (!filter || parts == 0) {
    for (size_t i = 0; i < dataset.files().size(); ++i) out.push_back(i);
    return out;
  }
  const Schema& schema = dataset.schema();
  const filter::BoundFilter bound = filter::BoundFilter::bind(*filter, schema);
  const size_t first_partition = schema.num_columns() - parts;
  for (size_t i = 0; i < dataset.files().size(); ++i) {
    std::vector<std::optional<filter::PhysicalValue>> by_test(bound.tests().size());
    std::vector<bool> known(bound.tests().size(), false);
    for (size_t t = 0; t < bound.tests().size(); ++t) {
      const auto column = static_cast<size_t>(bound.tests()[t].column);
      if (column < first_partition) continue;  // another column's test may be true
      const auto& text = dataset.files()[i].partition_values[column - first_partition];
      if (text) by_test[t] = filter::physical_value_from_text(schema.column(column), *text);
      known[t] = true;
    }
    // Evaluate with unknown tests as "may be true": a file is ruled out only
    // when the filter is false whatever they are.
    auto may_be_true = [&](auto& self, const filter::FilterNode& n) -> bool {
      using K = filter::FilterNode::Kind;
      switch (n.kind) {
        case K::kTrue:
          return true;
        case K::kFalse:
        case K::kUnknown:
          return false;
        case K::kTest:
          return !known[n.test] || test_truth(bound.tests()[n.test], by_test[n.test]) == kTrue;
        case K::kAnd:
          for (const auto& c : n.children)
            if (!self(self, c)) return false;
          return true;
        case K::kOr:
          for (const auto& c : n.children)
            if (self(self, c)) return true;
          return false;
      }
      return true;
    };
    if (may_be_true(may_be_true, bound.root())) out.push_back(i);
  }
  return out;
}

std::unique_ptr<BatchSource> read_batches(std::shared_ptr<const Dataset> dataset, const DatasetReadOptions& options) {
  return std::make_unique<DatasetBatchReader>(std::move(dataset), options);
}

}  // namespace parq
