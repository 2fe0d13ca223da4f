// Blocks of a page or more kept for reuse after the Buffer that held them lets go.
//
// glibc's malloc gives blocks this large back to the kernel when they are
// freed: past its mmap threshold by unmapping them, below it by trimming the
// heap whose top they free (brk, madvise). So a process that reads batch
// after batch into fresh Buffers has every 4 KiB page faulted in, zeroed
// and charged again (a large part of a Python read_table), two decoding
// threads contend on the kernel's lock, and each return flushes the other
// thread's TLB by an interrupt, which a virtual machine makes dear.
// General allocators (jemalloc, mimalloc) keep freed memory for reuse, but
// the project depends on none, and Buffers need little of one: freed
// blocks by size class, a cap on what is kept, and MADV_FREE on each block
// kept unused for a few seconds, so that under memory pressure the kernel
// takes those pages back without asking (a block it emptied is faulted in
// afresh, like a new one) and otherwise a reused block takes no fault.
// Sanitizer builds keep nothing, so that ASan still sees every use after
// free.
#pragma once

#include <cstddef>

namespace parq::detail {

// Whether freed blocks are kept at all: not under AddressSanitizer.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PARQ_BLOCK_CACHE_OFF 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PARQ_BLOCK_CACHE_OFF 1
#endif
#ifdef PARQ_BLOCK_CACHE_OFF
constexpr bool kKeepsBlocks = false;
#else
constexpr bool kKeepsBlocks = true;
#endif

// Blocks of at least this many bytes are sized by class and cached: low
// enough that the levels, offsets and values of a batch of a thousand
// rows are among them. Below it, glibc's aligned allocation splits and
// merges chunks on every call, and a block freed by the caller's thread
// goes back to the arena of the thread that decoded it, under its lock.
constexpr size_t kMinCachedBlock = size_t{4} << 10;

// The size of the block that serves `bytes` (a multiple of 64): below
// kMinCachedBlock `bytes` itself, else its size class (steps of an eighth
// between powers of two, so at most an eighth more).
size_t block_size(size_t bytes);

// A 64-byte aligned block of `size` bytes (a block_size result); null when
// memory runs out.
void* allocate_block(size_t size);

// Gives back a block from allocate_block(size); null is ignored.
void free_block(void* block, size_t size);

// What the cache holds now, in bytes (for tests).
size_t cached_block_bytes();

}  // namespace parq::detail
