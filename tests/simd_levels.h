// The SIMD levels a test runs its kernels at: a loop that sets each in
// turn, and a guard for tests that set levels themselves. Both put the
// detected level back however the test ends (an ASSERT returns early).
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

// `for (SimdLevel level : each_simd_level())`: simd_levels(), each set as
// the loop reaches it, the detected level set again when the loop ends.
class EachSimdLevel {
 public:
  class Iterator {
   public:
    explicit Iterator(std::vector<SimdLevel>::const_iterator at) : at_(at) {}
    SimdLevel operator*() const {
      set_simd_level(*at_);
      return *at_;
    }
    Iterator& operator++() {
      ++at_;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return at_ != other.at_; }

   private:
    std::vector<SimdLevel>::const_iterator at_;
  };

  EachSimdLevel() = default;
  EachSimdLevel(const EachSimdLevel&) = delete;
  EachSimdLevel& operator=(const EachSimdLevel&) = delete;
  ~EachSimdLevel() { set_simd_level(detected_simd_level()); }

  Iterator begin() const { return Iterator(levels_.begin()); }
  Iterator end() const { return Iterator(levels_.end()); }

 private:
  std::vector<SimdLevel> levels_ = simd_levels();
};

inline EachSimdLevel each_simd_level() { return {}; }

}  // namespace parq::testing
