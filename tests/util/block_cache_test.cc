// The block cache behind large Buffers: size classes, reuse of a freed
// block, the contents a reused block gives, and nothing kept in sanitizer
// builds (where ASan must see every use after free).
#include "util/block_cache.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "parq/util/buffer.h"

namespace parq {
namespace {

constexpr bool kSanitized = !detail::kKeepsBlocks;

TEST(BlockCache, SizesAreClassesOfAnEighthAboveTheThreshold) {
  EXPECT_EQ(detail::block_size(1), 64u);
  EXPECT_EQ(detail::block_size(64), 64u);
  EXPECT_EQ(detail::block_size(65), 128u);
  EXPECT_EQ(detail::block_size(detail::kMinCachedBlock - 1), detail::kMinCachedBlock);
  EXPECT_EQ(detail::block_size(detail::kMinCachedBlock), detail::kMinCachedBlock);
  const size_t step = detail::kMinCachedBlock / 8;
  EXPECT_EQ(detail::block_size(detail::kMinCachedBlock + 1), detail::kMinCachedBlock + step);
  for (size_t n = detail::kMinCachedBlock; n < (size_t{64} << 20); n = n * 5 / 4 + 12345) {
    const size_t b = detail::block_size(n);
    EXPECT_GE(b, n);
    EXPECT_LE(b - n, n / 8) << n;
    EXPECT_EQ(b % Buffer::kAlignment, 0u) << n;
    EXPECT_EQ(detail::block_size(b), b) << n;  // a class size is its own class
  }
}

TEST(BlockCache, AFreedLargeBlockServesTheNextOfItsClass) {
  const size_t size = detail::block_size(3 * detail::kMinCachedBlock + 17);
  void* first = detail::allocate_block(size);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % Buffer::kAlignment, 0u);
  std::memset(first, 0x5A, size);
  const size_t before = detail::cached_block_bytes();
  detail::free_block(first, size);
  if (kSanitized) {
    EXPECT_EQ(detail::cached_block_bytes(), before);
    return;
  }
  EXPECT_EQ(detail::cached_block_bytes(), before + size);
  void* again = detail::allocate_block(size);
  EXPECT_EQ(again, first);
  EXPECT_EQ(detail::cached_block_bytes(), before);
  // The block may have been lent to the kernel meanwhile: each page holds
  // what was written or zeros, and writes after reuse stay.
  const auto* bytes = static_cast<const uint8_t*>(again);
  for (size_t i = 0; i < size; i += 4096) EXPECT_TRUE(bytes[i] == 0x5A || bytes[i] == 0) << i;
  std::memset(again, 0x33, size);
  for (size_t i = 0; i < size; i += 4096) ASSERT_EQ(bytes[i], 0x33) << i;
  detail::free_block(again, size);
  detail::free_block(nullptr, size);  // ignored
}

// A block idle in the cache for a few seconds is lent to the kernel
// (MADV_FREE): reused, each page holds what it held or zeros, and what is
// written then stays.
TEST(BlockCache, ABlockLentToTheKernelIsReusedSafely) {
  const size_t size = detail::block_size(5 * detail::kMinCachedBlock);
  // Blocks of this size that earlier tests left in the cache are taken out
  // until a fresh one comes, so that the cache then holds only the one freed
  // here; they go back at the end.
  std::vector<void*> taken;
  for (size_t held = detail::cached_block_bytes();; held = detail::cached_block_bytes()) {
    taken.push_back(detail::allocate_block(size));
    ASSERT_NE(taken.back(), nullptr);
    if (detail::cached_block_bytes() == held) break;
  }
  void* block = taken.back();
  taken.pop_back();
  std::memset(block, 0x77, size);
  const size_t before = detail::cached_block_bytes();
  detail::free_block(block, size);
  if (kSanitized) {  // sanitizer builds keep no blocks
    EXPECT_EQ(detail::cached_block_bytes(), before);
    return;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  // Any later free runs the lending pass.
  const size_t other = detail::block_size(7 * detail::kMinCachedBlock);
  detail::free_block(detail::allocate_block(other), other);
  void* again = detail::allocate_block(size);
  ASSERT_EQ(again, block);
  auto* bytes = static_cast<uint8_t*>(again);
  for (size_t i = 0; i < size; i += 4096) EXPECT_TRUE(bytes[i] == 0x77 || bytes[i] == 0) << i;
  std::memset(again, 0x11, size);
  for (size_t i = 0; i < size; i += 4096) ASSERT_EQ(bytes[i], 0x11) << i;
  detail::free_block(again, size);
  for (void* b : taken) detail::free_block(b, size);
}

TEST(BlockCache, SmallBlocksAreNotKept) {
  const size_t size = detail::block_size(1000);
  const size_t before = detail::cached_block_bytes();
  void* b = detail::allocate_block(size);
  ASSERT_NE(b, nullptr);
  detail::free_block(b, size);
  EXPECT_EQ(detail::cached_block_bytes(), before);
}

// A batch's own buffers are kept: the definition levels of a default batch
// (64 Ki int16) and the offsets of half a DuckDB row group (61,441 int32),
// which glibc would otherwise serve from heaps it trims as they come free.
TEST(BlockCache, ABatchsLevelAndOffsetBuffersAreKept) {
  for (const size_t bytes : {size_t{65536} * sizeof(int16_t), size_t{61441} * sizeof(int32_t)}) {
    auto b = std::make_unique<Buffer>(bytes);  // may take a block earlier tests left
    const size_t before = detail::cached_block_bytes();
    b.reset();
    if (kSanitized)
      EXPECT_EQ(detail::cached_block_bytes(), before) << bytes;
    else
      EXPECT_GE(detail::cached_block_bytes(), before + bytes) << bytes;
    Buffer again(bytes);  // takes it back out, so later tests meet the cache as before
  }
}

// Buffers that grow, move and die on several threads at once give every
// byte they were given.
TEST(BlockCache, BuffersOnManyThreadsKeepTheirBytes) {
  std::vector<std::thread> threads;
  std::vector<int> bad(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &bad] {
      for (int round = 0; round < 40; ++round) {
        Buffer b;
        const size_t n = detail::kMinCachedBlock / 2 + static_cast<size_t>((round * 7919 + t * 104729) % (1 << 20));
        for (size_t i = 0; i < n; i += 1024) b.append_value<uint32_t>(static_cast<uint32_t>(i ^ t));
        Buffer moved = std::move(b);
        const size_t values = moved.size() / 4;
        for (size_t k = 0; k < values; ++k)
          if (moved.data_as<uint32_t>()[k] != static_cast<uint32_t>((k * 1024) ^ t)) ++bad[static_cast<size_t>(t)];
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(bad[static_cast<size_t>(t)], 0) << t;
}

}  // namespace
}  // namespace parq
