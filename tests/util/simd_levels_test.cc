// The test helper that runs kernels at every SIMD level: each level is set
// while the loop body runs, and the detected level is back afterwards, also
// when the loop is left early.
#include "simd_levels.h"

#include <gtest/gtest.h>

#include <vector>

namespace parq {
namespace {

TEST(EachSimdLevel, SetsEachLevelThenTheDetectedOne) {
  std::vector<SimdLevel> seen;
  for (SimdLevel level : testing::each_simd_level()) {
    EXPECT_EQ(simd_level(), level);
    seen.push_back(level);
  }
  EXPECT_EQ(seen, testing::simd_levels());
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front(), SimdLevel::kScalar);
  EXPECT_EQ(simd_level(), detected_simd_level());
}

TEST(EachSimdLevel, RestoresAfterLeavingEarly) {
  for (SimdLevel level : testing::each_simd_level()) {
    EXPECT_EQ(level, SimdLevel::kScalar);
    break;
  }
  EXPECT_EQ(simd_level(), detected_simd_level());
}

}  // namespace
}  // namespace parq
