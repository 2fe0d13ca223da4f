// FilterJudge; see filter_judge.h.
#include "filter_judge.h"

#include <algorithm>

#include "../column/record_selection.h"

namespace parq {
namespace {

// A conjunction splits into at most this many stages; the conjuncts left
// are judged together in the last. Each stage compacts the columns read
// before it, so many small stages cost more than they save.
constexpr int kMaxStages = 4;

// A conjunct's guessed share of rows kept before it has been measured,
// and the least share of rows dropped that ranking assumes (so that a
// conjunct keeping every row ranks last, not infinitely far).
constexpr double kUnmeasuredPass = 0.5;
constexpr double kLeastDrop = 0.02;

void collect_tests(const filter::FilterNode& node, std::vector<size_t>& tests) {
  if (node.kind == filter::FilterNode::Kind::kTest) tests.push_back(node.test);
  for (const auto& c : node.children) collect_tests(c, tests);
}

}  // namespace

FilterJudge::FilterJudge(const filter::BoundFilter& filter, const Schema& schema, std::vector<int> slot_leaves,
                         int64_t offset, int64_t limit)
    : filter_(filter), schema_(schema), slot_leaves_(std::move(slot_leaves)), offset_(offset), limit_(limit) {
  std::vector<const filter::FilterNode*> parts;
  const filter::FilterNode& root = filter.root();
  if (root.kind == filter::FilterNode::Kind::kAnd) {
    for (const auto& c : root.children) parts.push_back(&c);
  } else {
    parts.push_back(&root);
  }
  for (const filter::FilterNode* node : parts) {
    Conjunct c;
    c.node = node;
    collect_tests(*node, c.tests);
    for (size_t t : c.tests)
      for (const int leaf : {filter.tests()[t].column, filter.tests()[t].metadata_column})
        if (leaf >= 0)
          c.slots.push_back(static_cast<size_t>(std::lower_bound(slot_leaves_.begin(), slot_leaves_.end(), leaf) -
                                                slot_leaves_.begin()));
    std::sort(c.slots.begin(), c.slots.end());
    c.slots.erase(std::unique(c.slots.begin(), c.slots.end()), c.slots.end());
    conjuncts_.push_back(std::move(c));
  }
  cost_.assign(slot_leaves_.size(), 0);
}

FilterJudge::Counts FilterJudge::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

void FilterJudge::measured(size_t slot, int64_t rows, int64_t nanoseconds) {
  if (rows <= 0) return;
  const double per_row = static_cast<double>(nanoseconds) / static_cast<double>(rows);
  std::lock_guard lock(mutex_);
  double& c = cost_[slot];
  c = c == 0 ? per_row : 0.8 * c + 0.2 * per_row;
}

// Greedy: the conjunct whose columns not yet read cost least per row
// dropped goes next, its new columns making the next stage; a conjunct
// whose columns are all read already is judged with the stage that reads
// its last one.
int FilterJudge::stage_slots(std::vector<uint8_t>& stage) {
  std::lock_guard lock(mutex_);
  std::vector<bool> read(slot_leaves_.size(), false);
  std::vector<size_t> left(conjuncts_.size());
  for (size_t i = 0; i < left.size(); ++i) left[i] = i;
  int next = 0;
  while (!left.empty()) {
    if (next == kMaxStages - 1 || left.size() == 1) {
      bool any = false;
      for (size_t i : left)
        for (size_t s : conjuncts_[i].slots)
          if (!read[s]) {
            read[s] = true;
            stage[s] = static_cast<uint8_t>(next);
            any = true;
          }
      next += any;
      break;
    }
    size_t best = 0;
    double best_rank = 0;
    for (size_t k = 0; k < left.size(); ++k) {
      const Conjunct& c = conjuncts_[left[k]];
      double cost = 0;
      for (size_t s : c.slots)
        if (!read[s]) cost += cost_[s] == 0 ? 1.0 : cost_[s];
      const double pass = c.judged == 0 ? kUnmeasuredPass : static_cast<double>(c.passed) / c.judged;
      const double rank = cost / std::max(kLeastDrop, 1 - pass);
      if (k == 0 || rank < best_rank) {
        best = k;
        best_rank = rank;
      }
    }
    bool any = false;
    for (size_t s : conjuncts_[left[best]].slots)
      if (!read[s]) {
        read[s] = true;
        stage[s] = static_cast<uint8_t>(next);
        any = true;
      }
    next += any;
    left.erase(left.begin() + static_cast<std::ptrdiff_t>(best));
  }
  return std::max(next, 1);
}

// A conjunct is judged at the stage that reads the last of its columns.
int FilterJudge::stage_of(const Conjunct& c, const std::vector<uint8_t>& stage) const {
  int at = 0;
  for (size_t s : c.slots) at = std::max<int>(at, stage[s]);
  return at;
}

bool FilterJudge::judge(DecodedBatch& b, int stage, int stages) {
  const bool last = stage + 1 == stages;
  if (stage == 0) {
    b.keep.clear();  // every row, until narrowed
    b.kept = b.rows;
  }
  // The rows still kept, in order: every slot read so far holds exactly
  // these.
  const int64_t n = b.kept;
  std::vector<uint8_t> relative(static_cast<size_t>(n), 1);
  const auto& tests = filter_.tests();
  std::vector<std::vector<uint8_t>> truths(tests.size());
  std::vector<uint8_t> verdict(static_cast<size_t>(n));
  std::vector<std::pair<size_t, int64_t>> passed;  // (conjunct, rows it passed)
  for (size_t i = 0; i < conjuncts_.size(); ++i) {
    const Conjunct& c = conjuncts_[i];
    if (stage_of(c, b.stage) != stage) continue;
    for (size_t t : c.tests) {
      if (!truths[t].empty()) continue;
      auto leaf_of = [&](int column) -> const LeafBatch& {
        return b.leaves[static_cast<size_t>(std::lower_bound(slot_leaves_.begin(), slot_leaves_.end(), column) -
                                            slot_leaves_.begin())];
      };
      auto values_of = [&](int column, const LeafBatch& leaf) {
        return filter::dense_values(schema_.column(static_cast<size_t>(column)), leaf.values.fixed.data(),
                                    leaf.values.bytes.offsets(), leaf.values.bytes.data());
      };
      const LeafBatch& leaf = leaf_of(tests[t].column);
      const ColumnDescriptor& column = schema_.column(static_cast<size_t>(tests[t].column));
      const filter::DenseValues values = values_of(tests[t].column, leaf);
      truths[t].resize(static_cast<size_t>(n));
      const int16_t* def = leaf.def.empty() ? nullptr : leaf.def_levels();
      if (tests[t].metadata_column >= 0) {
        const LeafBatch& meta = leaf_of(tests[t].metadata_column);
        filter::evaluate_path_test(
            tests[t], values, def, column.max_definition_level, values_of(tests[t].metadata_column, meta),
            meta.def.empty() ? nullptr : meta.def_levels(),
            schema_.column(static_cast<size_t>(tests[t].metadata_column)).max_definition_level, n, truths[t].data());
      } else {
        filter::evaluate_test(tests[t], values, def, column.max_definition_level, n, truths[t].data());
      }
    }
    // A lone test's truths are the conjunct's verdict.
    const bool lone = c.node->kind == filter::FilterNode::Kind::kTest;
    if (!lone) filter::evaluate_tree(*c.node, truths, n, verdict.data());
    const uint8_t* v = lone ? truths[c.node->test].data() : verdict.data();
    int64_t count = 0;
    uint8_t* rel = relative.data();
    for (size_t r = 0; r < static_cast<size_t>(n); ++r) {
      const uint8_t pass = v[r] == filter::kRowTrue;
      count += pass;
      rel[r] &= pass;
    }
    passed.push_back({i, count});
  }
  int64_t now_kept = 0;
  for (uint8_t k : relative) now_kept += k;
  int64_t by_offset = 0;
  const int64_t matched = now_kept;
  if (last && ordered()) {
    for (auto& k : relative) {
      if (!k) continue;
      if (skipped_ < offset_) {
        k = 0;
        ++skipped_;
        ++by_offset;
        --now_kept;
      } else if (limit_ >= 0 && returned_ >= limit_) {
        k = 0;
        --now_kept;
      } else {
        ++returned_;
      }
    }
  }
  narrow(b, stage, relative, now_kept);
  {
    std::lock_guard lock(mutex_);
    for (const auto& [i, count] : passed) {
      conjuncts_[i].judged += n;
      conjuncts_[i].passed += count;
    }
    if (stage == 0) counts_.rows_decoded += b.rows;
    counts_.rows_filtered += n - matched;
    counts_.rows_skipped_by_offset += by_offset;
  }
  return !last || limit_ < 0 || returned_ < limit_;
}

// Keeps, of the rows still kept, those `relative` keeps: in the batch's
// row mask, and in every slot read so far.
void FilterJudge::narrow(DecodedBatch& b, int stage, const std::vector<uint8_t>& relative, int64_t now_kept) {
  const int64_t n = b.kept;
  if (now_kept == n) return;
  if (b.keep.empty()) {
    b.keep = relative;  // narrowing every row
  } else {
    size_t j = 0;
    for (auto& k : b.keep)
      if (k) k = relative[j++];
  }
  b.kept = now_kept;
  if (now_kept == 0) return;
  for (size_t s = 0; s < b.leaves.size(); ++s)
    if (b.stage[s] != kAfterVerdict && b.stage[s] <= stage)
      keep_records(b.leaves[s], schema_.column(static_cast<size_t>(slot_leaves_[s])), relative.data(), n);
}

}  // namespace parq
