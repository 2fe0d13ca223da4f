// Group varint encoder and decoder; format in encoding/group_var_int.h.
//
// Decoding reads each value with one unaligned 4- or 8-byte load and a mask,
// so a group costs no branches; that needs the widest group's bytes to be
// readable, which the loop checks once per group. Groups near the end of the
// data are copied into a zeroed scratch group first, after an exact length
// check.
#include "parq/encoding/group_var_int.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string>

#include "parq/error.h"
#include "parq/util/cpu.h"

namespace parq::encoding {
namespace {

template <class T>
struct Layout;

template <>
struct Layout<uint32_t> {
  static constexpr size_t kGroup = 4, kLead = 1, kMaxGroupBytes = 1 + 4 * 4;
  static uint32_t lead(const uint8_t* p) { return p[0]; }
  static constexpr size_t length(uint32_t lead, size_t k) { return ((lead >> (6 - 2 * k)) & 3) + 1; }
  static void put_lead(uint8_t* p, uint32_t lead) { p[0] = static_cast<uint8_t>(lead); }
  static uint32_t field(size_t len, size_t k) { return static_cast<uint32_t>(len - 1) << (6 - 2 * k); }
  static bool valid(uint32_t) { return true; }
};

template <>
struct Layout<uint64_t> {
  static constexpr size_t kGroup = 5, kLead = 2, kMaxGroupBytes = 2 + 5 * 8;
  static uint32_t lead(const uint8_t* p) { return uint32_t{p[0]} << 8 | p[1]; }
  static constexpr size_t length(uint32_t lead, size_t k) { return ((lead >> (12 - 3 * k)) & 7) + 1; }
  static void put_lead(uint8_t* p, uint32_t lead) {
    p[0] = static_cast<uint8_t>(lead >> 8);
    p[1] = static_cast<uint8_t>(lead);
  }
  static uint32_t field(size_t len, size_t k) { return static_cast<uint32_t>(len - 1) << (12 - 3 * k); }
  static bool valid(uint32_t lead) { return (lead & 0x8000) == 0; }
};

template <class T>
size_t byte_length(T v) {
  return (sizeof(T) * 8 - static_cast<size_t>(std::countl_zero(static_cast<T>(v | 1))) + 7) / 8;
}

template <class T>
size_t group_bytes(uint32_t lead) {
  size_t total = Layout<T>::kLead;
  for (size_t k = 0; k < Layout<T>::kGroup; ++k) total += Layout<T>::length(lead, k);
  return total;
}

// Writes one group; stores whole values, so up to sizeof(T) - 1 bytes past
// the group's end are scribbled on (later groups or slack overwrite them).
template <class T>
uint8_t* encode_group(const T* v, uint8_t* p) {
  using L = Layout<T>;
  uint8_t* q = p + L::kLead;
  uint32_t lead = 0;
  for (size_t k = 0; k < L::kGroup; ++k) {
    size_t len = byte_length(v[k]);
    std::memcpy(q, &v[k], sizeof(T));
    q += len;
    lead |= L::field(len, k);
  }
  L::put_lead(p, lead);
  return q;
}

// Reads one group; needs kMaxGroupBytes readable bytes at p.
template <class T>
const uint8_t* decode_group(const uint8_t* p, uint32_t lead, T* out) {
  using L = Layout<T>;
  const uint8_t* q = p + L::kLead;
  for (size_t k = 0; k < L::kGroup; ++k) {
    size_t len = L::length(lead, k);
    T v;
    std::memcpy(&v, q, sizeof(T));
    out[k] = v & (~T{0} >> (8 * (sizeof(T) - len)));
    q += len;
  }
  return q;
}

template <class T>
[[noreturn]] void fail(const uint8_t* begin, const uint8_t* at, const uint8_t* end, const char* what) {
  throw Error(std::string("group varint (") + (sizeof(T) == 4 ? "uint32" : "uint64") + "): " + what + " at byte " +
              std::to_string(at - begin) + " of " + std::to_string(end - begin));
}

// uint32 groups by byte shuffle (the classic "varint-GB" decoder): per lead
// byte, a PSHUFB mask that moves each value's bytes into its 32-bit lane with
// zeros above. One 16-byte load, shuffle and store a
// group; the load needs 1 + 16 readable bytes, as the scalar loop's does.
struct ShuffleTable {
  alignas(16) uint8_t mask[256][16];
};

constexpr ShuffleTable make_shuffle_table() {
  ShuffleTable t{};
  for (uint32_t lead = 0; lead < 256; ++lead) {
    uint8_t at = 0;
    for (size_t k = 0; k < 4; ++k) {
      const size_t len = Layout<uint32_t>::length(lead, k);
      for (size_t b = 0; b < 4; ++b) t.mask[lead][4 * k + b] = b < len ? static_cast<uint8_t>(at + b) : 0x80;
      at = static_cast<uint8_t>(at + len);
    }
  }
  return t;
}

constexpr ShuffleTable kShuffle = make_shuffle_table();

// A group's length from its lead in a few ALU steps, shorter on the
// lead -> next lead dependency chain than a table load.
inline size_t shuffle_group_bytes(uint32_t lead) {
  const uint32_t pairs = (lead & 0x33) + ((lead >> 2) & 0x33);
  return 5 + (pairs & 0xf) + (pairs >> 4);
}

__attribute__((target("avx2,bmi2"))) const uint8_t* decode_groups_shuffle(const uint8_t* p, const uint8_t* end,
                                                                          size_t& g, size_t groups, uint32_t* out) {
  constexpr size_t kNeed = Layout<uint32_t>::kMaxGroupBytes;
  for (; g < groups && static_cast<size_t>(end - p) >= kNeed; ++g) {
    const uint32_t lead = p[0];
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + g * 4),
                     _mm_shuffle_epi8(a, _mm_load_si128(reinterpret_cast<const __m128i*>(kShuffle.mask[lead]))));
    p += shuffle_group_bytes(lead);
  }
  return p;
}

// Decodes `groups` whole groups from p; returns the new position.
template <class T>
const uint8_t* decode_groups(const uint8_t* begin, const uint8_t* p, const uint8_t* end, size_t groups, T* out) {
  using L = Layout<T>;
  size_t g = 0;
  uint32_t bad_lead = 0;
  if constexpr (sizeof(T) == 4) {
    if (simd_level() >= SimdLevel::kAvx2) p = decode_groups_shuffle(p, end, g, groups, out);
  }
  for (; g < groups && static_cast<size_t>(end - p) >= L::kMaxGroupBytes; ++g) {
    uint32_t lead = L::lead(p);
    bad_lead |= lead;
    p = decode_group(p, lead, out + g * L::kGroup);
  }
  if (!L::valid(bad_lead)) fail<T>(begin, p, end, "a lead has its unused top bit set, before the group");
  for (; g < groups; ++g) {
    size_t left = static_cast<size_t>(end - p);
    if (left < L::kLead) fail<T>(begin, p, end, "data ends inside a group's lead");
    uint32_t lead = L::lead(p);
    if (!L::valid(lead)) fail<T>(begin, p, end, "lead has its unused top bit set");
    size_t bytes = group_bytes<T>(lead);
    if (bytes > left) fail<T>(begin, p, end, "data ends inside a group");
    uint8_t scratch[L::kMaxGroupBytes] = {};
    std::memcpy(scratch, p, bytes);
    decode_group(scratch, lead, out + g * L::kGroup);
    p += bytes;
  }
  return p;
}

template <class T>
void encode_all(const T* values, size_t n, Buffer& out) {
  using L = Layout<T>;
  size_t start = out.size();
  // Whole-value stores run up to sizeof(T) - 1 bytes past the last group:
  // inside the reserved maximum or the Buffer's padding.
  out.reserve(start + group_var_int_max_size(n, sizeof(T)));
  uint8_t* p = out.data() + start;
  size_t full = n / L::kGroup;
  for (size_t g = 0; g < full; ++g) p = encode_group(values + g * L::kGroup, p);
  if (size_t rest = n % L::kGroup; rest != 0) {
    T last[L::kGroup] = {};
    std::copy(values + full * L::kGroup, values + n, last);
    p = encode_group(last, p);
  }
  out.resize(static_cast<size_t>(p - out.data()));
}

template <class T>
size_t decode_all(const uint8_t* data, size_t size, size_t n, T* out) {
  using L = Layout<T>;
  const uint8_t* end = data + size;
  size_t full = n / L::kGroup;
  const uint8_t* p = decode_groups(data, data, end, full, out);
  if (size_t rest = n % L::kGroup; rest != 0) {
    T last[L::kGroup];
    p = decode_groups(data, p, end, 1, last);
    std::copy(last, last + rest, out + full * L::kGroup);
  }
  return static_cast<size_t>(p - data);
}

}  // namespace

void group_var_int_encode(const uint32_t* values, size_t n, Buffer& out) { encode_all(values, n, out); }
void group_var_int_encode(const uint64_t* values, size_t n, Buffer& out) { encode_all(values, n, out); }
size_t group_var_int_decode(const uint8_t* data, size_t size, size_t n, uint32_t* out) {
  return decode_all(data, size, n, out);
}
size_t group_var_int_decode(const uint8_t* data, size_t size, size_t n, uint64_t* out) {
  return decode_all(data, size, n, out);
}

// ---- batch decoder ---------------------------------------------------------------

template <class T>
void GroupVarIntDecoder<T>::reset(const uint8_t* data, size_t size, size_t num_values) {
  using L = Layout<T>;
  // Every group takes at least its lead and one byte per value.
  size_t groups = (num_values + kGroup - 1) / kGroup;
  if (groups > size / (L::kLead + kGroup))
    throw Error(std::string("group varint: ") + std::to_string(num_values) + " values need at least " +
                std::to_string(groups) + " groups of " + std::to_string(L::kLead + kGroup) +
                " bytes but the data ends at byte " + std::to_string(size));
  begin_ = pos_ = data;
  end_ = data + size;
  num_values_ = num_values;
  index_ = 0;
  group_used_ = group_size_ = 0;
}

template <class T>
void GroupVarIntDecoder<T>::refill() {
  pos_ = decode_groups(begin_, pos_, end_, 1, group_);
  group_used_ = 0;
  group_size_ = kGroup;
}

template <class T>
size_t GroupVarIntDecoder<T>::decode(T* out, size_t n) {
  n = std::min(n, num_values_ - index_);
  size_t done = std::min(n, group_size_ - group_used_);
  std::copy(group_ + group_used_, group_ + group_used_ + done, out);
  group_used_ += done;
  size_t groups = (n - done) / kGroup;
  pos_ = decode_groups(begin_, pos_, end_, groups, out + done);
  done += groups * kGroup;
  if (done < n) {
    refill();
    group_used_ = n - done;
    std::copy(group_, group_ + group_used_, out + done);
  }
  index_ += n;
  return n;
}

template <class T>
size_t GroupVarIntDecoder<T>::skip(size_t n) {
  n = std::min(n, num_values_ - index_);
  size_t done = std::min(n, group_size_ - group_used_);
  group_used_ += done;
  while (done < n) {
    // Whole groups are stepped over by their lead; the last one is decoded.
    if (n - done >= kGroup) {
      using L = Layout<T>;
      if (static_cast<size_t>(end_ - pos_) < L::kLead) fail<T>(begin_, pos_, end_, "data ends inside a group's lead");
      uint32_t lead = L::lead(pos_);
      size_t bytes = group_bytes<T>(lead);
      if (!L::valid(lead)) fail<T>(begin_, pos_, end_, "lead has its unused top bit set");
      if (bytes > static_cast<size_t>(end_ - pos_)) fail<T>(begin_, pos_, end_, "data ends inside a group");
      pos_ += bytes;
      done += kGroup;
    } else {
      refill();
      group_used_ = n - done;
      done = n;
    }
  }
  index_ += n;
  return n;
}

// ---- batch encoder ---------------------------------------------------------------

template <class T>
void GroupVarIntEncoder<T>::put(const T* values, size_t n) {
  size_t take = std::min(n, (kGroup - num_pending_) % kGroup);
  std::copy(values, values + take, pending_ + num_pending_);
  num_pending_ += take;
  if (num_pending_ == kGroup) {
    encode_all(pending_, kGroup, out_);
    num_pending_ = 0;
  }
  size_t whole = (n - take) / kGroup * kGroup;
  encode_all(values + take, whole, out_);
  std::copy(values + take + whole, values + n, pending_ + num_pending_);
  num_pending_ += n - take - whole;
}

template <class T>
void GroupVarIntEncoder<T>::flush(Buffer& out) {
  if (num_pending_ != 0) encode_all(pending_, num_pending_, out_);
  num_pending_ = 0;
  if (out.empty()) {
    std::swap(out, out_);
  } else {
    out.append(out_.data(), out_.size());
  }
  out_.clear();
}

template class GroupVarIntDecoder<uint32_t>;
template class GroupVarIntDecoder<uint64_t>;
template class GroupVarIntEncoder<uint32_t>;
template class GroupVarIntEncoder<uint64_t>;

}  // namespace parq::encoding
