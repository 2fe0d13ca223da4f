// Counting levels, shared by the reader (nulls and record starts of a page),
// the writer (value counts and level histograms of its pages) and the
// filters (the defined values of a batch).
#pragma once

#include <cstdint>

namespace parq {

// Levels equal to `level` among n.
inline int64_t count_levels_equal(const int16_t* levels, int64_t n, int16_t level) {
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += levels[i] == level;
  return count;
}

}  // namespace parq
