// CostOrder: indices of tasks ordered by what each cost lately, costliest
// first. A few threads that take unequal independent tasks in this order
// finish together (longest processing time first); in a fixed order, one
// long task (a text column) left for last runs alone while the other
// threads wait. The writer orders its fields by it, the read pipeline its
// column slots.
#pragma once

#include <cstddef>
#include <numeric>
#include <utility>
#include <vector>

namespace parq {

class CostOrder {
 public:
  explicit CostOrder(size_t n = 0) : order_(n), cost_(n, 0.0) { std::iota(order_.begin(), order_.end(), size_t{0}); }

  size_t size() const { return order_.size(); }
  // The k-th costliest index, as of the last sort().
  size_t operator[](size_t k) const { return order_[k]; }

  // Folds `cost` into index i's running mean. Threads may note distinct
  // indices at once; sort() wants them done.
  void note(size_t i, double cost) {
    double& mean = cost_[i];
    mean = mean == 0 ? cost : 0.75 * mean + 0.25 * cost;
  }

  // Insertion sort: a few indices, mostly in order already.
  void sort() {
    for (size_t i = 1; i < order_.size(); ++i)
      for (size_t j = i; j > 0 && cost_[order_[j]] > cost_[order_[j - 1]]; --j) std::swap(order_[j], order_[j - 1]);
  }

 private:
  std::vector<size_t> order_;
  std::vector<double> cost_;
};

}  // namespace parq
