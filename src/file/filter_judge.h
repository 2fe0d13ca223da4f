// The filter's verdicts on a read's batches (BatchJudge), with adaptive
// ordering: when the filter is a conjunction (a AND b AND ...), its
// conjuncts are judged one stage at a time, and each stage's columns are
// read only for the rows the stages before it kept. The order favours
// conjuncts that are cheap to read and drop many rows (cost divided by the
// share of rows dropped), as measured on the batches read so far, so a
// costly column (long strings) is read for few rows when a cheap one
// decides most of them.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "../filter/bound_filter.h"
#include "batch_pipeline.h"
#include "parq/schema/schema.h"

namespace parq {

class FilterJudge final : public BatchJudge {
 public:
  // `slot_leaves`: the schema leaf of each of the pipeline's slots,
  // ascending (the filter's among them). Offset and limit count the rows
  // that pass, in file order (a negative limit: none).
  FilterJudge(const filter::BoundFilter& filter, const Schema& schema, std::vector<int> slot_leaves, int64_t offset,
              int64_t limit);

  int stage_slots(std::vector<uint8_t>& stage) override;
  bool judge(DecodedBatch& batch, int stage, int stages) override;
  bool ordered() const override { return offset_ > 0 || limit_ >= 0; }
  void measured(size_t slot, int64_t rows, int64_t nanoseconds) override;

  struct Counts {
    int64_t rows_decoded = 0;  // rows the first stage read
    int64_t rows_filtered = 0;
    int64_t rows_skipped_by_offset = 0;
  };
  Counts counts() const;

 private:
  struct Conjunct {
    const filter::FilterNode* node = nullptr;
    std::vector<size_t> tests;
    std::vector<size_t> slots;  // ascending
    int64_t judged = 0;         // rows it was evaluated on
    int64_t passed = 0;
  };
  int stage_of(const Conjunct& c, const std::vector<uint8_t>& stage) const;
  void narrow(DecodedBatch& batch, int stage, const std::vector<uint8_t>& relative, int64_t now_kept);

  const filter::BoundFilter& filter_;
  const Schema& schema_;
  std::vector<int> slot_leaves_;
  std::vector<Conjunct> conjuncts_;
  const int64_t offset_;
  const int64_t limit_;
  int64_t skipped_ = 0;   // by the offset; final verdicts, in order
  int64_t returned_ = 0;  // likewise

  mutable std::mutex mutex_;  // what follows: verdicts of several batches run at once
  std::vector<double> cost_;  // per slot: nanoseconds per row, as measured (0: not yet)
  Counts counts_;
};

}  // namespace parq
