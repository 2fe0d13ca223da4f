// CostOrder: the order in which threads take tasks of unequal cost.
#include "util/cost_order.h"

#include <gtest/gtest.h>

#include <vector>

namespace parq {
namespace {

std::vector<size_t> order_of(const CostOrder& order) {
  std::vector<size_t> out;
  for (size_t k = 0; k < order.size(); ++k) out.push_back(order[k]);
  return out;
}

TEST(CostOrder, StartsInIndexOrderAndFollowsTheCostsCostliestFirst) {
  CostOrder order(4);
  EXPECT_EQ(order_of(order), (std::vector<size_t>{0, 1, 2, 3}));
  order.note(0, 1.0);
  order.note(1, 1.0);
  order.note(2, 5.0);
  order.note(3, 3.0);
  order.sort();
  EXPECT_EQ(order_of(order), (std::vector<size_t>{2, 3, 0, 1}));  // ties keep their order
}

TEST(CostOrder, ARunningMeanMovesWithTheCostsButNotAtOnce) {
  CostOrder order(2);
  order.note(0, 4.0);
  order.note(1, 3.0);
  order.sort();
  EXPECT_EQ(order[0], 0u);
  order.note(0, 1.0);  // mean 3.25: still ahead of 3
  order.sort();
  EXPECT_EQ(order[0], 0u);
  order.note(0, 1.0);  // mean 2.69
  order.sort();
  EXPECT_EQ(order_of(order), (std::vector<size_t>{1, 0}));
}

}  // namespace
}  // namespace parq
