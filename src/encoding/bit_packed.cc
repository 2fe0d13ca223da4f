// BIT_PACKED (deprecated); see encoding/bit_packed.h. Old files only use it
// for levels, so this is a plain scalar codec: one big-endian 8-byte load per
// value while 8 bytes remain, a zero-padded copy for the last few.
#include "parq/encoding/bit_packed.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "parq/encoding/bit_packing.h"
#include "parq/error.h"

namespace parq::encoding {
namespace {

inline uint64_t load_be64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

// Value i's bits start bit (i * w) % 8 below the top of the big-endian word
// loaded from byte (i * w) / 8; w <= 32 leaves room for any start.
inline uint32_t value_at(uint64_t word, size_t bit, int w) {
  return static_cast<uint32_t>((word << (bit % 8)) >> (64 - w));
}

}  // namespace

void BitPackedDecoder::reset(const uint8_t* data, size_t size, int bit_width) {
  if (bit_width < 0 || bit_width > 32)
    throw Error("BIT_PACKED: bit width " + std::to_string(bit_width) + " is outside 0..32");
  data_ = data;
  size_ = size;
  bit_width_ = bit_width;
  next_ = 0;
}

size_t BitPackedDecoder::remaining() const {
  if (bit_width_ == 0) return std::numeric_limits<size_t>::max();
  return size_ * 8 / static_cast<size_t>(bit_width_) - next_;
}

template <class T>
size_t BitPackedDecoder::decode_into(T* out, size_t n) {
  n = std::min(n, remaining());
  if (bit_width_ == 0) {
    std::fill_n(out, n, T{0});
    next_ += n;
    return n;
  }
  const size_t w = static_cast<size_t>(bit_width_);
  // Values whose 8-byte load stays inside the data.
  const size_t fast_end = size_ < 8 ? 0 : std::min(next_ + n, ((size_ - 8) * 8) / w + 1);
  uint32_t seen = 0;
  size_t i = next_;
  for (; i < fast_end; ++i) {
    const size_t bit = i * w;
    const uint32_t v = value_at(load_be64(data_ + bit / 8), bit, bit_width_);
    seen |= v;
    out[i - next_] = static_cast<T>(v);
  }
  for (; i < next_ + n; ++i) {
    const size_t bit = i * w;
    uint8_t tail[8] = {};
    std::memcpy(tail, data_ + bit / 8, std::min<size_t>(8, size_ - bit / 8));
    const uint32_t v = value_at(load_be64(tail), bit, bit_width_);
    seen |= v;
    out[i - next_] = static_cast<T>(v);
  }
  if constexpr (std::is_same_v<T, int16_t>) {
    if (seen > 32767)
      throw Error("BIT_PACKED: level above 32767 among values " + std::to_string(next_) + ".." +
                  std::to_string(next_ + n) + " (byte " + std::to_string(next_ * w / 8) + ")");
  }
  next_ += n;
  return n;
}

size_t BitPackedDecoder::decode(int16_t* out, size_t n) { return decode_into(out, n); }
size_t BitPackedDecoder::decode(uint32_t* out, size_t n) { return decode_into(out, n); }

size_t BitPackedDecoder::skip(size_t n) {
  n = std::min(n, remaining());
  next_ += n;
  return n;
}

namespace {

template <class T>
void encode_values(const T* values, size_t n, int bit_width, Buffer& out) {
  if (bit_width < 0 || bit_width > 32)
    throw Error("BIT_PACKED: bit width " + std::to_string(bit_width) + " is outside 0..32");
  uint8_t* dst = out.extend(packed_size(n, bit_width));
  const unsigned w = static_cast<unsigned>(bit_width);
  const uint64_t limit = uint64_t{1} << w;
  uint64_t acc = 0;  // the low `bits` bits are pending, most significant first
  unsigned bits = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t v = static_cast<uint32_t>(values[i]);
    if (v >= limit || (std::is_signed_v<T> && values[i] < 0))
      throw Error("BIT_PACKED: value " + std::to_string(values[i]) + " at index " + std::to_string(i) +
                  " does not fit bit width " + std::to_string(bit_width));
    acc = (acc << w) | v;
    bits += w;
    while (bits >= 8) {
      bits -= 8;
      *dst++ = static_cast<uint8_t>(acc >> bits);
    }
  }
  if (bits > 0) *dst = static_cast<uint8_t>(acc << (8 - bits));
}

}  // namespace

void encode_bit_packed(const uint32_t* values, size_t n, int bit_width, Buffer& out) {
  encode_values(values, n, bit_width, out);
}
void encode_bit_packed(const int16_t* values, size_t n, int bit_width, Buffer& out) {
  encode_values(values, n, bit_width, out);
}

}  // namespace parq::encoding
