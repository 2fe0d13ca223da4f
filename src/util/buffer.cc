// Buffer's allocation: aligned, with padding past the capacity.
#include "parq/util/buffer.h"

#include <new>

#include "block_cache.h"

namespace parq {

void Buffer::grow_to(size_t capacity) {
  const size_t bytes = detail::block_size(capacity + kPadding);
  auto* fresh = static_cast<uint8_t*>(detail::allocate_block(bytes));
  if (fresh == nullptr) throw std::bad_alloc();
  if (size_ != 0) std::memcpy(fresh, data_, size_);
  release();
  data_ = fresh;
  // The whole block, so that release() gives back the size it was given.
  capacity_ = bytes - kPadding;
}

void Buffer::release() {
  if (owner_) {
    owner_.reset();
  } else {
    detail::free_block(data_, capacity_ + kPadding);
  }
  data_ = nullptr;
  capacity_ = 0;
}

}  // namespace parq
