// Buffer: a growable, 64-byte aligned byte buffer that does not zero what it
// grows into. Decoders and encoders write into these: std::vector would spend
// a pass zeroing memory that is overwritten right after, and its alignment
// is too weak for aligned SIMD stores.
//
// A buffer may also be a view: bytes inside memory that something else owns
// (a decompressed page), kept alive by a shared owner, so that the reader
// hands out a page's PLAIN values without copying them. A view is read-only
// in place: whatever would write to it (non-const data(), resize, extend,
// ...) first copies its bytes into memory of its own.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>

namespace parq {

class Buffer {
 public:
  static constexpr size_t kAlignment = 64;
  // Every buffer keeps this many bytes of slack past its size, so that SIMD
  // kernels may store a full vector at the tail without a scalar epilogue.
  static constexpr size_t kPadding = 64;

  Buffer() = default;
  explicit Buffer(size_t size) { resize(size); }
  Buffer(const Buffer& other) { assign(other.data(), other.size()); }
  Buffer& operator=(const Buffer& other) {
    if (this != &other) assign(other.data(), other.size());
    return *this;
  }
  Buffer(Buffer&& other) noexcept
      : data_(other.data_), size_(other.size_), capacity_(other.capacity_), owner_(std::move(other.owner_)) {
    other.data_ = nullptr;
    other.size_ = other.capacity_ = 0;
  }
  Buffer& operator=(Buffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = other.data_;
      size_ = other.size_;
      capacity_ = other.capacity_;
      owner_ = std::move(other.owner_);
      other.data_ = nullptr;
      other.size_ = other.capacity_ = 0;
    }
    return *this;
  }
  ~Buffer() { release(); }

  // A view of `size` bytes at `data`, which `owner` keeps alive; kPadding
  // readable bytes must follow them (as they do inside another Buffer).
  static Buffer view(std::shared_ptr<const void> owner, const uint8_t* data, size_t size) {
    Buffer b;
    b.data_ = const_cast<uint8_t*>(data);  // written only after detach() copies
    b.size_ = b.capacity_ = size;
    b.owner_ = std::move(owner);
    return b;
  }
  bool is_view() const { return owner_ != nullptr; }
  // Grows a view by the `size` bytes at `data`, when `owner` keeps them and
  // they follow the view's own; false (and the view left as it was)
  // otherwise. A page that follows the one a view is in, in one buffer,
  // extends it instead of copying both.
  bool extend_view(const std::shared_ptr<const void>& owner, const uint8_t* data, size_t size) {
    if (owner_ == nullptr || owner_.get() != owner.get() || data != data_ + size_) return false;
    size_ += size;
    capacity_ = size_;
    return true;
  }

  uint8_t* data() {
    if (owner_) [[unlikely]]
      detach();
    return data_;
  }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  std::span<const uint8_t> span() const { return {data_, size_}; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data_), size_}; }

  template <class T>
  T* data_as() {
    return reinterpret_cast<T*>(data());
  }
  template <class T>
  const T* data_as() const {
    return reinterpret_cast<const T*>(data_);
  }

  void clear() {
    if (owner_) release();
    size_ = 0;
  }
  void reserve(size_t capacity) {
    if (owner_ || capacity > capacity_) grow_to(std::max(capacity, size_));
  }
  // Room for `n` bytes past size() without moving, growing geometrically
  // like extend() (reserve() grows to exactly what it is asked).
  void reserve_more(size_t n) {
    if (owner_ || n > capacity_ - size_) grow_to(grown_capacity(size_ + n));
  }
  // New bytes are left uninitialised.
  void resize(size_t size) {
    reserve(size);
    size_ = size;
  }
  // Appends `n` uninitialised bytes and returns where they start.
  uint8_t* extend(size_t n) {
    if (owner_ || n > capacity_ - size_) grow_to(grown_capacity(size_ + n));
    uint8_t* p = data_ + size_;
    size_ += n;
    return p;
  }
  void append(const void* bytes, size_t n) {
    if (n != 0) std::memcpy(extend(n), bytes, n);
  }
  void append(std::string_view s) { append(s.data(), s.size()); }
  template <class T>
  void append_value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::memcpy(extend(sizeof(T)), &v, sizeof(T));
  }
  void assign(const void* bytes, size_t n) {
    clear();
    append(bytes, n);
  }

 private:
  static size_t grown_capacity(size_t needed) {
    size_t c = 64;
    while (c < needed) c *= 2;
    return c;
  }
  // Moves the bytes (a view's too) into memory of its own of `capacity`
  // (at least size()) bytes.
  void grow_to(size_t capacity);
  void detach() { grow_to(size_); }
  void release();

  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  std::shared_ptr<const void> owner_;  // set for views
};

}  // namespace parq
