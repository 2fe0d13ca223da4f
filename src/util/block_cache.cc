// Blocks of a page or more kept for reuse; see block_cache.h.
#include "block_cache.h"

#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "parq/util/buffer.h"

namespace parq::detail {
namespace {

constexpr int kMinShift = std::countr_zero(kMinCachedBlock);
constexpr int kMaxShift = 40;  // larger blocks are not cached
constexpr int kSteps = 8;      // classes between two powers of two
constexpr size_t kClasses = static_cast<size_t>(kMaxShift - kMinShift + 1) * kSteps;

// The class of a block_size result of at least kMinCachedBlock.
size_t class_of(size_t size) {
  const int shift = std::bit_width(size) - 1;
  const size_t step = (size_t{1} << shift) / kSteps;
  return static_cast<size_t>(shift - kMinShift) * kSteps + (size / step - kSteps);
}

// A monotonic clock read from the kernel's last tick: a block is stamped
// as it is freed, which small batches do hundreds of thousands of times a
// read, and the stamps only need to tell seconds apart.
struct Clock {
  using duration = std::chrono::nanoseconds;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::time_point<Clock>;
  static time_point now() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return time_point(std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec));
  }
};

// A block left in the cache this long is lent to the kernel (MADV_FREE).
// Lending every block as it comes in costs more than the faults it saves
// (the madvise walks the pages, and a second thread waits on its TLB
// flush); a block reused soon needs no lending.
constexpr Clock::duration kLendAfter = std::chrono::seconds(2);

struct Entry {
  void* block = nullptr;
  size_t size = 0;
  Clock::time_point freed;
  bool lent = false;
};

struct Cache {
  std::mutex mutex;
  std::array<std::vector<Entry>, kClasses> free;
  size_t held = 0;
  Clock::time_point last_pass = Clock::now();
  // An eighth of the machine's memory, at most 4 GiB: enough for a read
  // that materializes a large table to find its blocks again next time.
  const size_t cap = [] {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    const size_t memory = pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : 0;
    return std::min(memory / 8, size_t{4} << 30);
  }();
};

Cache& cache() {
  // Never destroyed: Buffers may be freed by static destructors after it.
  static Cache* c = new Cache;
  return *c;
}

// Lets the kernel take the block's whole pages back when it needs memory.
void lend_to_kernel(void* block, size_t size) {
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<uintptr_t>(block) + page - 1) & ~(page - 1);
  const auto end = (reinterpret_cast<uintptr_t>(block) + size) & ~(page - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_FREE);
}

bool cached_size(size_t size) { return size >= kMinCachedBlock && size < (size_t{1} << (kMaxShift + 1)); }

}  // namespace

size_t block_size(size_t bytes) {
  if (!cached_size(bytes)) return (bytes + Buffer::kAlignment - 1) / Buffer::kAlignment * Buffer::kAlignment;
  const size_t step = std::bit_floor(bytes) / kSteps;
  return (bytes + step - 1) / step * step;
}

void* allocate_block(size_t size) {
  if (kKeepsBlocks && cached_size(size)) {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    std::vector<Entry>& list = c.free[class_of(size)];
    if (!list.empty()) {
      // The newest: its pages are the likeliest to be in the caches and
      // not yet lent.
      void* block = list.back().block;
      list.pop_back();
      c.held -= size;
      return block;
    }
  }
  return std::aligned_alloc(Buffer::kAlignment, size);
}

namespace {

// Lends the blocks idle for kLendAfter to the kernel. They are taken out
// of the lists while the kernel is told: a listed block may be taken and
// written to by another thread, and those writes must not be freed.
void lend_idle_blocks(Cache& c, Clock::time_point now, std::unique_lock<std::mutex>& lock) {
  std::vector<Entry> lend;
  for (std::vector<Entry>& list : c.free) {
    auto idle = [&](const Entry& e) { return !e.lent && now - e.freed >= kLendAfter; };
    for (const Entry& e : list)
      if (idle(e)) lend.push_back(e);
    std::erase_if(list, idle);
  }
  if (lend.empty()) return;
  lock.unlock();
  for (Entry& e : lend) {
    lend_to_kernel(e.block, e.size);
    e.lent = true;
  }
  lock.lock();
  // At the front: a block not lent is the better one to reuse.
  for (const Entry& e : lend) {
    std::vector<Entry>& list = c.free[class_of(e.size)];
    list.insert(list.begin(), e);
  }
}

}  // namespace

void free_block(void* block, size_t size) {
  if (block == nullptr) return;
  if (kKeepsBlocks && cached_size(size)) {
    Cache& c = cache();
    const Clock::time_point now = Clock::now();
    std::unique_lock lock(c.mutex);
    if (c.held + size <= c.cap) {
      c.held += size;
      c.free[class_of(size)].push_back({block, size, now, false});
      if (now - c.last_pass >= kLendAfter / 2) {
        c.last_pass = now;
        lend_idle_blocks(c, now, lock);
      }
      return;
    }
  }
  std::free(block);
}

size_t cached_block_bytes() {
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  return c.held;
}

}  // namespace parq::detail
