// Random-access input: where the reader gets its bytes.
//
// Every later layer (footer, page index, column chunks) reads through this
// interface, so a file on disk, a buffer in memory or a caller's own source
// (an object store client, say) look the same. A memory-resident input also
// hands out zero-copy views, which the reader prefers when it can get them.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace parq::io {

// Bytes [offset, offset + length) of an input.
struct FileRange {
  uint64_t offset = 0;
  uint64_t length = 0;
  uint64_t end() const { return offset + length; }
  bool operator==(const FileRange&) const = default;
};

class ByteRange;

class RandomAccessInput {
 public:
  virtual ~RandomAccessInput() = default;

  virtual uint64_t size() const = 0;

  // Reads exactly `n` bytes at `offset` into `out`; throws parq::Error when
  // the range is not inside the input or the read fails.
  void read_at(uint64_t offset, size_t n, uint8_t* out);

  // A view of [offset, offset + n) valid as long as the input, or an empty
  // span when the input is not memory-resident.
  virtual std::span<const uint8_t> view(uint64_t offset, size_t n) const;
  // Whether view() hands out the bytes (so that fetched ranges cost no
  // memory of the reader's); an input that opens its source lazily answers
  // without opening it.
  virtual bool memory_resident() const { return view(0, 0).data() != nullptr; }

  // The bytes of several ranges, in their order: the fetch stage of a read
  // asks for everything a row group needs at once, so that an input can
  // coalesce near ranges and run them concurrently. Views where the input
  // is memory-resident, copies otherwise; throws like read_at.
  virtual std::vector<ByteRange> read_ranges(std::span<const FileRange> ranges);

  // A name for error messages (the path, or "<memory>").
  virtual const std::string& name() const = 0;

  // Bytes copied out through read_at() so far (views are counted too), so
  // that tests can check that a projection reads only what it needs.
  uint64_t bytes_read() const { return bytes_read_.load(std::memory_order_relaxed); }

 protected:
  virtual void do_read_at(uint64_t offset, size_t n, uint8_t* out) = 0;
  void count_view(size_t n) const { bytes_read_.fetch_add(n, std::memory_order_relaxed); }

 private:
  // Column chunks are read from several threads at once.
  mutable std::atomic<uint64_t> bytes_read_{0};
};

// Bytes of a range, either borrowed from a memory-resident input or owned.
class ByteRange {
 public:
  ByteRange() = default;
  // A copy of owned bytes points at its own copy (a view stays a view);
  // a move keeps the vector's storage, so the pointer stays valid.
  ByteRange(const ByteRange& other) : owned_(other.owned_), size_(other.size_) {
    data_ = other.owned_.empty() ? other.data_ : owned_.data();
  }
  ByteRange& operator=(const ByteRange& other) {
    if (this != &other) *this = ByteRange(other);
    return *this;
  }
  ByteRange(ByteRange&&) noexcept = default;
  ByteRange& operator=(ByteRange&&) noexcept = default;
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  std::span<const uint8_t> span() const { return {data_, size_}; }
  // Whether the bytes are borrowed from the input (a view), not owned.
  bool borrowed() const { return owned_.empty() && data_ != nullptr; }

  // Reads [offset, offset + n) from `input`: a view when it has one, a copy
  // otherwise.
  static ByteRange read(RandomAccessInput& input, uint64_t offset, size_t n);

 private:
  std::vector<uint8_t> owned_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

enum class FileAccess {
  kMemoryMap,  // mmap, falling back to pread when mapping fails
  kPread,
};

// Opens a file for reading; throws parq::Error naming the path and the
// system's reason when it cannot.
std::unique_ptr<RandomAccessInput> open_file(const std::string& path, FileAccess access = FileAccess::kMemoryMap);

// An input over bytes the caller keeps alive.
std::unique_ptr<RandomAccessInput> memory_input(std::span<const uint8_t> bytes, std::string name = "<memory>");

// An input that owns its bytes.
std::unique_ptr<RandomAccessInput> buffer_input(std::vector<uint8_t> bytes, std::string name = "<memory>");

}  // namespace parq::io
