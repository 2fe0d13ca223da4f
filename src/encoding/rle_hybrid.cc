// The RLE/bit-packing hybrid; see encoding/rle_hybrid.h.
#include "parq/encoding/rle_hybrid.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "parq/encoding/bit_packing.h"
#include "parq/error.h"

namespace parq::encoding {
namespace {

constexpr size_t kGroup = 8;
// A bit-packed run's header is reserved as one byte before its values are
// known, so it can count at most 63 groups.
constexpr size_t kMaxLiteralGroups = 63;

uint32_t load_value_bytes(const uint8_t* p, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint32_t{p[i]} << (8 * i);
  return v;
}

template <class T>
constexpr uint32_t max_of() {
  if constexpr (std::is_same_v<T, uint8_t>) {
    return 1;  // booleans
  } else {
    return static_cast<uint32_t>(std::numeric_limits<T>::max());
  }
}

}  // namespace

// ---- decoder ---------------------------------------------------------------

void RleBitPackedDecoder::reset(const uint8_t* data, size_t size, int bit_width) {
  if (bit_width < 0 || bit_width > 32)
    throw Error("RLE/bit-packed hybrid: bit width " + std::to_string(bit_width) + " is outside 0..32");
  begin_ = pos_ = data;
  end_ = data + size;
  bit_width_ = bit_width;
  rle_ = true;
  value_ = 0;
  remaining_ = 0;
  packed_ = nullptr;
  packed_index_ = 0;
}

void RleBitPackedDecoder::fail(const char* what) const {
  throw Error(std::string("RLE/bit-packed hybrid: ") + what + " at byte " + std::to_string(position()) + " of " +
              std::to_string(end_ - begin_));
}

bool RleBitPackedDecoder::next_run() {
  if (pos_ >= end_) return false;
  uint64_t header = 0;
  for (int shift = 0;; shift += 7) {
    if (pos_ >= end_) fail("truncated run header");
    if (shift > 56) fail("run header varint too long");
    uint8_t b = *pos_++;
    header |= uint64_t{b & 0x7fu} << shift;
    if (b < 0x80) break;
  }
  if (header & 1) {
    uint64_t groups = header >> 1;
    size_t available = static_cast<size_t>(end_ - pos_);
    uint64_t bytes = groups * static_cast<uint64_t>(bit_width_);
    uint64_t count = groups * kGroup;
    // A final run may be cut short by writers that drop trailing padding:
    // take the values whose bits are all present, as the main readers do.
    if (groups > available || bytes > available) {
      count = bit_width_ == 0 ? count : available * 8 / static_cast<size_t>(bit_width_);
      bytes = available;
    }
    rle_ = false;
    packed_ = pos_;
    packed_index_ = 0;
    remaining_ = static_cast<size_t>(count);
    pos_ += bytes;
  } else {
    uint64_t count = header >> 1;
    if (count == 0) fail("RLE run of length 0");
    int value_bytes = (bit_width_ + 7) / 8;
    if (end_ - pos_ < value_bytes) fail("truncated RLE run value");
    value_ = load_value_bytes(pos_, value_bytes);
    if (bit_width_ < 32 && (value_ >> bit_width_) != 0) fail("RLE run value wider than the bit width");
    pos_ += value_bytes;
    rle_ = true;
    remaining_ = static_cast<size_t>(std::min<uint64_t>(count, SIZE_MAX / 2));
  }
  return remaining_ > 0 || next_run();
}

template <class T>
size_t RleBitPackedDecoder::decode_into(T* out, size_t n) {
  constexpr uint32_t kMax = max_of<T>();
  size_t done = 0;
  uint32_t tmp[256];
  while (done < n) {
    if (remaining_ == 0 && !next_run()) break;
    size_t take = std::min(n - done, remaining_);
    if (rle_) {
      if (value_ > kMax) fail("value too large for its output type");
      std::fill_n(out + done, take, static_cast<T>(value_));
      done += take;
      remaining_ -= take;
      continue;
    }
    // Bit-packed: unpack through a small buffer so that a start in the middle
    // of a group of 8 and narrower outputs are handled alike.
    take = std::min(take, sizeof(tmp) / sizeof(tmp[0]) - kGroup);
    size_t first = packed_index_;
    size_t group_start = first / kGroup * kGroup;
    size_t span = first - group_start + take;
    size_t bits_start = group_start * static_cast<size_t>(bit_width_) / 8;
    unpack_bits(packed_ + bits_start, span, bit_width_, tmp);
    const uint32_t* src = tmp + (first - group_start);
    if constexpr (std::is_same_v<T, uint32_t>) {
      std::memcpy(out + done, src, take * sizeof(uint32_t));
    } else {
      uint32_t max_seen = 0;
      for (size_t i = 0; i < take; ++i) {
        max_seen |= src[i];
        out[done + i] = static_cast<T>(src[i]);
      }
      if (max_seen > kMax) fail("value too large for its output type");
    }
    packed_index_ += take;
    remaining_ -= take;
    done += take;
  }
  return done;
}

size_t RleBitPackedDecoder::decode(uint32_t* out, size_t n) { return decode_into(out, n); }
size_t RleBitPackedDecoder::decode(int16_t* out, size_t n) { return decode_into(out, n); }
size_t RleBitPackedDecoder::decode(uint8_t* out, size_t n) { return decode_into(out, n); }

size_t RleBitPackedDecoder::skip(size_t n) {
  size_t done = 0;
  while (done < n) {
    if (remaining_ == 0 && !next_run()) break;
    size_t take = std::min(n - done, remaining_);
    if (!rle_) packed_index_ += take;
    remaining_ -= take;
    done += take;
  }
  return done;
}

std::span<const uint8_t> read_length_prefix(std::span<const uint8_t> data) {
  if (data.size() < 4) throw Error("RLE levels: the 4-byte length prefix is truncated");
  uint32_t len = load_value_bytes(data.data(), 4);
  if (len > data.size() - 4)
    throw Error("RLE levels: length prefix " + std::to_string(len) + " exceeds the " + std::to_string(data.size() - 4) +
                " bytes that follow");
  return data.subspan(4, len);
}

// ---- encoder ---------------------------------------------------------------

void RleBitPackedEncoder::reset(int bit_width) {
  if (bit_width < 0 || bit_width > 32)
    throw Error("RLE/bit-packed hybrid: bit width " + std::to_string(bit_width) + " is outside 0..32");
  bit_width_ = bit_width;
  out_.clear();
  num_pending_ = 0;
  repeat_value_ = 0;
  repeat_count_ = 0;
  literal_header_at_ = SIZE_MAX;
  literal_groups_ = 0;
}

namespace {

void put_varint(Buffer& out, uint64_t v) {
  while (v >= 0x80) {
    out.append_value(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.append_value(static_cast<uint8_t>(v));
}

}  // namespace

void RleBitPackedEncoder::end_rle_run() {
  put_varint(out_, uint64_t{repeat_count_} << 1);
  int bytes = (bit_width_ + 7) / 8;
  for (int i = 0; i < bytes; ++i) out_.append_value(static_cast<uint8_t>(repeat_value_ >> (8 * i)));
  repeat_count_ = 0;
  num_pending_ = 0;
}

// Moves the pending group of 8 into the open bit-packed run (opening one if
// needed); `final` closes the run by writing its header byte.
void RleBitPackedEncoder::flush_literals(bool final) {
  if (num_pending_ > 0) {
    if (literal_header_at_ == SIZE_MAX) {
      literal_header_at_ = out_.size();
      out_.append_value(uint8_t{0});
    }
    std::fill(pending_ + num_pending_, pending_ + kGroup, 0u);
    uint8_t* dst = out_.extend(static_cast<size_t>(bit_width_));
    pack_bits(pending_, kGroup, bit_width_, dst);
    ++literal_groups_;
    num_pending_ = 0;
  }
  if ((final || literal_groups_ == kMaxLiteralGroups) && literal_header_at_ != SIZE_MAX) {
    out_.data()[literal_header_at_] = static_cast<uint8_t>((literal_groups_ << 1) | 1);
    literal_header_at_ = SIZE_MAX;
    literal_groups_ = 0;
  }
}

void RleBitPackedEncoder::put_one(uint32_t v) {
  if (repeat_count_ > 0 && v == repeat_value_) {
    ++repeat_count_;
    if (repeat_count_ > kGroup) return;  // inside a long repeat: counted, not buffered
  } else {
    if (repeat_count_ >= kGroup) end_rle_run();
    repeat_value_ = v;
    repeat_count_ = 1;
  }
  pending_[num_pending_++] = v;
  if (num_pending_ < kGroup) return;
  if (repeat_count_ >= kGroup) {
    // The whole group is one value: it becomes an RLE run. Close any open
    // bit-packed run before it.
    num_pending_ = 0;
    flush_literals(true);
    return;
  }
  flush_literals(false);
  repeat_count_ = 0;  // the group went out as literals; a repeat must start afresh
}

template <class T>
void RleBitPackedEncoder::put_values(const T* values, size_t n) {
  for (size_t i = 0; i < n; ++i) put_one(static_cast<uint32_t>(values[i]));
}

void RleBitPackedEncoder::put(const uint32_t* values, size_t n) { put_values(values, n); }
void RleBitPackedEncoder::put(const int16_t* values, size_t n) { put_values(values, n); }
void RleBitPackedEncoder::put(const uint8_t* values, size_t n) { put_values(values, n); }

void RleBitPackedEncoder::flush(Buffer& out) {
  if (repeat_count_ >= kGroup) {
    end_rle_run();
  } else if (repeat_count_ > 0 && repeat_count_ == num_pending_ && literal_header_at_ == SIZE_MAX) {
    // Only a short repeat is pending: an RLE run is smaller than a padded group.
    end_rle_run();
  } else {
    flush_literals(true);
  }
  flush_literals(true);
  out.append(out_.data(), out_.size());
  reset(bit_width_);
}

size_t RleBitPackedEncoder::max_encoded_size() const {
  // Worst case: everything as bit-packed groups, one header per 63 groups,
  // plus a pending RLE run.
  size_t values = repeat_count_ + num_pending_ + kGroup;
  size_t groups = (values + kGroup - 1) / kGroup;
  return out_.size() + groups * static_cast<size_t>(bit_width_) + groups / kMaxLiteralGroups + 2 + 10 + 4;
}

}  // namespace parq::encoding
