// BatchPipeline; see batch_pipeline.h.
//
// One mutex guards the scheduling state (groups, the window, the
// counters); tasks run outside it. A task owns what it works on while it
// runs: a read task the lanes (batch, slot) it was given and their leaf
// readers (no other lane of the leaf in the row group is ready until it is
// done), a verdict task its batch's slots read so far, an open or
// fetch task its row group's readers still to be made. A lane of a later
// batch waits for the same leaf's lane of an earlier batch of its row
// group, because a leaf reader reads forwards only.
#include "batch_pipeline.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "../fetch/chunk_fetch.h"
#include "parq/encoding/byte_array_batch.h"
#include "parq/error.h"
#include "parq/schema/value_type.h"

namespace parq {
namespace {

constexpr int64_t kAheadBytesPerThread = int64_t{64} << 20;
// A run of lanes gathers batches smaller than this many rows (the default
// batch size), up to kMaxRunLanes of them.
constexpr int64_t kRunRows = int64_t{64} << 10;
constexpr int64_t kMaxRunLanes = 64;

enum class Lane : uint8_t { kPending, kRunning, kDone };

int64_t held_bytes(const LeafBatch& b) {
  return static_cast<int64_t>(b.def.size() + b.rep.size() + b.values.fixed.size() + b.values.bytes.data_size() +
                              (b.values.bytes.size() + 1) * sizeof(int32_t));
}

int64_t owned_bytes(const ChunkBytes& chunk) {
  int64_t n = 0;
  for (const auto& s : chunk.segments) n += static_cast<int64_t>(s.bytes.size());
  return n;
}

// Fetches each request from its input (`inputs[k]` for `requests[k]`):
// one read_ranges call per input, in which that input may coalesce and run
// them concurrently (a row group's chunks are almost always in one file,
// which a summary file's `file_path` may name).
std::vector<ChunkBytes> fetch_by_input(const std::vector<io::RandomAccessInput*>& inputs,
                                       std::vector<fetch::ChunkRequest>& requests) {
  std::map<io::RandomAccessInput*, std::vector<size_t>> by_input;
  for (size_t k = 0; k < inputs.size(); ++k) by_input[inputs[k]].push_back(k);
  std::vector<ChunkBytes> out(requests.size());
  for (auto& [input, which] : by_input) {
    std::vector<fetch::ChunkRequest> batch;
    for (size_t k : which) batch.push_back(std::move(requests[k]));
    std::vector<ChunkBytes> got = fetch::fetch_chunks(*input, batch);
    for (size_t j = 0; j < which.size(); ++j) out[which[j]] = std::move(got[j]);
  }
  return out;
}

// The inputs of a row group's slots' chunks.
std::vector<io::RandomAccessInput*> inputs_of(const FileReader& file, size_t row_group,
                                              const std::vector<size_t>& slots, const PipelineConfig& config) {
  std::vector<io::RandomAccessInput*> inputs;
  for (size_t s : slots) inputs.push_back(&file.chunk_input(row_group, static_cast<size_t>(config.leaves[s])));
  return inputs;
}

// A list kept from a finished task (emptied, its capacity kept) or a new
// one, with room for `capacity` entries: small batches make tens of
// thousands of tasks a read, and none should allocate.
template <class T>
std::vector<T> reused(std::vector<std::vector<T>>& spare, size_t capacity) {
  std::vector<T> v;
  if (!spare.empty()) {
    v = std::move(spare.back());
    spare.pop_back();
    v.clear();
  }
  v.reserve(capacity);
  return v;
}

}  // namespace

struct BatchPipeline::Group {
  const RowGroupPlan* plan = nullptr;
  std::vector<RowRange> ranges;  // the plan's, narrowed by page headers at the opening
  size_t plan_index = 0;         // in ReadPlan::row_groups
  int64_t batch_rows = 0;
  enum class State { kWaiting, kOpening, kOpen } state = State::kWaiting;
  enum class Late { kWaiting, kFetching, kReady } late = Late::kWaiting;
  std::vector<std::unique_ptr<LeafReader>> readers;  // per slot, once fetched
  std::vector<int64_t> row;                          // per slot: the reader's next row
  std::vector<LeafReadCounters> counted;             // per slot: already in counters_
  std::vector<int64_t> reader_bytes;                 // per slot: what its reader held after its last lane
  // Fetched bytes held (not views) and what the readers hold between
  // lanes (decompressed pages, dictionaries).
  int64_t owned = 0;
  size_t range = 0;      // batch making: the range it is in
  int64_t next_row = 0;  // and the next row
  bool made_all = false;
  // Its batches made and not handed out, in order, and the sequence
  // number (in the group) of the first; per slot, that of the first whose
  // lane is not done: the only lane of the slot that may be read next.
  std::deque<Batch*> batches;
  int64_t first_seq = 0;
  std::vector<int64_t> ready;
  int64_t made() const { return first_seq + static_cast<int64_t>(batches.size()); }  // the next one's number
  Batch* batch_at(int64_t seq) const { return seq < made() ? batches[static_cast<size_t>(seq - first_seq)] : nullptr; }
};

struct BatchPipeline::Batch {
  Group* group = nullptr;
  int64_t seq = 0;      // in its group
  uint64_t serial = 0;  // in the read: the window's order
  DecodedBatch data;
  std::vector<Lane> lanes;  // per slot
  size_t lanes_left = 0;
  int stages = 0;  // of the filter (0: none)
  int judged = 0;  // stages whose verdict is done
  bool judging = false;
  bool final_judged = false;  // the last stage's verdict ran (counting offset and limit)
  int64_t bytes = 0;
};

BatchPipeline::BatchPipeline(PipelineConfig config, BatchJudge* judge) : config_(std::move(config)), judge_(judge) {
  if (!judge_) config_.early.assign(config_.leaves.size(), true);
  for (bool e : config_.early) has_late_ |= !e;
  slot_order_ = CostOrder(config_.leaves.size());
  const auto& input = config_.file->input();
  resident_ = input.memory_resident();
  if (config_.threads > 1) {
    pool_ = std::make_unique<ThreadPool>(config_.threads);
    const size_t threads = static_cast<size_t>(config_.threads);
    max_window_ = 2 * threads;
    // A file of few columns gives few lanes per batch, and a lane waits for
    // its leaf's earlier lanes (a chunk's first batch decompresses its
    // page): more batches in the window keep the threads fed. The memory
    // budget still bounds what they hold.
    const size_t leaves = std::max<size_t>(1, config_.leaves.size());
    max_window_ = std::max(max_window_, std::min(8 * threads, (8 * threads + leaves - 1) / leaves));
    // With a single column, pairs of lanes would leave too few tasks for
    // the threads; with more, a pair's second lane may come from a later
    // batch (see pick).
    if (config_.leaves.size() < 2) max_pair_ = 1;
    const int64_t rows = std::max<int64_t>(1, config_.batch_rows);
    max_run_ = static_cast<size_t>(std::clamp<int64_t>((kRunRows + rows - 1) / rows, 1, kMaxRunLanes));
    max_window_ *= max_run_;
  }
}

BatchPipeline::~BatchPipeline() {
  std::unique_lock lock(mutex_);
  stopping_ = true;
  changed_.wait(lock, [&] { return drivers_ == 0; });
}

BatchPipeline::Counters BatchPipeline::counters() const {
  std::lock_guard lock(mutex_);
  return counters_;
}

int64_t BatchPipeline::group_estimate(const RowGroupPlan& plan) const {
  if (resident_) return 0;
  int64_t n = 0;
  const auto& chunks = config_.file->metadata().row_groups[plan.row_group].columns;
  for (int leaf : config_.leaves) {
    const auto& chunk = chunks[static_cast<size_t>(leaf)];
    if (chunk.meta_data) n += std::max<int64_t>(0, chunk.meta_data->total_compressed_size);
  }
  return n;
}

// Cuts batches off the row groups' ranges while the window has room: the
// first row group waiting to open stops it (its ranges are final only
// once it is open).
void BatchPipeline::make_batches() {
  const ReadPlan& plan = *config_.plan;
  // Without a limit, decoding ahead still stops at a budget per thread:
  // batches of wide rows are large, and a window of them would hold far
  // more than the threads need to stay busy.
  const int64_t limit = config_.memory_limit > 0 ? config_.memory_limit : kAheadBytesPerThread * config_.threads;
  while (!done_making_ && !stopped_) {
    Group* g = groups_.empty() || groups_.back()->made_all ? nullptr : groups_.back().get();
    if (g == nullptr) {
      if (window_.size() >= max_window_) return;
      if (next_group_ >= plan.row_groups.size()) {
        done_making_ = true;
        return;
      }
      const RowGroupPlan& next = plan.row_groups[next_group_];
      // Opening a group holds what it fetches (nothing where the input
      // hands out views).
      const int64_t fetched = group_estimate(next);
      if (limit > 0 && !groups_.empty() && fetched > 0 && held_ + fetched > limit) return;
      auto fresh = std::make_unique<Group>();
      fresh->plan = &next;
      fresh->plan_index = next_group_;
      fresh->ranges = next.ranges;
      fresh->batch_rows = first_batch_rows(next);
      const size_t slots = config_.leaves.size();
      fresh->readers.resize(slots);
      fresh->row.assign(slots, 0);
      fresh->counted.resize(slots);
      fresh->reader_bytes.assign(slots, 0);
      fresh->ready.assign(slots, 0);
      groups_.push_back(std::move(fresh));
      ++next_group_;
      return;  // its open task comes first
    }
    if (g->state != Group::State::kOpen) return;
    const auto& ranges = g->ranges;
    while (g->range < ranges.size() && ranges[g->range].end <= g->next_row) ++g->range;
    if (g->range >= ranges.size()) {
      g->made_all = true;
      close_front_groups();
      continue;
    }
    // A full window still takes a row group's batches up to a whole run
    // (max_run_ of them from its first): the lanes at its end would
    // otherwise come one at a time as the caller takes batches, a run each.
    if (window_.size() >= max_window_ && g->made() % static_cast<int64_t>(max_run_) == 0) return;
    // The memory budget stops batches, not the opening of the next row
    // group (above, by its own estimate): a group opens while the last
    // batch of the one before is read, not after it.
    if (limit > 0 && !window_.empty()) {
      const int64_t estimate = batch_estimate_ > 0 ? batch_estimate_ : first_batch_estimate(*g);
      if (estimate == 0 || estimate > limit - held_) return;
    }
    auto b = std::make_unique<Batch>();
    b->group = g;
    b->seq = g->made();
    b->serial = next_serial_++;
    b->data.group = g->plan;
    b->data.first = std::max(g->next_row, ranges[g->range].begin);
    b->data.rows = std::min(g->batch_rows, ranges[g->range].end - b->data.first);
    b->data.kept = b->data.rows;
    b->data.leaves.resize(config_.leaves.size());
    b->data.stage.assign(config_.leaves.size(), 0);
    b->lanes.assign(config_.leaves.size(), Lane::kPending);
    b->lanes_left = config_.leaves.size();
    if (judge_) {
      for (size_t s = 0; s < config_.leaves.size(); ++s)
        if (!config_.early[s]) b->data.stage[s] = BatchJudge::kAfterVerdict;
      b->stages = std::max(1, judge_->stage_slots(b->data.stage));
    }
    g->next_row = b->data.first + b->data.rows;
    g->batches.push_back(b.get());
    window_.push_back(std::move(b));
    counters_.peak_window = std::max(counters_.peak_window, static_cast<int64_t>(window_.size()));
  }
}

// Row groups whose batches are all handed out, from the front.
void BatchPipeline::close_front_groups() {
  while (!groups_.empty() && groups_.front()->made_all && groups_.front()->batches.empty()) {
    const Group& g = *groups_.front();
    if (has_late_ && !resident_ && g.late == Group::Late::kWaiting) {
      // Its late slots were never needed: what was fetched ahead for them
      // is dropped, and fewer are fetched ahead from now on.
      std::lock_guard ahead_lock(ahead_mutex_);
      ++late_unneeded_;
      ahead_[1].fetched.erase(g.plan_index);
    }
    held_ -= g.owned;
    closed_.push_back(std::move(groups_.front()));
    groups_.pop_front();
  }
}

// A lane may be read once the verdicts before its stage are done (a
// slot's stage may differ from batch to batch), and the same leaf's lanes
// of the row group's earlier batches are read (Group::ready).
bool BatchPipeline::stage_ready(const Batch& b, size_t slot) const {
  const uint8_t stage = b.data.stage[slot];
  return (stage == BatchJudge::kAfterVerdict ? b.stages : stage) <= b.judged;
}

void BatchPipeline::advance_ready(Group& g, size_t slot) {
  while (const Batch* b = g.batch_at(g.ready[slot])) {
    if (b->lanes[slot] != Lane::kDone) break;
    ++g.ready[slot];
  }
}

// The next verdict of a batch may run once its stage's lanes are read;
// an ordered final verdict also waits for those of the batches before
// (`earlier_judged`: they are all judged).
bool BatchPipeline::judgement_ready(const Batch& b, bool earlier_judged) const {
  if (b.judging || b.judged >= b.stages) return false;
  for (size_t s = 0; s < b.lanes.size(); ++s)
    if (b.data.stage[s] == b.judged && b.lanes[s] != Lane::kDone) return false;
  return b.judged + 1 < b.stages || earlier_judged || !judge_->ordered();
}

void BatchPipeline::take_run(Task& t, const Candidate& c) {
  const Group& g = *c.batch->group;
  for (size_t k = 0; k < max_run_; ++k) {
    Batch* b = g.batch_at(c.batch->seq + static_cast<int64_t>(k));
    if (b == nullptr || b->lanes[c.slot] != Lane::kPending || !stage_ready(*b, c.slot)) break;
    b->lanes[c.slot] = Lane::kRunning;
    t.lanes.push_back({b, c.slot, k == 0});
  }
  ++t.runs;
}

// The most urgent runnable task: a row group to open, then the earliest
// batch's verdict or lanes (runs of them, two at a time, whose first pages
// decompress together: the second may come from a later batch, even of
// another row group, when the first batch has no other lane ready).
BatchPipeline::Task BatchPipeline::pick() {
  Task t;
  if (restart_) return t;  // wait for the running tasks, then restart
  make_batches();
  for (auto& g : groups_)
    if (g->state == Group::State::kWaiting && !done_making_ && !stopped_) {
      g->state = Group::State::kOpening;
      t.kind = Task::Kind::kOpen;
      t.group = g.get();
      ++running_;
      return t;
    }
  Batch* verdict = nullptr;   // the earliest batch whose verdict may run
  size_t verdict_at = 0;      // in the window
  bool judged_before = true;  // every batch before it is judged
  if (judge_) {
    for (; verdict_at < window_.size(); ++verdict_at) {
      Batch& b = *window_[verdict_at];
      if (judgement_ready(b, judged_before)) {
        verdict = &b;
        break;
      }
      judged_before = judged_before && b.judged >= b.stages;
    }
  }
  // Each slot of a row group has one lane that may be next; those of
  // batches before the verdict's, in window order and by cost within a batch.
  candidates_.clear();
  for (auto& g : groups_)
    for (size_t k = 0; k < config_.leaves.size(); ++k) {
      const size_t s = slot_order_[k];
      Batch* b = g->batch_at(g->ready[s]);
      if (b == nullptr || b->lanes[s] != Lane::kPending || !stage_ready(*b, s)) continue;
      if (verdict != nullptr && b->serial >= verdict->serial) continue;
      candidates_.push_back({b, s, k});
    }
  std::sort(candidates_.begin(), candidates_.end(), [](const Candidate& x, const Candidate& y) {
    return std::tie(x.batch->serial, x.rank) < std::tie(y.batch->serial, y.rank);
  });
  for (const Candidate& c : candidates_) {
    if (t.runs == max_pair_) break;
    Group& g = *c.batch->group;
    if (!config_.early[c.slot] && g.late != Group::Late::kReady) {
      if (g.late == Group::Late::kWaiting && t.runs == 0) {
        g.late = Group::Late::kFetching;
        ++running_;
        t.kind = Task::Kind::kFetchLate;
        t.group = &g;
        return t;
      }
      continue;
    }
    if (t.runs == 0) t.lanes = reused(spare_lanes_, max_run_ * max_pair_);
    take_run(t, c);
  }
  if (t.runs > 0) {
    t.kind = Task::Kind::kRead;
    ++running_;
    if (pool_) ++counters_.read_tasks;
  } else if (verdict != nullptr) {
    // With it, the verdicts of the batches after it that may run once it
    // and those between have run: a batch's last verdict counts as judged.
    t.verdicts = reused(spare_verdicts_, max_run_);
    t.verdicts.push_back(verdict);
    bool all_last = verdict->judged + 1 == verdict->stages;
    for (size_t k = verdict_at + 1; k < window_.size() && t.verdicts.size() < max_run_; ++k) {
      Batch& b = *window_[k];
      if (!judgement_ready(b, judged_before && all_last)) break;
      t.verdicts.push_back(&b);
      all_last = all_last && b.judged + 1 == b.stages;
    }
    for (Batch* b : t.verdicts) b->judging = true;
    ++running_;
    t.kind = Task::Kind::kVerdict;
  }
  return t;
}

bool BatchPipeline::complete(const Batch& b) const { return b.lanes_left == 0 && b.judged == b.stages; }

void BatchPipeline::run(Task& task, std::unique_lock<std::mutex>& lock) {
  // Row groups closed since the last task are freed outside the lock.
  std::vector<std::unique_ptr<Group>> closed = std::exchange(closed_, {});
  lock.unlock();
  closed.clear();
  // Read tasks on threads are timed for slot_order_.
  const bool timed = task.kind == Task::Kind::kRead && pool_;
  const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  std::exception_ptr error;
  std::optional<Error> full;
  size_t done = 0;  // lanes read, or verdicts run
  try {
    switch (task.kind) {
      case Task::Kind::kOpen:
        open(*task.group, false);
        break;
      case Task::Kind::kFetchLate:
        open(*task.group, true);
        break;
      case Task::Kind::kRead:
        read(task, done);
        break;
      case Task::Kind::kVerdict:
        for (Batch* b : task.verdicts) {
          ++done;
          if (!judge(*b)) break;
        }
        break;
      case Task::Kind::kNone:
        break;
    }
  } catch (const encoding::ByteArrayBatchFull& e) {
    full = e;
  } catch (...) {
    error = std::current_exception();
  }
  lock.lock();
  --running_;
  if (full) {
    // The lanes read before the full one are done (they come earlier in
    // the file, so the restart keeps them); the rest go with the restart.
    for (size_t k = 0; k < done; ++k) finish_lane(*task.lanes[k].batch, task.lanes[k].slot);
    Batch* failed = task.lanes[done].batch;
    // The earliest row group asking wins: a restart drops what follows it.
    if (!restart_ || failed->group->plan_index < restart_->plan_index) {
      restart_ = failed->group;
      restart_rows_ = failed->data.rows;
      restart_reason_ = *full;
    }
  } else if (error) {
    if (!error_) error_ = error;
  } else {
    if (timed) note_lane_time(task, start);
    finish(task, done);
  }
  if (restart_ && running_ == 0 && !error_) restart();
  if (task.lanes.capacity() > 0) spare_lanes_.push_back(std::move(task.lanes));
  if (task.verdicts.capacity() > 0) spare_verdicts_.push_back(std::move(task.verdicts));
  changed_.notify_all();
  wake();
}

// Under the lock: the task's lanes took their share of its time.
void BatchPipeline::note_lane_time(const Task& task, std::chrono::steady_clock::time_point start) {
  const double per_lane = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
                          static_cast<double>(task.lanes.size());
  for (const LaneRef& lane : task.lanes)
    slot_order_.note(lane.slot, per_lane / static_cast<double>(std::max<int64_t>(1, lane.batch->data.rows)));
  slot_order_.sort();
}

// What a batch of `g` will hold, before any batch has been handed out and
// measured: exact for flat columns of fixed width (a value and a level per
// row). Where strings or repetition make it depend on the data, a caller's
// memory limit gets 0 (unknown: one batch at a time); the default budget
// gets the chunks' uncompressed bytes a row, with offsets and levels,
// which is low for dictionary pages but keeps the window from holding a
// single batch: the first batch ends on its longest lane (a chunk's first
// page decompressed whole, strings often the largest), and with one batch
// the other threads would wait for it to be handed out and measured. A
// window of one batch would also leave a thread idle when the file has few
// columns (two columns give one task).
int64_t BatchPipeline::first_batch_estimate(const Group& g) const {
  const auto& group = config_.file->metadata().row_groups[g.plan->row_group];
  int64_t per_row = 0;
  // The sizes come from the file: a sum past int64 stays at its top.
  auto add = [&](int64_t n) {
    if (__builtin_add_overflow(per_row, n, &per_row)) per_row = INT64_MAX;
  };
  for (int leaf : config_.leaves) {
    const ColumnDescriptor& column = config_.file->schema().column(static_cast<size_t>(leaf));
    const int32_t width = plain_width(column.type.physical, column.type.type_length);
    const int64_t level_bytes =
        static_cast<int64_t>(sizeof(int16_t)) * ((column.max_definition_level > 0) + (column.max_repetition_level > 0));
    if (column.max_repetition_level > 0 || width <= 0) {
      const auto& chunk = group.columns[static_cast<size_t>(leaf)].meta_data;
      if (config_.memory_limit > 0 || !chunk || group.num_rows <= 0) return 0;
      const int64_t bytes = std::max<int64_t>(0, chunk->total_uncompressed_size);
      add(bytes / group.num_rows + static_cast<int64_t>(sizeof(int32_t)) + level_bytes);
      continue;
    }
    add(width + level_bytes);
  }
  // A file's widths and a caller's batch size may both be huge: past
  // int64, the batch is larger than any budget.
  if (g.batch_rows > 0 && per_row > INT64_MAX / g.batch_rows) return INT64_MAX;
  return per_row * g.batch_rows;
}

// The first batches of a row group: at most batch_rows, fewer when its
// byte-array chunks hold so much per row (uncompressed, so a lower bound
// for dictionary pages) that a batch would pass max_batch_bytes.
int64_t BatchPipeline::first_batch_rows(const RowGroupPlan& plan) const {
  int64_t rows = config_.batch_rows;
  const auto& group = config_.file->metadata().row_groups[plan.row_group];
  if (group.num_rows <= 0) return rows;
  for (int leaf : config_.leaves) {
    const ColumnDescriptor& column = config_.file->schema().column(static_cast<size_t>(leaf));
    const auto& chunk = group.columns[static_cast<size_t>(leaf)].meta_data;
    if (column.type.physical != format::Type::BYTE_ARRAY || !chunk || chunk->total_uncompressed_size <= 0) continue;
    const int64_t per_row = chunk->total_uncompressed_size / group.num_rows + 1;
    rows = std::min(rows, std::max<int64_t>(1, batch_byte_limit() / per_row));
  }
  return rows;
}

int64_t BatchPipeline::batch_byte_limit() const {
  return config_.max_batch_bytes > 0 ? std::min(config_.max_batch_bytes, encoding::kMaxByteArrayBatchBytes)
                                     : encoding::kMaxByteArrayBatchBytes;
}

// A batch's byte-array data came out too large: its row group is read
// again from its first batch not yet complete, in batches half that size,
// and the row groups after it from their start. Under the lock, with no
// task running.
void BatchPipeline::restart() {
  Group* g = restart_;
  restart_ = nullptr;
  auto first =
      std::find_if(window_.begin(), window_.end(), [&](const auto& b) { return b->group == g && !complete(*b); });
  const int64_t rows = std::min(restart_rows_, g->batch_rows) / 2;
  auto fail = [&](const std::string& why) {
    const ErrorLocation group{.file = config_.file->name(), .row_group = static_cast<int64_t>(g->plan->row_group)};
    error_ = std::make_exception_ptr(
        Error(restart_reason_->kind(), restart_reason_->location().within(group), restart_reason_->detail() + why));
  };
  if (first == window_.end()) return fail("");
  if (rows < 1) return fail(" (in a single row)");
  for (auto it = first; it != window_.end(); ++it)
    if ((*it)->final_judged && judge_ && judge_->ordered())
      return fail(" (an offset or a limit has counted its rows; read smaller batches)");
  const int64_t resume = (*first)->data.first;
  for (auto it = first; it != window_.end(); ++it) held_ -= (*it)->bytes;
  // Its batches before the first incomplete one are complete: every
  // slot's next lane is the first batch made again.
  g->batches.resize(static_cast<size_t>((*first)->seq - g->first_seq));
  g->ready.assign(g->ready.size(), g->made());
  window_.erase(first, window_.end());
  while (groups_.back().get() != g) {
    held_ -= groups_.back()->owned;
    groups_.pop_back();
  }
  next_group_ = g->plan_index + 1;
  held_ -= g->owned;
  g->owned = 0;
  for (size_t s = 0; s < g->readers.size(); ++s) {
    g->readers[s].reset();
    g->row[s] = 0;
    g->counted[s] = {};
    g->reader_bytes[s] = 0;
  }
  g->state = Group::State::kWaiting;
  g->late = Group::Late::kWaiting;
  g->made_all = false;
  g->range = 0;
  g->next_row = resume;
  g->batch_rows = rows;
  done_making_ = false;
  ++counters_.batch_restarts;
}

// Fetches the chunks of the row group's early slots (at its opening) or of
// its late ones (when a batch first keeps a row), in one read, and makes
// their leaf readers.
std::vector<fetch::ChunkRequest> BatchPipeline::requests_of(const RowGroupPlan& plan,
                                                            const std::vector<size_t>& slots) const {
  const FileReader& file = *config_.file;
  const bool all_rows = plan.ranges.size() == 1 && plan.ranges[0].begin == 0 && plan.ranges[0].end >= plan.num_rows;
  std::vector<fetch::ChunkRequest> requests;
  for (size_t s : slots) {
    const auto column = static_cast<size_t>(config_.leaves[s]);
    const format::OffsetIndex* index = nullptr;
    if (!all_rows && config_.use_offset_index && config_.lookups != nullptr)
      if (auto pi = config_.lookups->page_index(plan.row_group, column)) index = pi->offset_index;
    try {
      requests.push_back(fetch::chunk_request(file.metadata(), plan.row_group, column,
                                              file.chunk_input(plan.row_group, column).size(), index, plan.ranges,
                                              plan.num_rows));
    } catch (const Error& e) {
      throw e.within({.file = file.name(),
                      .row_group = static_cast<int64_t>(plan.row_group),
                      .column = file.schema().column(column).dotted_path()});
    }
  }
  return requests;
}

// An input that is not in memory (a remote one) pays a round trip per
// read: a row group's chunks are fetched together with those of the row
// groups after it, up to a byte budget, in one read_ranges call that runs
// them concurrently; the later groups find theirs here when they open (or
// first keep a row). Late slots are fetched so only while the groups
// before needed theirs more often than not: their bytes are wasted on a
// group whose verdicts keep no row. In memory, each group reads its own
// (views cost nothing).
std::vector<ChunkBytes> BatchPipeline::fetch_ahead(const Group& g, const std::vector<size_t>& slots, bool late) {
  const FileReader& file = *config_.file;
  const auto& groups = config_.plan->row_groups;
  if (resident_) {
    std::vector<fetch::ChunkRequest> requests = requests_of(*g.plan, slots);
    return fetch_by_input(inputs_of(file, g.plan->row_group, slots, config_), requests);
  }
  Ahead& ahead = ahead_[late ? 1 : 0];
  std::unique_lock lock(ahead_mutex_);
  if (late) ++late_needed_;
  for (;;) {
    auto it = ahead.fetched.find(g.plan_index);
    if (it != ahead.fetched.end()) {
      std::vector<ChunkBytes> bytes = std::move(it->second);
      ahead.fetched.erase(it);
      ahead.opened.insert(g.plan_index);
      return bytes;
    }
    if (!ahead.fetching.count(g.plan_index)) break;
    ahead_ready_.wait(lock);  // another thread is fetching it
  }
  // Claim this group and the following ones that fit the budget and are
  // neither fetched, being fetched, nor opened before (a group a restart
  // opens again fetches its own).
  const int64_t budget = config_.memory_limit > 0 ? std::max<int64_t>(1, config_.memory_limit / 4) : kFetchAheadBytes;
  const size_t last = late && late_needed_ <= late_unneeded_ ? g.plan_index + 1 : groups.size();
  std::vector<size_t> claimed;
  std::vector<std::vector<fetch::ChunkRequest>> requests;
  int64_t bytes = 0;
  for (size_t k = g.plan_index; k < last; ++k) {
    if (k > g.plan_index && (ahead.fetched.count(k) || ahead.fetching.count(k) || ahead.opened.count(k))) break;
    std::vector<fetch::ChunkRequest> r;
    if (k == g.plan_index) {
      r = requests_of(groups[k], slots);  // its errors are this group's
    } else {
      try {
        r = requests_of(groups[k], slots);
      } catch (const Error&) {
        break;  // that group reports it when it opens
      }
    }
    int64_t n = 0;
    for (const auto& req : r)
      for (const auto& range : req.ranges) n += static_cast<int64_t>(range.length);
    if (k > g.plan_index && bytes + n > budget) break;
    bytes += n;
    claimed.push_back(k);
    requests.push_back(std::move(r));
  }
  for (size_t k : claimed) ahead.fetching.insert(k);
  ahead.opened.insert(g.plan_index);
  lock.unlock();
  // One fetch per input for every claimed group's chunks (a row group's
  // chunks and the next one's are almost always in one file).
  std::vector<std::vector<ChunkBytes>> got(claimed.size());
  try {
    std::vector<io::RandomAccessInput*> inputs;
    std::vector<fetch::ChunkRequest> all;
    for (size_t i = 0; i < claimed.size(); ++i) {
      for (io::RandomAccessInput* in : inputs_of(file, groups[claimed[i]].row_group, slots, config_))
        inputs.push_back(in);
      for (auto& r : requests[i]) all.push_back(std::move(r));
    }
    std::vector<ChunkBytes> fetched = fetch_by_input(inputs, all);
    for (size_t i = 0; i < claimed.size(); ++i)
      for (size_t k = 0; k < slots.size(); ++k) got[i].push_back(std::move(fetched[i * slots.size() + k]));
  } catch (...) {
    // The later groups fetch their own when they need them (and meet the
    // error there, if it is theirs).
    lock.lock();
    for (size_t k : claimed) ahead.fetching.erase(k);
    ahead_ready_.notify_all();
    throw;
  }
  lock.lock();
  for (size_t i = 1; i < claimed.size(); ++i) ahead.fetched[claimed[i]] = std::move(got[i]);
  for (size_t k : claimed) ahead.fetching.erase(k);
  ahead_ready_.notify_all();
  return std::move(got[0]);
}

void BatchPipeline::open(Group& g, bool late) {
  const FileReader& file = *config_.file;
  const RowGroupPlan& plan = *g.plan;
  std::vector<size_t> slots;
  for (size_t s = 0; s < config_.leaves.size(); ++s)
    if (config_.early[s] != late) slots.push_back(s);
  std::vector<ChunkBytes> bytes = fetch_ahead(g, slots, late);
  std::vector<RowRange> narrowed;
  int64_t pages = 0, pruned = 0, rows_pruned = 0;
  if (!late && config_.page_header_ranges) {
    auto chunk_of = [&](size_t column) -> const ChunkBytes* {
      for (size_t k = 0; k < slots.size(); ++k)
        if (static_cast<size_t>(config_.leaves[slots[k]]) == column) return bytes[k].partial ? nullptr : &bytes[k];
      return nullptr;
    };
    narrowed = intersect_ranges(g.ranges, config_.page_header_ranges(plan, chunk_of, pages, pruned));
    for (const RowRange& r : g.ranges) rows_pruned += r.size();
    for (const RowRange& r : narrowed) rows_pruned -= r.size();
  }
  int64_t owned = 0;
  for (size_t k = 0; k < slots.size(); ++k) {
    if (!resident_) owned += owned_bytes(bytes[k]);
    g.readers[slots[k]] = std::make_unique<LeafReader>(
        std::move(bytes[k]), file.name(), file.metadata(), plan.row_group,
        file.schema().column(static_cast<size_t>(config_.leaves[slots[k]])), config_.pages);
  }
  std::lock_guard lock(mutex_);
  g.owned += owned;
  held_ += owned;
  if (!late && config_.page_header_ranges) {
    g.ranges = std::move(narrowed);
    counters_.header_pages += pages;
    counters_.header_pages_pruned += pruned;
    counters_.header_rows_pruned += rows_pruned;
  }
}

void BatchPipeline::check_count(const Group& g, size_t slot, int64_t got, int64_t wanted) const {
  if (got == wanted) return;
  const FileReader& file = *config_.file;
  throw Error(ErrorKind::kCorrupt,
              {.file = file.name(),
               .row_group = static_cast<int64_t>(g.plan->row_group),
               .column = g.readers[slot]->column().dotted_path()},
              "the column ends after " + std::to_string(g.row[slot] + got) + " records where the row group has " +
                  std::to_string(g.plan->num_rows));
}

// Reads the task's lanes: every row while the batch keeps every row (stage
// 0 always), else only the kept rows (LeafReader::read_selected skips the
// others, whole pages undecompressed). Rows the plan or the verdicts left out since the
// reader's last batch are skipped first.
void BatchPipeline::read(const Task& task, size_t& done) {
  // Rows the plan or the verdicts left out since the reader's last lane.
  auto skip_gap = [&](const LaneRef& lane) {
    Group& g = *lane.batch->group;
    if (const int64_t gap = lane.batch->data.first - g.row[lane.slot]; gap > 0) {
      check_count(g, lane.slot, g.readers[lane.slot]->skip_records(gap), gap);
      g.row[lane.slot] += gap;
    }
  };
  std::vector<PageDecompression> staged;
  for (const LaneRef& lane : task.lanes) {
    if (!lane.run_start) continue;
    skip_gap(lane);
    const DecodedBatch& d = lane.batch->data;
    PageDecompression job;
    if (d.kept == d.rows && lane.batch->group->readers[lane.slot]->stage_page(job)) staged.push_back(job);
  }
  run_decompressions(staged);
  for (const LaneRef& lane : task.lanes) {
    const size_t s = lane.slot;
    Group& g = *lane.batch->group;
    DecodedBatch& d = lane.batch->data;
    if (!lane.run_start) skip_gap(lane);
    LeafReader& reader = *g.readers[s];
    LeafBatch& out = d.leaves[s];
    out.clear();
    out.values.bytes.set_limit(static_cast<size_t>(batch_byte_limit()));
    // Timed only for the judge, which orders its stages by cost: a clock
    // read a lane is a visible share of small batches.
    const bool timed = judge_ && config_.early[s];
    const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    if (d.kept == d.rows) {
      check_count(g, s, reader.read_records(d.rows, out), d.rows);
    } else {
      check_count(g, s, reader.read_selected(d.rows, d.keep.data(), out), d.rows);
    }
    g.row[s] = d.first + d.rows;
    if (timed)
      judge_->measured(
          s, d.rows,
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    ++done;
  }
}

bool BatchPipeline::judge(Batch& b) {
  const bool more = judge_->judge(b.data, b.judged, b.stages);
  if (b.judged + 1 == b.stages) b.final_judged = true;
  if (!more) {
    std::lock_guard lock(mutex_);
    stopped_ = true;
  }
  return more;
}

// Under the lock, after a task: marks what it did.
void BatchPipeline::finish(const Task& task, size_t done) {
  switch (task.kind) {
    case Task::Kind::kOpen:
      task.group->state = Group::State::kOpen;
      if (!has_late_) task.group->late = Group::Late::kReady;
      break;
    case Task::Kind::kFetchLate:
      task.group->late = Group::Late::kReady;
      break;
    case Task::Kind::kRead:
      for (const LaneRef& lane : task.lanes) finish_lane(*lane.batch, lane.slot);
      break;
    case Task::Kind::kVerdict:
      for (size_t k = 0; k < task.verdicts.size(); ++k) {
        task.verdicts[k]->judging = false;
        if (k < done) finish_verdict(*task.verdicts[k]);
      }
      break;
    case Task::Kind::kNone:
      break;
  }
}

// Under the lock, after a verdict of the batch: marks it done.
void BatchPipeline::finish_verdict(Batch& b) {
  ++b.judged;
  if (b.data.kept == 0) {
    // Nothing left to read; the later verdicts have nothing to judge.
    for (size_t s = 0; s < b.lanes.size(); ++s)
      if (b.lanes[s] == Lane::kPending) {
        b.lanes[s] = Lane::kDone;
        --b.lanes_left;
        advance_ready(*b.group, s);
      }
    b.judged = b.stages;
  }
  // The slots read so far may have been compacted.
  int64_t bytes = 0;
  for (size_t s = 0; s < b.lanes.size(); ++s)
    if (b.lanes[s] == Lane::kDone) bytes += held_bytes(b.data.leaves[s]);
  held_ += bytes - b.bytes;
  b.bytes = bytes;
}

// Under the lock, after a lane is read: marks it done and counts what its
// reader did and what the batch holds now.
void BatchPipeline::finish_lane(Batch& b, size_t s) {
  Group& g = *b.group;
  b.lanes[s] = Lane::kDone;
  --b.lanes_left;
  advance_ready(g, s);
  const LeafReadCounters& now = g.readers[s]->counters();
  LeafReadCounters& seen = g.counted[s];
  LeafReadCounters& total = counters_.leaves;
  total.pages_decompressed += now.pages_decompressed - seen.pages_decompressed;
  total.pages_skipped += now.pages_skipped - seen.pages_skipped;
  total.values_decoded += now.values_decoded - seen.values_decoded;
  total.values_skipped += now.values_skipped - seen.values_skipped;
  seen = now;
  const int64_t in_reader = g.readers[s]->held_bytes();
  g.owned += in_reader - g.reader_bytes[s];
  held_ += in_reader - g.reader_bytes[s];
  g.reader_bytes[s] = in_reader;
  const int64_t bytes = held_bytes(b.data.leaves[s]);
  b.bytes += bytes;
  held_ += bytes;
}

// Puts idle workers to work; each runs tasks until none is runnable.
void BatchPipeline::wake() {
  if (!pool_ || stopping_ || error_) return;
  while (drivers_ < pool_->size() - 1) {
    ++drivers_;
    pool_->post([this] { drive(); });
  }
}

void BatchPipeline::drive() {
  std::unique_lock lock(mutex_);
  while (!stopping_ && !error_) {
    Task t = pick();
    if (t.kind == Task::Kind::kNone) break;
    run(t, lock);
  }
  --drivers_;
  changed_.notify_all();
}

bool BatchPipeline::next(DecodedBatch& out) {
  std::vector<std::unique_ptr<Group>> closed;  // destroyed after the lock is let go
  std::unique_lock lock(mutex_);
  for (;;) {
    if (error_) std::rethrow_exception(error_);
    if (!window_.empty() && complete(*window_.front())) {
      Batch& b = *window_.front();
      if (config_.memory_limit > 0 && b.bytes + b.group->owned > config_.memory_limit) {
        error_ = std::make_exception_ptr(
            Error(ErrorKind::kLimit,
                  {.file = config_.file->name(), .row_group = static_cast<int64_t>(b.group->plan->row_group)},
                  "a batch of " + std::to_string(b.data.rows) + " rows needs " +
                      std::to_string(b.bytes + b.group->owned) + " bytes, more than the memory limit of " +
                      std::to_string(config_.memory_limit) + " bytes (a smaller batch size may fit)"));
        std::rethrow_exception(error_);
      }
      batch_estimate_ = std::max(batch_estimate_, b.bytes);
      held_ -= b.bytes;
      out = std::move(b.data);
      Group& g = *b.group;
      // The window and the groups' lists must agree on the order of the
      // batches (a restart cuts both); a slip would leave lanes unread.
      if (g.batches.empty() || g.batches.front() != &b)
        throw std::logic_error("batch pipeline: a batch handed out out of its row group's order");
      g.batches.pop_front();
      ++g.first_seq;
      window_.pop_front();
      close_front_groups();
      closed = std::exchange(closed_, {});
      wake();
      return true;
    }
    Task t = pick();
    if (t.kind != Task::Kind::kNone) {
      run(t, lock);
      continue;
    }
    if (restart_ && running_ == 0 && !error_) {
      restart();
      continue;
    }
    if (window_.empty() && (done_making_ || stopped_)) {
      // Every batch is handed out; row groups the verdict stopped short
      // close once no task opens them.
      const bool opening =
          std::any_of(groups_.begin(), groups_.end(), [](const auto& g) { return g->state == Group::State::kOpening; });
      if (!opening) {
        groups_.clear();
        held_ = 0;
        return false;
      }
    }
    wake();
    changed_.wait(lock);
  }
}

}  // namespace parq
