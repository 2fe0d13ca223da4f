// The SIMD levels a test runs its kernels at, and a guard that puts the
// detected level back when the test ends (pass or fail).
#pragma once

#include <vector>

#include "parq/util/cpu.h"

namespace parq::testing {

// Scalar, then every level up to what this CPU has.
inline std::vector<SimdLevel> simd_levels() {
  std::vector<SimdLevel> out;
  for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512})
    if (level <= detected_simd_level()) out.push_back(level);
  return out;
}

struct SimdLevelGuard {
  ~SimdLevelGuard() { set_simd_level(detected_simd_level()); }
};

}  // namespace parq::testing
