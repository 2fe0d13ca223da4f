// DELTA_BYTE_ARRAY decoder and encoder; see encoding/delta_byte_array.h.
#include "parq/encoding/delta_byte_array.h"

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "parq/error.h"
#include "parq/util/cpu.h"
#include "util/byte_copy.h"

namespace parq::encoding {
namespace {

// Front compression copies many short pieces: the prefix from the previous
// value, the suffix from the input.
using bytes::copy16_steps;
using bytes::copy_bounded;

size_t common_prefix(const uint8_t* a, size_t a_len, const uint8_t* b, size_t b_len) {
  const size_t n = std::min(a_len, b_len);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return i + static_cast<size_t>(std::countr_zero(x ^ y)) / 8;
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

// Rebuilds values [0, count) of a chunk into dst (room for all of them, with
// Buffer padding after): value i is the first prefix[i] bytes of the value
// before it, then suffix[i] bytes from src. `prev`/`prev_len` is the value
// before the first on entry and the last one rebuilt on return; offsets[i]
// gets the end of value i relative to origin. Returns count, or the index of
// the first value whose prefix length is negative or longer than the value
// before it (nothing of it written).
struct Rebuild {
  const int32_t* prefix;
  const int32_t* suffix;
  size_t count;
  const uint8_t* src;
  const uint8_t* src_end;  // of the input: bounds over-reading copies
  uint8_t* dst;
  const uint8_t* origin;
  int32_t* offsets;
  const uint8_t* prev;
  size_t prev_len;
};

// Portable: the prefix is copied from the previous value in memory.
size_t rebuild_scalar(Rebuild& r) {
  const uint8_t* src = r.src;
  const uint8_t* prev = r.prev;
  size_t prev_len = r.prev_len;
  uint8_t* dst = r.dst;
  size_t i = 0;
  for (; i < r.count; ++i) {
    const int32_t p = r.prefix[i];
    const size_t s = static_cast<size_t>(r.suffix[i]);
    if (p < 0 || static_cast<size_t>(p) > prev_len) break;
    copy16_steps(dst, prev, static_cast<size_t>(p));
    copy_bounded(dst + p, src, s, r.src_end);
    src += s;
    prev = dst;
    prev_len = static_cast<size_t>(p) + s;
    dst += prev_len;
    r.offsets[i] = static_cast<int32_t>(dst - r.origin);
  }
  r.src = src;
  r.prev = prev;
  r.prev_len = prev_len;
  return i;
}

#define PARQ_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,bmi2")))

// AVX-512: the first 64 bytes of the previous value stay in a register, and
// a value of up to 64 bytes is one masked load that merges its suffix into
// them (bytes [p, p + s) from src - p) and one 64-byte store. Reading the
// prefix back from the value just stored would stall on store forwarding
// (a load spanning several recent stores), once per value. The masked load
// touches only the suffix bytes, so it never reads outside the input.
PARQ_AVX512 size_t rebuild_avx512(Rebuild& r) {
  const uint8_t* src = r.src;
  const uint8_t* prev = r.prev;
  size_t prev_len = r.prev_len;
  uint8_t* dst = r.dst;
  __m512i cur =
      _mm512_maskz_loadu_epi8(_bzhi_u64(~uint64_t{0}, static_cast<unsigned>(std::min<size_t>(prev_len, 64))), r.prev);
  size_t i = 0;
  for (; i < r.count; ++i) {
    const int32_t p = r.prefix[i];
    const size_t s = static_cast<size_t>(r.suffix[i]);
    if (p < 0 || static_cast<size_t>(p) > prev_len) break;
    const size_t len = static_cast<size_t>(p) + s;
    if (__builtin_expect(len <= 64, 1)) {
      // Bits [p, len): bzhi saturates at 64.
      const __mmask64 m =
          _bzhi_u64(~uint64_t{0}, static_cast<unsigned>(len)) & ~_bzhi_u64(~uint64_t{0}, static_cast<unsigned>(p));
      cur = _mm512_mask_loadu_epi8(cur, m, src - p);
      _mm512_storeu_si512(dst, cur);
    } else {
      // Long value: the prefix from memory (the previous value, all written
      // by now), the suffix in chunks; then the register catches up with
      // the new value's first 64 bytes.
      copy16_steps(dst, prev, static_cast<size_t>(p));
      copy_bounded(dst + p, src, s, r.src_end);
      if (p < 64) cur = _mm512_mask_loadu_epi8(cur, ~_bzhi_u64(~uint64_t{0}, static_cast<unsigned>(p)), src - p);
    }
    src += s;
    prev = dst;
    prev_len = len;
    dst += len;
    r.offsets[i] = static_cast<int32_t>(dst - r.origin);
  }
  r.src = src;
  r.prev = prev;
  r.prev_len = prev_len;
  return i;
}

}  // namespace

// ---- decoder ---------------------------------------------------------------

void DeltaByteArrayDecoder::reset(const uint8_t* data, size_t size) {
  prefixes_.reset(data, size);
  const size_t used = prefixes_.encoded_size();
  suffixes_.reset(data + used, size - used);
  if (prefixes_.total_count() != suffixes_.total_count())
    throw Error("DELTA_BYTE_ARRAY: " + std::to_string(prefixes_.total_count()) + " prefix lengths but " +
                std::to_string(suffixes_.total_count()) + " suffixes, at byte " + std::to_string(used) + " of " +
                std::to_string(size));
  chunk_pos_ = chunk_len_ = 0;
  end_ = data + size;
  previous_.clear();
}

void DeltaByteArrayDecoder::bad_prefix(size_t i, int32_t prefix, size_t previous) const {
  throw Error("DELTA_BYTE_ARRAY: value " + std::to_string(total_count() - remaining() + i) + " has prefix length " +
              std::to_string(prefix) + " but the previous value is " + std::to_string(previous) +
              " bytes long (in the prefix-length stream)");
}

void DeltaByteArrayDecoder::bad_width(size_t i, size_t length, size_t width) const {
  throw Error("DELTA_BYTE_ARRAY: FIXED_LEN_BYTE_ARRAY value " + std::to_string(total_count() - remaining() + i) +
              " is " + std::to_string(length) + " bytes long, not " + std::to_string(width) +
              " (in the suffix-length stream)");
}

// The prefix lengths come a chunk at a time from their stream, the suffixes
// a run at a time from theirs: a piece is as many values as both have ready.
DeltaByteArrayDecoder::Pieces DeltaByteArrayDecoder::next_pieces(size_t n) {
  if (chunk_pos_ == chunk_len_) {
    chunk_len_ = prefixes_.decode(chunk_, kChunk);
    chunk_pos_ = 0;
  }
  auto run = suffixes_.peek(std::min(n, chunk_len_ - chunk_pos_));
  return {chunk_ + chunk_pos_, run.lengths, run.bytes, run.count};
}

void DeltaByteArrayDecoder::consume(size_t count, size_t suffix_bytes, const uint8_t* last, size_t last_len) {
  previous_.assign(last, last_len);
  suffixes_.consume(count, suffix_bytes);
  chunk_pos_ += count;
}

// The space to reserve for a piece's values. Their claimed lengths are
// numbers from the file: a small sum is reserved as it is (one pass that
// vectorizes), a large one only up to the first prefix longer than the
// value before it (or negative), which the rebuild stops at and fails, so
// that no reservation is sized by a prefix no value backs.
int64_t DeltaByteArrayDecoder::reserved_bytes(const int32_t* prefix, const int32_t* suffix, size_t count) const {
  constexpr int64_t kUncheckedReserve = int64_t{1} << 20;
  int64_t total = 0;
  for (size_t i = 0; i < count; ++i) total += int64_t{std::max(prefix[i], 0)} + suffix[i];
  if (total <= kUncheckedReserve) return total;
  total = 0;
  int64_t previous = static_cast<int64_t>(previous_.size());
  for (size_t i = 0; i < count && prefix[i] >= 0 && prefix[i] <= previous; ++i) {
    previous = int64_t{prefix[i]} + suffix[i];
    total += previous;
  }
  return total;
}

size_t DeltaByteArrayDecoder::decode(ByteArrayBatch& out, size_t n) {
  size_t done = 0;
  while (done < n) {
    const Pieces piece = next_pieces(n - done);
    size_t count = piece.count;
    if (count == 0) break;
    const int32_t* prefix = piece.prefix;
    const int32_t* suffix = piece.suffix;
    int64_t total = reserved_bytes(prefix, suffix, count);
    if (total < 0 || !out.fits(static_cast<size_t>(total))) {
      int64_t fit = 0;
      size_t k = 0;
      for (; k < count; ++k) {
        int64_t next = fit + std::max(prefix[k], 0) + suffix[k];
        if (!out.fits(static_cast<size_t>(next))) break;
        fit = next;
      }
      if (k == 0) break;
      count = k;
      total = fit;
    }
    Buffer& data = out.data_buffer();
    Buffer& offsets_buffer = out.offsets_buffer();
    const size_t data_before = data.size();
    const size_t offsets_before = offsets_buffer.size();
    // The vector rebuild stores 64 bytes even for empty values: into the
    // padding, which an unallocated buffer does not have yet.
    data.reserve(std::max<size_t>(data.size() + static_cast<size_t>(total), 1));
    uint8_t* base = data.extend(static_cast<size_t>(total));
    uint8_t* const origin = data.data();
    int32_t* offsets = reinterpret_cast<int32_t*>(offsets_buffer.extend(count * sizeof(int32_t)));
    Rebuild r{prefix, suffix, count, piece.bytes, end_, base, origin, offsets, previous_.data(), previous_.size()};
    const size_t rebuilt = simd_level() >= SimdLevel::kAvx512 ? rebuild_avx512(r) : rebuild_scalar(r);
    if (rebuilt < count) {
      const int32_t bad = prefix[rebuilt];
      const size_t prev_len = r.prev_len;
      data.resize(data_before);
      offsets_buffer.resize(offsets_before);
      bad_prefix(done + rebuilt, bad, prev_len);
    }
    consume(count, static_cast<size_t>(r.src - piece.bytes), r.prev, r.prev_len);
    done += count;
    if (count < piece.count) break;
  }
  return done;
}

size_t DeltaByteArrayDecoder::decode(uint8_t* out, size_t n, size_t width) {
  size_t done = 0;
  while (done < n) {
    const Pieces piece = next_pieces(n - done);
    const size_t count = piece.count;
    if (count == 0) break;
    const int32_t* prefix = piece.prefix;
    const int32_t* suffix = piece.suffix;
    const uint8_t* src = piece.bytes;
    const uint8_t* prev = previous_.data();
    size_t prev_len = previous_.size();
    uint8_t* dst = out + done * width;
    size_t suffix_bytes = 0;
    for (size_t i = 0; i < count; ++i) {
      const int32_t p = prefix[i];
      const size_t s = static_cast<size_t>(suffix[i]);
      if (p < 0 || static_cast<size_t>(p) > prev_len) bad_prefix(done + i, p, prev_len);
      if (static_cast<size_t>(p) + s != width) bad_width(done + i, static_cast<size_t>(p) + s, width);
      // memcpy with a null source is undefined even for 0 bytes.
      if (p != 0) std::memcpy(dst, prev, static_cast<size_t>(p));
      if (s != 0) std::memcpy(dst + p, src, s);
      src += s;
      suffix_bytes += s;
      prev = dst;
      prev_len = width;
      dst += width;
    }
    consume(count, suffix_bytes, prev, prev_len);
    done += count;
  }
  return done;
}

size_t DeltaByteArrayDecoder::skip(size_t n) {
  // Later values may take their prefix from skipped ones, so skipped values
  // are still rebuilt.
  size_t done = 0;
  while (done < n) {
    skipped_.clear();
    size_t got = decode(skipped_, std::min(n - done, kChunk));
    if (got == 0) break;
    done += got;
  }
  return done;
}

// ---- encoder ---------------------------------------------------------------

namespace {

// common_prefix 16 bytes a compare while both values have 16 readable bytes
// (a_end and b_end bound their memory): sorted keys share prefixes of a
// dozen bytes or more, where the word loop's exit is a mispredicted branch.
inline size_t common_prefix_bounded(const uint8_t* a, size_t a_len, const uint8_t* a_end, const uint8_t* b,
                                    size_t b_len, const uint8_t* b_end) {
  const size_t n = std::min(a_len, b_len);
  size_t i = 0;
  while (i < n && a_end - (a + i) >= 16 && b_end - (b + i) >= 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i));
    const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i));
    const uint32_t equal = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)));
    if (equal != 0xffff) return std::min(n, i + static_cast<size_t>(std::countr_zero(~equal)));
    i += 16;
  }
  if (i >= n) return n;
  return i + common_prefix(a + i, a_len - i, b + i, b_len - i);
}

}  // namespace

template <class Next>
void DeltaByteArrayEncoder::put_values(size_t n, const uint8_t* input_end, Next next) {
  constexpr size_t kChunk = 256;
  int32_t prefix[kChunk];
  int32_t suffix[kChunk];
  const uint8_t* prev = previous_.data();
  size_t prev_len = previous_.size();
  const uint8_t* prev_end = prev + prev_len;
  for (size_t i = 0; i < n; i += kChunk) {
    const size_t k = std::min(kChunk, n - i);
    for (size_t j = 0; j < k; ++j) {
      auto [value, length] = next(i + j);
      const size_t p = common_prefix_bounded(prev, prev_len, prev_end, value, length, input_end);
      prefix[j] = static_cast<int32_t>(p);
      suffix[j] = static_cast<int32_t>(length - p);
      // The Buffer's padding takes copy_bounded's overshoot.
      bytes::copy_bounded(suffixes_.extend(length - p), value + p, length - p, input_end);
      prev = value;
      prev_len = length;
      prev_end = input_end;
    }
    prefixes_.put(prefix, k);
    suffix_lengths_.put(suffix, k);
  }
  // The caller's memory may change before the next put.
  if (n > 0) {
    Buffer copy;
    copy.assign(prev, prev_len);
    previous_ = std::move(copy);
  }
}

void DeltaByteArrayEncoder::put(const int32_t* offsets, const uint8_t* data, size_t n) {
  put_values(n, data + (n > 0 ? offsets[n] : 0), [&](size_t i) {
    return std::pair{data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])};
  });
}

void DeltaByteArrayEncoder::put(const uint8_t* values, size_t n, size_t width) {
  put_values(n, values + n * width, [&](size_t i) { return std::pair{values + i * width, width}; });
}

void DeltaByteArrayEncoder::flush(Buffer& out) {
  prefixes_.flush(out);
  suffix_lengths_.flush(out);
  out.append(suffixes_.data(), suffixes_.size());
  suffixes_.clear();
  previous_.clear();
}

}  // namespace parq::encoding
