// BYTE_ARRAY dictionary gathers: ByteArrayDictionaryTable, and the appends
// DictionaryDecoder::decode runs on each block of checked indices. Short
// entries are copied as whole slots (a fixed-size load and store, however
// long the entry), so that no copy waits on its length; entries all of one
// length skip the lengths too, and one-byte entries (flags) of a dictionary
// that fits a register are a byte permute with AVX-512.
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "encoding/dictionary_gather.h"
#include "parq/encoding/dictionary_decoder.h"
#include "parq/util/cpu.h"
#include "util/byte_copy.h"

// GCC 12 flags the deliberately undefined operands inside its own AVX-512
// conversion and permute intrinsics.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace parq::encoding {
namespace {

// Slots only for dictionaries whose slots stay in a core's L2 cache: a
// gather from a larger one misses whichever way it reads.
constexpr size_t kMaxSlotBytes = size_t{256} << 10;
constexpr size_t kMaxSlot = 32;

size_t slot_bytes_for(size_t longest) { return longest <= 8 ? 8 : longest <= 16 ? 16 : 32; }

}  // namespace

ByteArrayDictionaryTable::ByteArrayDictionaryTable(ByteArrayBatch entries) : entries_(std::move(entries)) {
  const size_t n = entries_.size();
  const int32_t* o = entries_.offsets();
  int32_t most = 0, least = INT32_MAX;
  for (size_t i = 0; i < n; ++i) {
    most = std::max(most, o[i + 1] - o[i]);
    least = std::min(least, o[i + 1] - o[i]);
  }
  longest_ = static_cast<size_t>(most);
  uniform_ = n > 0 && least == most;
  // Entries of one length are their own slots, `longest` bytes apart.
  if (uniform_ || longest_ == 0 || longest_ > kMaxSlot) return;
  const size_t slot = slot_bytes_for(longest_);
  if (n > kMaxSlotBytes / slot) return;
  slot_bytes_ = slot;
  slots_.resize(n * slot);
  std::memset(slots_.data(), 0, n * slot);
  slot_lengths_.resize(n * sizeof(uint32_t));
  auto* lengths = slot_lengths_.data_as<uint32_t>();
  for (size_t k = 0; k < n; ++k) {
    const auto len = static_cast<size_t>(o[k + 1] - o[k]);
    if (len != 0) std::memcpy(slots_.data() + k * slot, entries_.data() + o[k], len);
    lengths[k] = static_cast<uint32_t>(len);
  }
}

namespace {

// What an append writes to: the output's bytes from `end` on (with room
// for every value at `longest` bytes, and the Buffer's padding past that
// for the slot copies' overshoot) and its next offsets.
struct AppendTarget {
  uint8_t* base;
  size_t end;
  int32_t* offsets;
};

using Copy8 = bytes::WholeCopy<8>;
using Copy16 = bytes::WholeCopy<16>;
using Copy32 = bytes::WholeCopy<32>;

// One load and one store of 32 bytes, where AVX2 has them (the loop that
// uses it is compiled for AVX2).
struct Copy32Avx2 {
  static constexpr size_t kBytes = 32;
  [[gnu::target("avx2")]] static void copy(uint8_t* dst, const uint8_t* src) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src)));
  }
};

// Values from slots of Copy::kBytes; idx null: `take` copies of entry `index`.
template <class Copy>
[[gnu::always_inline]] inline void append_slots(const ByteArrayDictionaryTable& dictionary, const uint32_t* idx,
                                                uint32_t index, size_t take, AppendTarget& t) {
  const uint8_t* slots = dictionary.slots();
  const uint32_t* lengths = dictionary.slot_lengths();
  // Locals: the byte stores may alias `t`, which the loop would reload.
  uint8_t* const base = t.base;
  int32_t* const offsets = t.offsets;
  size_t end = t.end;
  if (idx == nullptr) {
    const uint8_t* slot = slots + size_t{index} * Copy::kBytes;
    const size_t len = lengths[index];
    for (size_t i = 0; i < take; ++i) {
      Copy::copy(base + end, slot);
      end += len;
      offsets[i] = static_cast<int32_t>(end);
    }
  } else {
    for (size_t i = 0; i < take; ++i) {
      const uint32_t k = idx[i];
      Copy::copy(base + end, slots + size_t{k} * Copy::kBytes);
      end += lengths[k];
      offsets[i] = static_cast<int32_t>(end);
    }
  }
  t.end = end;
}

[[gnu::noinline]] void append_slots8(const ByteArrayDictionaryTable& d, const uint32_t* idx, uint32_t index,
                                     size_t take, AppendTarget& t) {
  append_slots<Copy8>(d, idx, index, take, t);
}

[[gnu::noinline]] void append_slots16(const ByteArrayDictionaryTable& d, const uint32_t* idx, uint32_t index,
                                      size_t take, AppendTarget& t) {
  append_slots<Copy16>(d, idx, index, take, t);
}

[[gnu::noinline]] void append_slots32(const ByteArrayDictionaryTable& d, const uint32_t* idx, uint32_t index,
                                      size_t take, AppendTarget& t) {
  append_slots<Copy32>(d, idx, index, take, t);
}

[[gnu::target("avx2"), gnu::noinline]] void append_slots32_avx2(const ByteArrayDictionaryTable& d, const uint32_t* idx,
                                                                uint32_t index, size_t take, AppendTarget& t) {
  append_slots<Copy32Avx2>(d, idx, index, take, t);
}

// Offsets of `take` values of `width` bytes each after `end`.
void step_offsets(int32_t* offsets, size_t take, size_t end, size_t width) {
  auto at = static_cast<int32_t>(end);
  const auto w = static_cast<int32_t>(width);
  for (size_t i = 0; i < take; ++i) offsets[i] = at += w;
}

// Entry bytes[idx[i]] for i < n, from a dictionary of at most 64 one-byte
// entries (checked indices): one permute of the dictionary's register for
// every 16 values.
[[gnu::target("avx512f,avx512bw,avx512vl,avx512vbmi")]] void gather_bytes_avx512(const uint8_t* bytes, size_t size,
                                                                                 const uint32_t* idx, size_t n,
                                                                                 uint8_t* out) {
  const __m512i table = _mm512_maskz_loadu_epi8(size >= 64 ? ~__mmask64{0} : (__mmask64{1} << size) - 1, bytes);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m128i lanes = _mm512_cvtepi32_epi8(_mm512_loadu_si512(idx + i));
    const __m512i picked = _mm512_permutexvar_epi8(_mm512_zextsi128_si512(lanes), table);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm512_castsi512_si128(picked));
  }
  for (; i < n; ++i) out[i] = bytes[idx[i]];
}

constexpr size_t kPermuteBytes = 64;

// Whole copies of Copy::kBytes for values `width` bytes apart: they read
// past the last entry into the entries' padding, and write into the
// output's.
template <class Copy>
void copy_uniform(const uint8_t* bytes, size_t width, const uint32_t* idx, uint32_t index, size_t take, uint8_t* dst) {
  for (size_t i = 0; i < take; ++i, dst += width) Copy::copy(dst, bytes + (idx == nullptr ? index : idx[i]) * width);
}

// Entries all `width` bytes long: they lie `width` apart in the entries'
// data, and the output's offsets step by the width.
void append_uniform(const ByteArrayDictionaryTable& dictionary, const uint32_t* idx, uint32_t index, size_t take,
                    AppendTarget& t) {
  const size_t width = dictionary.longest();
  const uint8_t* bytes = dictionary.entries().data();
  uint8_t* dst = t.base + t.end;
  step_offsets(t.offsets, take, t.end, width);
  t.end += take * width;
  if (width == 1) {
    if (idx == nullptr) {
      std::memset(dst, bytes[index], take);
    } else if (simd_level() >= SimdLevel::kAvx512 && dictionary.size() <= kPermuteBytes) {
      gather_bytes_avx512(bytes, dictionary.size(), idx, take, dst);
    } else {
      for (size_t i = 0; i < take; ++i) dst[i] = bytes[idx[i]];
    }
    return;
  }
  if (width <= 8) {
    copy_uniform<Copy8>(bytes, width, idx, index, take, dst);
  } else if (width <= 16) {
    copy_uniform<Copy16>(bytes, width, idx, index, take, dst);
  } else {
    copy_uniform<Copy32>(bytes, width, idx, index, take, dst);
  }
}

// Any entries: sizes first (how many of the values fit the batch), then
// one extend of each buffer and plain copies.
size_t append_any(const ByteArrayDictionaryTable& dictionary, const uint32_t* idx, uint32_t index, size_t take,
                  ByteArrayBatch& out) {
  const int32_t* offsets = dictionary.entries().offsets();
  const uint8_t* bytes = dictionary.entries().data();
  size_t fit = 0, total = 0;
  for (; fit < take; ++fit) {
    const uint32_t k = idx == nullptr ? index : idx[fit];
    const size_t len = static_cast<size_t>(offsets[k + 1] - offsets[k]);
    if (!out.fits(total + len)) break;
    total += len;
  }
  if (fit == 0) return size_t{0};
  Buffer& out_offsets = out.offsets_buffer();
  Buffer& out_data = out.data_buffer();
  int32_t end = static_cast<int32_t>(out_data.size());
  uint8_t* dst = out_data.extend(total);
  auto* off = reinterpret_cast<int32_t*>(out_offsets.extend(fit * sizeof(int32_t)));
  for (size_t i = 0; i < fit; ++i) {
    const uint32_t k = idx == nullptr ? index : idx[i];
    const int32_t len = offsets[k + 1] - offsets[k];
    if (len != 0) std::memcpy(dst, bytes + offsets[k], static_cast<size_t>(len));  // dst is null while empty
    dst += len;
    end += len;
    off[i] = end;
  }
  return fit;
}

}  // namespace

namespace detail {

size_t append_entries(const ByteArrayDictionaryTable& dictionary, const uint32_t* idx, uint32_t index, size_t take,
                      ByteArrayBatch& out) {
  const size_t longest = dictionary.longest();
  const bool fast = longest != 0 && (dictionary.uniform() ? longest <= kMaxSlot : dictionary.slot_bytes() != 0);
  if (!fast || !out.fits(take * longest)) return append_any(dictionary, idx, index, take, out);
  Buffer& data = out.data_buffer();
  data.reserve_more(take * longest);
  AppendTarget t{data.data(), data.size(),
                 reinterpret_cast<int32_t*>(out.offsets_buffer().extend(take * sizeof(int32_t)))};
  if (dictionary.uniform()) {
    append_uniform(dictionary, idx, index, take, t);
  } else if (dictionary.slot_bytes() == 8) {
    append_slots8(dictionary, idx, index, take, t);
  } else if (dictionary.slot_bytes() == 16) {
    append_slots16(dictionary, idx, index, take, t);
  } else if (simd_level() >= SimdLevel::kAvx2) {
    append_slots32_avx2(dictionary, idx, index, take, t);
  } else {
    append_slots32(dictionary, idx, index, take, t);
  }
  data.resize(t.end);
  return take;
}

}  // namespace detail

}  // namespace parq::encoding
