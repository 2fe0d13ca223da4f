// count_set_bits against a bit-by-bit count, over ranges that start and end
// inside and on the edges of bytes and words.
#include "util/bits.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace parq {
namespace {

TEST(Bits, CountSetBitsMatchesABitLoopOnEveryRange) {
  std::mt19937 rng(3);
  std::vector<uint8_t> bits(40);
  for (uint8_t& b : bits) b = static_cast<uint8_t>(rng());
  const int64_t n = static_cast<int64_t>(bits.size()) * 8;
  for (int64_t begin = 0; begin <= n; ++begin)
    for (int64_t end = begin; end <= n; end += 1 + (end % 7)) {
      int64_t expected = 0;
      for (int64_t i = begin; i < end; ++i) expected += (bits[static_cast<size_t>(i >> 3)] >> (i & 7)) & 1;
      ASSERT_EQ(count_set_bits(bits.data(), begin, end), expected) << begin << ".." << end;
    }
}

}  // namespace
}  // namespace parq
