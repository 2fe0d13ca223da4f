// RandomAccessInput's checked read and the memory-backed inputs.
#include "parq/io/input.h"

#include <algorithm>

#include "parq/error.h"

namespace parq::io {

void RandomAccessInput::read_at(uint64_t offset, size_t n, uint8_t* out) {
  uint64_t total = size();
  if (offset > total || n > total - offset)
    throw Error(
        ErrorKind::kCorrupt, {.file = name(), .offset = static_cast<int64_t>(offset)},
        "a read of " + std::to_string(n) + " bytes is past the end of the input (" + std::to_string(total) + " bytes)");
  do_read_at(offset, n, out);
  count_view(n);
}

std::span<const uint8_t> RandomAccessInput::view(uint64_t, size_t) const { return {}; }

std::vector<ByteRange> RandomAccessInput::read_ranges(std::span<const FileRange> ranges) {
  std::vector<ByteRange> out;
  out.reserve(ranges.size());
  for (const FileRange& r : ranges) {
    if (r.length > SIZE_MAX) throw Error(name() + ": a range of " + std::to_string(r.length) + " bytes is too large");
    out.push_back(ByteRange::read(*this, r.offset, static_cast<size_t>(r.length)));
  }
  return out;
}

ByteRange ByteRange::read(RandomAccessInput& input, uint64_t offset, size_t n) {
  ByteRange range;
  std::span<const uint8_t> v = input.view(offset, n);
  if (v.size() == n && (n == 0 || v.data() != nullptr)) {
    range.data_ = v.data();
    range.size_ = n;
    return range;
  }
  range.owned_.resize(n);
  input.read_at(offset, n, range.owned_.data());
  range.data_ = range.owned_.data();
  range.size_ = n;
  return range;
}

namespace {

// Inputs whose bytes are in memory: read_at copies, view borrows.
class SpanInput : public RandomAccessInput {
 public:
  SpanInput(std::span<const uint8_t> bytes, std::string name) : bytes_(bytes), name_(std::move(name)) {}
  uint64_t size() const override { return bytes_.size(); }
  const std::string& name() const override { return name_; }
  std::span<const uint8_t> view(uint64_t offset, size_t n) const override {
    if (offset > bytes_.size() || n > bytes_.size() - offset)
      throw Error(ErrorKind::kCorrupt, {.file = name_, .offset = static_cast<int64_t>(offset)},
                  "a range of " + std::to_string(n) + " bytes is past the end of the input (" +
                      std::to_string(bytes_.size()) + " bytes)");
    count_view(n);
    return bytes_.subspan(offset, n);
  }

 protected:
  void do_read_at(uint64_t offset, size_t n, uint8_t* out) override {
    if (n != 0) std::copy_n(bytes_.data() + offset, n, out);
  }
  void reset(std::span<const uint8_t> bytes) { bytes_ = bytes; }

 private:
  std::span<const uint8_t> bytes_;
  std::string name_;
};

class OwnedInput : public SpanInput {
 public:
  OwnedInput(std::vector<uint8_t> bytes, std::string name) : SpanInput({}, std::move(name)), owned_(std::move(bytes)) {
    reset(owned_);
  }

 private:
  std::vector<uint8_t> owned_;
};

}  // namespace

std::unique_ptr<RandomAccessInput> memory_input(std::span<const uint8_t> bytes, std::string name) {
  return std::make_unique<SpanInput>(bytes, std::move(name));
}

std::unique_ptr<RandomAccessInput> buffer_input(std::vector<uint8_t> bytes, std::string name) {
  return std::make_unique<OwnedInput>(std::move(bytes), std::move(name));
}

}  // namespace parq::io
