// Reading a dataset: per file, the filter with the file's partition values
// (and the columns it lacks) put in, the file's own read of what is left,
// and its batches made the dataset's shape. With threads, files are read
// ahead in parallel into short queues, handed out in the dataset's order.
#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>

#include "../filter/bound_filter.h"
#include "../record/array_plan.h"
#include "../record/assembler.h"
#include "dataset_parts.h"
#include "parq/dataset/dataset.h"
#include "parq/error.h"
#include "parq/filter/literal.h"
#include "parq/util/thread_pool.h"
#include "parq/variant/shredding.h"

namespace parq {
namespace {

using filter::CompareOp;
using filter::Expression;
using filter::ExpressionPtr;
using filter::Literal;
using filter::ValueOrder;

// The first component of a dotted path.
std::string head_of(const std::string& path) { return path.substr(0, path.find('.')); }

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
  // `file_name_of`: the dataset's field names to the file's (nullopt where
  // the file lacks the field).
  FilterRewriter(const Dataset& ds, size_t file, const std::map<std::string, std::optional<std::string>>& file_name_of)
      : ds_(ds), file_(file), file_name_of_(file_name_of) {}

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
    if (ds_.partition_schema().find_column(head) >= 0)
      return {dataset::partition_atom_true(e, negated, ds_.partition_schema(), ds_.partition_physical_values(file_))
                  ? Rewritten::kTrue
                  : Rewritten::kFalse,
              nullptr};
    auto it = file_name_of_.find(head);
    if (it == file_name_of_.end() || !it->second) {
      // The file lacks the column: every value is null. IS NULL is true
      // (false under NOT); every other test is unknown, under NOT too.
      const bool is_null = e.kind() == Expression::Kind::kIsNull;
      return {is_null && !negated ? Rewritten::kTrue : Rewritten::kFalse, nullptr};
    }
    const std::string column = *it->second + e.column().substr(head.size());
    ExpressionPtr out = narrowed(e, column);
    if (!out) out = rebuild(e, column);
    return {Rewritten::kExpr, negated ? Expression::negate(out) : out};
  }

  // A test whose literal the file's column cannot hold exactly, where the
  // file's INT32 or FLOAT is read widened to INT64 or DOUBLE: the test of
  // the same truth (nulls and NaN included) on the file's own values, with
  // a literal it holds; null where the literals fit (rebuild() then).
  // `x < 3e9` on an INT32 file is `x <= 2147483647`, `x = 3e9` is
  // `x < -2147483648` (false, but unknown on null as the original is);
  // `x < 0.1` on a FLOAT file is `x <= 0.099999994f`.
  ExpressionPtr narrowed(const Expression& e, const std::string& file_column) {
    using K = Expression::Kind;
    if (e.kind() != K::kCompare && e.kind() != K::kIn) return nullptr;
    const int wide_index = ds_.schema().find_column(e.column());
    if (wide_index < 0) return nullptr;  // binding names the column
    const ColumnDescriptor& wide = ds_.schema().column(static_cast<size_t>(wide_index));
    const ValueOrder wide_order = filter::value_order(wide);
    if (wide_order != ValueOrder::kInt64 && wide_order != ValueOrder::kUInt64 && wide_order != ValueOrder::kDouble)
      return nullptr;
    if (!file_schema_) file_schema_ = Schema::from_elements(ds_.footer(file_).metadata.schema);
    const int narrow_index = file_schema_->find_column(file_column);
    if (narrow_index < 0) return nullptr;
    const ColumnDescriptor& narrow = file_schema_->column(static_cast<size_t>(narrow_index));
    const ValueOrder order = filter::value_order(narrow);
    if (order != ValueOrder::kInt32 && order != ValueOrder::kUInt32 && order != ValueOrder::kFloat) return nullptr;
    const bool real = order == ValueOrder::kFloat;
    // The file's least and greatest values, and the literals of them.
    const Literal least = real ? Literal{Literal::Kind::kNumber, "-Infinity"}
                               : Literal{Literal::Kind::kNumber, order == ValueOrder::kUInt32 ? "0" : "-2147483648"};
    const Literal greatest =
        real ? Literal{Literal::Kind::kNumber, "Infinity"}
             : Literal{Literal::Kind::kNumber, order == ValueOrder::kUInt32 ? "4294967295" : "2147483647"};
    // Where the dataset's value of a literal falls among the file's: held
    // exactly, or between `below` and `above` (either may be missing).
    struct Place {
      bool exact = true;
      std::optional<Literal> below, above;
    };
    auto place = [&](const Literal& literal) {
      const filter::PhysicalValue w = filter::bind_literal(wide, literal);  // the dataset's errors stand
      Place p;
      if (!real) {
        const int64_t lo = order == ValueOrder::kUInt32 ? 0 : INT32_MIN;
        const int64_t hi = order == ValueOrder::kUInt32 ? int64_t{UINT32_MAX} : INT32_MAX;
        const bool above_all =
            wide_order == ValueOrder::kUInt64 ? static_cast<uint64_t>(w.integer) > uint64_t(hi) : w.integer > hi;
        const bool below_all = wide_order != ValueOrder::kUInt64 && w.integer < lo;
        p.exact = !above_all && !below_all;
        if (above_all) p.below = greatest;
        if (below_all) p.above = least;
        return p;
      }
      const double v = w.real;
      if (std::isnan(v) || std::isinf(v)) return p;
      auto number = [](float f) {
        char text[32];
        std::snprintf(text, sizeof text, "%.9g", static_cast<double>(f));
        return Literal{Literal::Kind::kNumber, text};
      };
      constexpr double kMaxFloat = 3.4028234663852886e38;
      if (v > kMaxFloat) {
        p = {false, number(static_cast<float>(kMaxFloat)), greatest};
      } else if (v < -kMaxFloat) {
        p = {false, least, number(static_cast<float>(-kMaxFloat))};
      } else if (const auto f = static_cast<float>(v); static_cast<double>(f) != v) {
        const float down = static_cast<double>(f) < v ? f : std::nextafter(f, -INFINITY);
        p = {false, number(down), number(std::nextafter(down, INFINITY))};
      }
      return p;
    };
    auto never = [&] { return Expression::compare(file_column, CompareOp::kLess, least); };
    if (e.kind() == K::kIn) {
      std::vector<Literal> kept;
      bool changed = false;
      for (const Literal& l : e.literals()) {
        if (l.kind == Literal::Kind::kNull || place(l).exact) {
          kept.push_back(l);
        } else {
          changed = true;
        }
      }
      if (!changed) return nullptr;
      return kept.empty() ? never() : Expression::in(file_column, kept);
    }
    if (e.literals()[0].kind == Literal::Kind::kNull) return nullptr;
    const Place p = place(e.literals()[0]);
    if (p.exact) return nullptr;
    switch (e.op()) {
      case CompareOp::kEqual:
        return never();
      case CompareOp::kNotEqual:
        return Expression::compare(file_column, CompareOp::kGreaterEqual, least);
      case CompareOp::kLess:
      case CompareOp::kLessEqual:
        return p.below ? Expression::compare(file_column, CompareOp::kLessEqual, *p.below) : never();
      case CompareOp::kGreater:
      case CompareOp::kGreaterEqual:
        return p.above ? Expression::compare(file_column, CompareOp::kGreaterEqual, *p.above)
                       : Expression::compare(file_column, CompareOp::kGreater, greatest);
    }
    return nullptr;
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
      case K::kBboxIntersects:
        return Expression::bbox_intersects(column, e.box()[0], e.box()[1], e.box()[2], e.box()[3]);
      default:
        throw Error("not a column test", ErrorKind::kInvalidArgument);
    }
  }

  const Dataset& ds_;
  size_t file_;
  const std::map<std::string, std::optional<std::string>>& file_name_of_;
  std::optional<Schema> file_schema_;  // made when a test may need narrowing
};

// INT32 -> INT64 and FLOAT -> DOUBLE, the widenings a dataset's schema
// allows (a leaf whose physical type is the dataset's is only retyped).
void widen(Array& a, const ValueType& to) {
  if (a.type.physical != to.physical) {
    const auto n = static_cast<size_t>(a.length);
    Buffer out(n * 8);
    if (a.type.physical == format::Type::INT32 && to.physical == format::Type::INT64) {
      std::copy_n(a.values.data_as<int32_t>(), n, out.data_as<int64_t>());
    } else if (a.type.physical == format::Type::FLOAT && to.physical == format::Type::DOUBLE) {
      std::copy_n(a.values.data_as<float>(), n, out.data_as<double>());
    } else {
      throw Error("column " + a.name + ": cannot widen " + format::to_string(a.type.physical) + " to " +
                      format::to_string(to.physical),
                  ErrorKind::kInvalidArgument);
    }
    a.values = std::move(out);
  }
  a.type = to;
}

// One file's part of a dataset read.
class FilePart {
 public:
  FilePart(const Dataset& ds, size_t file, const DatasetReadOptions& options, const RecordBatch& prototype,
           const filter::ExpressionPtr& filter, int threads, int64_t memory_limit)
      : ds_(ds), file_(file), options_(options), prototype_(prototype) {
    const SchemaNode& root = ds.schema().root();
    const auto& names = ds.file_field_names(file);
    std::map<std::string, std::optional<std::string>> file_name_of;
    for (size_t u = 0; u < names.size(); ++u) file_name_of[root.child(u).name()] = names[u];
    read_ = options.read;
    read_.unshred_variants = read_.unshred_variants || ds.whole_variants();
    read_.threads = threads;
    read_.memory_limit = memory_limit;
    read_.stats = &stats_;
    read_.filter = nullptr;
    if (filter) {
      Rewritten r = FilterRewriter(ds, file, file_name_of).rewrite(*filter, false);
      if (r.kind == Rewritten::kFalse) {
        pruned_ = true;
        return;
      }
      read_.filter = r.expr;
    }
    // The file's columns: the requested paths under the fields it has; and
    // where each column of the dataset's batches comes from.
    read_.columns.clear();
    std::vector<std::string> requested = options.read.columns;
    if (requested.empty())
      for (size_t k = 0; k < dataset_columns(); ++k) requested.push_back(prototype.columns[k].name);
    for (const std::string& path : requested) {
      const std::string head = head_of(path);
      auto it = file_name_of.find(head);
      if (it != file_name_of.end() && it->second) read_.columns.push_back(*it->second + path.substr(head.size()));
    }
    read_.no_columns = read_.columns.empty();
    for (size_t k = 0; k < dataset_columns(); ++k) {
      const std::string& name = prototype.columns[k].name;
      ColumnSource& source = sources_.emplace_back();
      if (const int p = ds.partition_schema().find_column(name); p >= 0) {
        source = {ColumnSource::kPartition, static_cast<size_t>(p), {}};
      } else if (auto it = file_name_of.find(name); it != file_name_of.end() && it->second) {
        source = {ColumnSource::kFile, 0, *it->second};
      }
    }
  }

  bool pruned() const { return pruned_; }
  // A serial read's offset and limit left over from the files before.
  void set_window(int64_t offset, int64_t limit) {
    read_.offset = offset;
    read_.limit = limit;
  }

  // Starts the file's read (opening its footer's reader, not its input),
  // and finds the file's columns in its batches once.
  void start() {
    reader_ = ds_.open_file(file_);
    lazy_ = static_cast<const dataset::LazyInput*>(&reader_->input());
    source_ = read_batches(*reader_, read_);
    const RecordBatch shape = source_->prototype();
    for (ColumnSource& s : sources_)
      if (s.kind == ColumnSource::kFile) {
        size_t at = 0;
        while (at < shape.columns.size() && shape.columns[at].name != s.file_name) ++at;
        if (at == shape.columns.size())
          throw Error(ErrorKind::kCorrupt, {.file = ds_.files()[file_].location, .column = s.file_name},
                      "the file's read lacks a column it was asked for");
        s.index = at;
      }
  }

  bool next(RecordBatch& out) {
    RecordBatch b;
    if (!source_->next(b)) return false;
    adapt(b, out);
    return true;
  }

  const ReadStats& stats() const { return stats_; }
  bool opened() const { return lazy_ == nullptr || lazy_->opened(); }

 private:
  // Where a column of the dataset's batches comes from.
  struct ColumnSource {
    enum Kind { kMissing, kPartition, kFile } kind = kMissing;
    size_t index = 0;       // the partition column, or the column in the file's batches
    std::string file_name;  // kFile: the file's name for it
  };

  // The prototype's columns before the row index and file name.
  size_t dataset_columns() const {
    return prototype_.columns.size() - !options_.read.row_index_column.empty() - !options_.file_name_column.empty();
  }

  // The file's batch in the dataset's shape: its columns renamed and
  // widened where the dataset's are, nulls where it lacks a column,
  // partition values, the row index and file name.
  void adapt(RecordBatch& in, RecordBatch& out) {
    out.num_rows = in.num_rows;
    out.columns.clear();
    for (size_t k = 0; k < dataset_columns(); ++k) {
      const Array& proto = prototype_.columns[k];
      const ColumnSource& s = sources_[k];
      switch (s.kind) {
        case ColumnSource::kPartition:
          out.columns.push_back(dataset::constant_array(proto.name, proto.type,
                                                        ds_.partition_physical_values(file_)[s.index], in.num_rows));
          break;
        case ColumnSource::kMissing:
          out.columns.push_back(dataset::null_array(proto, in.num_rows));
          break;
        case ColumnSource::kFile: {
          Array& a = out.columns.emplace_back(std::move(in.columns[s.index]));
          a.name = proto.name;
          if (a.kind == ArrayKind::kLeaf && !(a.type == proto.type)) widen(a, proto.type);
          break;
        }
      }
    }
    if (!options_.read.row_index_column.empty()) out.columns.push_back(std::move(in.columns.back()));
    if (!options_.file_name_column.empty()) {
      filter::PhysicalValue v;
      v.bytes = ds_.files()[file_].location;
      out.columns.push_back(
          dataset::constant_array(options_.file_name_column, prototype_.columns.back().type, v, in.num_rows));
    }
  }

  const Dataset& ds_;
  size_t file_;
  const DatasetReadOptions& options_;
  const RecordBatch& prototype_;
  std::vector<ColumnSource> sources_;  // per dataset column of the prototype
  ReadOptions read_;
  ReadStats stats_;
  bool pruned_ = false;
  std::unique_ptr<FileReader> reader_;
  const dataset::LazyInput* lazy_ = nullptr;
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
    if (r.unshred_variants || ds_->whole_variants()) variant::unshred_variants(prototype_);
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
    return std::make_unique<FilePart>(*ds_, file, options_, prototype_, options_.read.filter, threads, memory_limit);
  }

  void finish_file(const FilePart& part) {
    *stats_ += part.stats();
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
  for (size_t i = 0; i < dataset.files().size(); ++i)
    if (!filter || dataset.partition_columns().empty() ||
        dataset::partitions_may_match(*filter, dataset.partition_schema(), dataset.partition_physical_values(i)))
      out.push_back(i);
  return out;
}

int64_t count_rows(std::shared_ptr<const Dataset> dataset, const ReadOptions& options) {
  if (!options.filter) return dataset->num_rows();
  DatasetReadOptions read;
  read.read = options;
  read.read.columns.clear();
  read.read.no_columns = true;
  auto source = read_batches(std::move(dataset), read);
  RecordBatch batch;
  int64_t rows = 0;
  while (source->next(batch)) rows += batch.num_rows;
  return rows;
}

std::unique_ptr<BatchSource> read_batches(std::shared_ptr<const Dataset> dataset, const DatasetReadOptions& options) {
  return std::make_unique<DatasetBatchReader>(std::move(dataset), options);
}

}  // namespace parq
