// The decode stage of a read: the plan's row groups cut into batches, each
// batch decoded leaf by leaf as tasks on the pool's threads, ahead of the
// caller and handed out in file order.
//
// Work is split by column chunk and batch, not by row group: a file with a
// few large row groups keeps every thread busy, and no thread decodes a
// whole row group ahead. Batches much smaller than the default are read a
// run to a task (one column over consecutive batches of a row group, which
// its reader reads one after another anyway), so that scheduling does not
// outweigh the work. How far ahead the tasks may run is a window of
// batches (as many more as a run holds), narrowed further by a memory
// limit. A row group's column chunks are fetched when its first batch
// enters the window; with a filter, the chunks of the columns that wait
// for its verdict are fetched only when a batch of the row group keeps a
// row.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "../column/leaf_reader.h"
#include "../fetch/chunk_fetch.h"
#include "../plan/planner.h"
#include "../util/cost_order.h"
#include "parq/error.h"
#include "parq/file/file_reader.h"
#include "parq/plan/read_plan.h"
#include "parq/util/thread_pool.h"

namespace parq {

// A batch of records of one row group, as its leaves decoded them.
struct DecodedBatch {
  const RowGroupPlan* group = nullptr;
  int64_t first = 0;  // in the row group
  int64_t rows = 0;
  // Per slot (PipelineConfig::leaves): the records of the rows still kept
  // when the slot was read, compacted to those kept after each later stage
  // of the filter (see BatchJudge).
  std::vector<LeafBatch> leaves;
  // Per row: whether it is (still) kept; empty: every row. `kept` counts them.
  std::vector<uint8_t> keep;
  int64_t kept = 0;
  // Per slot: the stage of the filter that reads it (BatchJudge).
  std::vector<uint8_t> stage;
};

// The filter's side of a read. A batch is read in stages: the slots of
// stage 0 for every row, then the judge's verdict on them narrows the kept
// rows; the slots of stage 1 are read for those rows only, and so on; the
// slots after the last verdict (the columns the filter does not read) for
// the rows finally kept. Calls come from the pipeline's threads.
class BatchJudge {
 public:
  static constexpr uint8_t kAfterVerdict = 0xff;
  virtual ~BatchJudge() = default;
  // For a batch about to be read: the stage of each early slot (the others
  // are kAfterVerdict); returns the number of stages, at least 1.
  virtual int stage_slots(std::vector<uint8_t>& stage) = 0;
  // After the slots of `stage` are read: narrows keep and kept, and
  // compacts the slots read so far to the rows still kept. The last
  // stage's verdict is final; returns false when no later batch can keep a
  // row (a limit reached).
  virtual bool judge(DecodedBatch& batch, int stage, int stages) = 0;
  // Whether final verdicts must come one batch at a time in file order
  // (an offset or a limit counts rows across batches).
  virtual bool ordered() const = 0;
  // What reading one slot of a batch of `rows` rows took.
  virtual void measured(size_t slot, int64_t rows, int64_t nanoseconds) = 0;
};

struct PipelineConfig {
  const FileReader* file = nullptr;
  const ReadPlan* plan = nullptr;
  std::vector<int> leaves;  // the schema leaf of each slot
  // Per slot: the filter reads it, so its chunk is fetched when the row
  // group opens; the others' chunks are fetched when a batch of the row
  // group first keeps a row. Without a judge every slot is early.
  std::vector<bool> early;
  int64_t batch_rows = 0;
  int threads = 1;
  int64_t memory_limit = 0;  // bytes; 0: only the window bounds the read
  PageReaderOptions pages;
  bool use_offset_index = true;  // fetch only the pages of planned rows
  // Byte-array data per leaf and batch; a batch that would pass it is read
  // again as smaller batches (0: what int32 offsets address).
  int64_t max_batch_bytes = 0;
  // When set: given a row group's early chunks as fetched (null for a
  // column fetched in part), the rows its filter may match by their page
  // headers' statistics, counting the pages consulted and pruned.
  std::function<std::vector<RowRange>(const RowGroupPlan& group,
                                      const std::function<const ChunkBytes*(size_t column)>& chunk_of, int64_t& pages,
                                      int64_t& pages_pruned)>
      page_header_ranges;
  plan::ChunkLookups* lookups = nullptr;
};

class BatchPipeline {
 public:
  // Without a judge (null) every row of every batch is kept. The judge
  // must outlive the pipeline.
  BatchPipeline(PipelineConfig config, BatchJudge* judge);
  ~BatchPipeline();
  BatchPipeline(const BatchPipeline&) = delete;
  BatchPipeline& operator=(const BatchPipeline&) = delete;

  // The next batch in file order; false after the last. Rethrows the first
  // error of any task.
  bool next(DecodedBatch& out);

  struct Counters {
    LeafReadCounters leaves;   // what the leaf readers have done
    int64_t header_pages = 0;  // pages whose header statistics were consulted
    int64_t header_pages_pruned = 0;
    int64_t header_rows_pruned = 0;
    int64_t batch_restarts = 0;  // row groups read again in smaller batches
    int64_t read_tasks = 0;      // with threads
    int64_t peak_window = 0;     // the most batches in the window at once
  };
  Counters counters() const;

 private:
  struct Group;
  struct Batch;
  // One batch's column (slot) to read.
  struct LaneRef {
    Batch* batch = nullptr;
    size_t slot = 0;
    bool run_start = false;  // the first of its run: its page may be staged ahead
  };
  struct Task {
    enum class Kind { kNone, kOpen, kFetchLate, kRead, kVerdict } kind = Kind::kNone;
    Group* group = nullptr;  // an open or fetch task's
    // A verdict task's batches, consecutive in the window, judged in order.
    std::vector<Batch*> verdicts;
    // A read's lanes, read in this order: at most max_pair_ runs, each of
    // one slot over consecutive batches of one row group (two runs may come
    // from different row groups, whose chains are independent).
    std::vector<LaneRef> lanes;
    size_t runs = 0;
  };
  // A lane that may be read next, with its place in the pick order.
  struct Candidate {
    Batch* batch = nullptr;
    size_t slot = 0;
    size_t rank = 0;  // the slot's in slot_order_
  };

  void make_batches();
  Task pick();
  // Runs the task outside the lock, marks what it did, and keeps its lists
  // for later tasks.
  void run(Task& task, std::unique_lock<std::mutex>& lock);
  void open(Group& g, bool late);
  // The chunk requests of a row group's slots (their page ranges by the
  // offset index where rows are left out).
  std::vector<fetch::ChunkRequest> requests_of(const RowGroupPlan& plan, const std::vector<size_t>& slots) const;
  std::vector<ChunkBytes> fetch_ahead(const Group& g, const std::vector<size_t>& slots, bool late);
  // Reads the task's lanes in order; `done` counts those read.
  void read(const Task& task, size_t& done);
  // Runs the batch's next verdict; false when the judge wants no more.
  bool judge(Batch& b);
  bool stage_ready(const Batch& b, size_t slot) const;
  bool judgement_ready(const Batch& b, bool earlier_judged) const;
  // Moves the slot's next lane on past the lanes done.
  void advance_ready(Group& g, size_t slot);
  // Adds to `t` the run of lanes from `c`, up to max_run_ of them.
  void take_run(Task& t, const Candidate& c);
  // `done`: of a verdict task, the verdicts run.
  void finish(const Task& task, size_t done);
  void finish_lane(Batch& b, size_t slot);
  void finish_verdict(Batch& b);
  void close_front_groups();
  void restart();
  void note_lane_time(const Task& task, std::chrono::steady_clock::time_point start);
  void wake();
  void drive();
  bool complete(const Batch& b) const;
  void check_count(const Group& g, size_t slot, int64_t got, int64_t wanted) const;
  int64_t group_estimate(const RowGroupPlan& plan) const;
  int64_t first_batch_estimate(const Group& g) const;
  int64_t first_batch_rows(const RowGroupPlan& plan) const;
  int64_t batch_byte_limit() const;

  PipelineConfig config_;
  BatchJudge* judge_ = nullptr;
  bool has_late_ = false;
  bool resident_ = false;  // the input hands out views: fetched bytes cost no memory
  // Chunks fetched ahead for inputs not in memory, by plan index: the
  // fetched ones, those being fetched, and the groups opened (see
  // fetch_ahead); one set for the early slots, one for the late.
  static constexpr int64_t kFetchAheadBytes = int64_t{64} << 20;
  struct Ahead {
    std::map<size_t, std::vector<ChunkBytes>> fetched;
    std::set<size_t> fetching, opened;
  };
  std::mutex ahead_mutex_;  // taken after mutex_ where both are
  std::condition_variable ahead_ready_;
  Ahead ahead_[2];  // [late]
  // Row groups whose late slots were needed (a batch kept a row) and those
  // that closed without: late slots are fetched ahead while more are
  // needed than not.
  int64_t late_needed_ = 0, late_unneeded_ = 0;
  size_t max_window_ = 1;
  size_t max_pair_ = 2;  // runs per read task
  // Lanes per run: small batches are read several to a task, so that a
  // task's work stays large beside what scheduling it costs; the window
  // holds as many more batches.
  size_t max_run_ = 1;
  uint64_t next_serial_ = 0;                       // of the next batch made
  std::vector<Candidate> candidates_;              // pick()'s, kept for their capacity
  std::vector<std::vector<LaneRef>> spare_lanes_;  // finished tasks' lists, likewise
  std::vector<std::vector<Batch*>> spare_verdicts_;
  // Slots by their lanes' time per row lately: pick() hands out the
  // costliest ready lanes first, since each slot's lanes of a row group run
  // one after another and the longest such chain bounds the read.
  CostOrder slot_order_;
  std::unique_ptr<ThreadPool> pool_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Group>> groups_;  // open or opening, in file order
  // Closed row groups, to be destroyed once the lock is let go: freeing
  // their readers' pages and dictionaries would hold up the other threads.
  std::vector<std::unique_ptr<Group>> closed_;
  std::deque<std::unique_ptr<Batch>> window_;  // made and not handed out, in file order
  size_t next_group_ = 0;                      // in config_.plan->row_groups
  bool done_making_ = false;                   // every batch made, or the verdict wants no more
  int64_t held_ = 0;                           // fetched bytes owned and decoded bytes, of what is in flight
  int64_t batch_estimate_ = 0;
  int drivers_ = 0;
  int running_ = 0;           // tasks picked and not finished
  bool stopped_ = false;      // the judge wants no more batches
  Group* restart_ = nullptr;  // a batch of it came out too large: read it again smaller
  int64_t restart_rows_ = 0;  // the rows of that batch
  std::optional<Error> restart_reason_;
  bool stopping_ = false;
  std::exception_ptr error_;
  Counters counters_;
};

}  // namespace parq
