// Buffer's allocation: aligned, with padding past the capacity.
#include "parq/util/buffer.h"

#include <cstdlib>
#include <new>

namespace parq {

void Buffer::grow_to(size_t capacity) {
  size_t bytes = (capacity + kPadding + kAlignment - 1) / kAlignment * kAlignment;
  auto* fresh = static_cast<uint8_t*>(std::aligned_alloc(kAlignment, bytes));
  if (fresh == nullptr) throw std::bad_alloc();
  if (size_ != 0) std::memcpy(fresh, data_, size_);
  release();
  data_ = fresh;
  capacity_ = capacity;
}

void Buffer::release() {
  if (owner_) {
    owner_.reset();
  } else {
    std::free(data_);
  }
  data_ = nullptr;
  capacity_ = 0;
}

}  // namespace parq
