// PLAIN BYTE_ARRAY: 4-byte little-endian length + bytes per value, decoded
// into a ByteArrayBatch (Arrow offsets + data) and encoded back. The page is
// untrusted: every length is checked against the bytes that remain before
// anything is copied. Short values, the common case, are copied with a fixed
// 32-byte move (64 bytes once longer values show up; see Copy64) when the
// source has that many readable bytes; the Buffer padding past capacity
// absorbs the overshoot on the destination side.
#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "encoding/compact_kernels.h"
#include "encoding/plain_byte_array_select.h"
#include "parq/encoding/plain.h"
#include "parq/error.h"
#include "parq/util/cpu.h"
#include "util/byte_copy.h"

namespace parq::encoding {
namespace {

using bytes::copy32;
using bytes::load_u32;

// load_u32(p + len + 4) as one load with the sum in its addressing mode, so
// that the add is not on the scan's loop-carried chain: left to itself the
// compiler computes p + len + 4 once, for this and the next p, and loads
// through that (add latency + load latency per value).
inline size_t load_next_length(const uint8_t* p, size_t len) {
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
  uint64_t v;  // a 32-bit load zero-extends: no separate widening on the chain
  // The memory operand only tells the compiler the asm reads the page.
  asm("movl 4(%1,%2), %k0" : "=r"(v) : "r"(p), "r"(len), "m"(*p));
  return v;
#else
  return load_u32(p + len + 4);
#endif
}

constexpr size_t kMaxBatchBytes = static_cast<size_t>(kMaxByteArrayBatchBytes);

// The fast loop's copy of a value: a fixed-size move of up to kBytes, in
// whole vectors. Values up to 32 bytes take one 32-byte move; once a value
// of 33 to 64 bytes shows up, the decoder moves 64 bytes a value with AVX2
// instead of leaving the loop for each longer one (lineitem comments of 10
// to 43 bytes: 258 -> 380-420 M values/s; a 64-byte move for short values
// alone would cost them 5-10%).
using Copy32 = bytes::WholeCopy<32>;

struct Copy64 {
  static constexpr size_t kBytes = 64;
  // A vector type rather than intrinsics, so that it inlines into the
  // template loop; in the AVX2 loop it is two 32-byte moves.
  using Half [[gnu::vector_size(32), gnu::aligned(1), gnu::may_alias]] = uint8_t;
  static void copy(uint8_t* dst, const uint8_t* src) {
    const Half a = *reinterpret_cast<const Half*>(src);
    const Half b = *reinterpret_cast<const Half*>(src + 32);
    *reinterpret_cast<Half*>(dst) = a;
    *reinterpret_cast<Half*>(dst + 32) = b;
  }
};

// Where the fast loop stands: the input, the output's size, the values done.
struct Scan {
  const uint8_t* p;
  size_t out_size;
  size_t i;
};

// Values of at most Copy::kBytes, while the value's length prefix, kBytes
// after it and the next length prefix are all inside the page (p before
// `fast_end`) and until `stop` values: they need no other check. The
// loop-carried chain is one load per value: the next length is loaded from
// p + 4 + len while p itself advances beside it.
template <class Copy>
[[gnu::always_inline]] inline void scan_short_values(Scan& scan, uint8_t* out, int32_t* offsets, size_t stop,
                                                     const uint8_t* fast_end) {
  const uint8_t* p = scan.p;
  size_t out_size = scan.out_size;
  size_t i = scan.i;
  size_t len = load_u32(p);
  while (len <= Copy::kBytes && p < fast_end) {
    // 4 + len + 4 bytes from p: the next length is readable.
    size_t next = load_next_length(p, len);
    Copy::copy(out + out_size, p + 4);
    out_size += len;
    offsets[++i] = static_cast<int32_t>(out_size);
    p += 4 + len;
    len = next;
    if (i == stop) break;
  }
  scan = {p, out_size, i};
}

void scan_short_values_32(Scan& scan, uint8_t* out, int32_t* offsets, size_t stop, const uint8_t* fast_end) {
  scan_short_values<Copy32>(scan, out, offsets, stop, fast_end);
}

[[gnu::target("avx2")]] void scan_short_values_64(Scan& scan, uint8_t* out, int32_t* offsets, size_t stop,
                                                  const uint8_t* fast_end) {
  scan_short_values<Copy64>(scan, out, offsets, stop, fast_end);
}

}  // namespace

void PlainByteArrayDecoder::reset(const uint8_t* data, size_t size, size_t num_values) {
  // Every value takes at least its 4-byte length.
  if (num_values > size / 4)
    throw Error("PLAIN BYTE_ARRAY: " + std::to_string(num_values) + " values need at least " +
                std::to_string(num_values) + " * 4 bytes but the page ends at byte " + std::to_string(size));
  begin_ = pos_ = data;
  end_ = data + size;
  num_values_ = num_values;
  index_ = 0;
}

void PlainByteArrayDecoder::fail(const uint8_t* at, const char* what) const {
  throw Error(std::string("PLAIN BYTE_ARRAY: ") + what + " at byte " + std::to_string(at - begin_) + " of " +
              std::to_string(end_ - begin_) + " (value " + std::to_string(index_) + ")");
}

size_t PlainByteArrayDecoder::decode(ByteArrayBatch& batch, size_t n) {
  n = std::min(n, num_values_ - index_);
  if (n == 0) return 0;
  Buffer& offsets_buf = batch.offsets_buffer();
  Buffer& data_buf = batch.data_buffer();
  int32_t* offsets = reinterpret_cast<int32_t*>(offsets_buf.extend(n * sizeof(int32_t))) - 1;
  // The values cannot hold more bytes than remain in the page; reserve that,
  // capped so that a small batch from a huge page does not over-allocate.
  // The cap is at least `fast` bytes a value, so values of up to that many
  // bytes (the fast loop's) always fit what is reserved.
  const bool avx2 = simd_level() >= SimdLevel::kAvx2;
  bool wide = avx2 && long_values_;
  size_t fast = wide ? Copy64::kBytes : Copy32::kBytes;
  size_t out_size = data_buf.size();
  size_t in_left = static_cast<size_t>(end_ - pos_);
  const size_t want = std::min(in_left, std::max<size_t>(n * fast, 1 << 16));
  data_buf.reserve(out_size + want);
  uint8_t* out = data_buf.data();
  size_t limit = std::min(data_buf.capacity(), kMaxBatchBytes);

  const uint8_t* p = pos_;
  const uint8_t* const end = end_;
  // Where a value of `fast` bytes and the next length prefix still fit.
  auto fast_end_for = [&](size_t fast_bytes) { return end - std::min<size_t>(in_left, 4 + fast_bytes + 4); };
  const uint8_t* fast_end = fast_end_for(fast);
  const char* error = nullptr;
  size_t i = 0;
  while (i < n) {
    // And while `fast` more bytes fit the output: as values in it grow the
    // output by at most that, it bounds their count.
    if (p < fast_end && out_size + fast <= limit) {
      const size_t stop = i + std::min(n - i, (limit - fast - out_size) / fast + 1);
      Scan scan{p, out_size, i};
      if (wide) {
        scan_short_values_64(scan, out, offsets, stop, fast_end);
      } else {
        scan_short_values_32(scan, out, offsets, stop, fast_end);
      }
      p = scan.p;
      out_size = scan.out_size;
      i = scan.i;
      if (i == n) break;
    }
    size_t avail = static_cast<size_t>(end - p);
    if (__builtin_expect(avail < 4, 0)) {
      error = "truncated length";
      break;
    }
    size_t len = load_u32(p);
    avail -= 4;
    if (__builtin_expect(len > avail || out_size + len > limit, 0)) {
      if (len > avail) {
        error = "value length runs past the end of the page";
        break;
      }
      if (out_size + len > kMaxBatchBytes) {
        // A full batch ends the call; a value too long for any batch is an error.
        if (out_size == 0) error = "value longer than 2^31-1 bytes";
        break;
      }
      data_buf.resize(out_size);
      data_buf.reserve(std::max(out_size + len, std::min(2 * data_buf.capacity(), out_size + in_left)));
      out = data_buf.data();
      limit = std::min(data_buf.capacity(), kMaxBatchBytes);
    }
    if (__builtin_expect(len <= 32 && avail >= 32, 1)) {
      copy32(out + out_size, p + 4);
    } else {
      // Values past 32 bytes: the rest of the column takes the 64-byte loop.
      if (avx2 && !wide && len > Copy32::kBytes && len <= Copy64::kBytes) {
        wide = long_values_ = true;
        fast = Copy64::kBytes;
        fast_end = fast_end_for(fast);
      }
      bytes::copy_bounded(out + out_size, p + 4, len, end);
    }
    out_size += len;
    offsets[++i] = static_cast<int32_t>(out_size);
    p += 4 + len;
  }
  data_buf.resize(out_size);
  offsets_buf.resize(offsets_buf.size() - (n - i) * sizeof(int32_t));
  if (error != nullptr) {
    index_ += i;
    fail(p, error);
  }
  pos_ = p;
  index_ += i;
  return i;
}

size_t PlainByteArrayDecoder::skip(size_t n) {
  n = std::min(n, num_values_ - index_);
  const uint8_t* p = pos_;
  const char* error = nullptr;
  size_t i = 0;
  if (n > 1 && end_ - p >= 4) {
    // While the value and the next length are inside the page, a step is
    // the dependent load alone; the rest is the checked loop below.
    size_t len = load_u32(p);
    while (len + 8 <= static_cast<size_t>(end_ - p)) {
      size_t next = load_next_length(p, len);
      p += 4 + len;
      len = next;
      if (++i == n - 1) break;
    }
  }
  for (; i < n; ++i) {
    size_t avail = static_cast<size_t>(end_ - p);
    if (avail < 4) {
      error = "truncated length";
      break;
    }
    size_t len = load_u32(p);
    if (len > avail - 4) {
      error = "value length runs past the end of the page";
      break;
    }
    p += 4 + len;
  }
  if (error != nullptr) {
    index_ += i;
    fail(p, error);
  }
  pos_ = p;
  index_ += n;
  return n;
}

void PlainByteArrayEncoder::put(const ByteArrayBatch& values) {
  put(std::span<const int32_t>(values.offsets(), values.size() + 1),
      std::span<const uint8_t>(values.data(), values.data_size()));
}

void PlainByteArrayEncoder::put(std::span<const int32_t> offsets, std::span<const uint8_t> data) {
  if (offsets.size() < 2) return;
  size_t n = offsets.size() - 1;
  const int32_t* o = offsets.data();
  // Validate up front: offsets never decrease and stay inside `data`.
  bool decreasing = false;
  for (size_t i = 0; i < n; ++i) decreasing |= o[i + 1] < o[i];
  if (decreasing || o[0] < 0 || static_cast<size_t>(o[n]) > data.size())
    throw Error("PLAIN BYTE_ARRAY encoder: offsets decrease or run past the " + std::to_string(data.size()) +
                " data bytes (at byte " + std::to_string(out_.size()) + " of the output)");
  size_t total = n * 4 + static_cast<size_t>(o[n] - o[0]);
  uint8_t* dst = out_.extend(total);
  const uint8_t* src = data.data();
  // Values with 32 (16) readable bytes behind their end in `data` are copied
  // in whole 32 (16) byte chunks; the output overshoot lands in the Buffer
  // padding or is overwritten by the next value.
  const uint8_t* const src_end = src + data.size();
  for (size_t i = 0; i < n; ++i) {
    uint32_t len = static_cast<uint32_t>(o[i + 1] - o[i]);
    std::memcpy(dst, &len, 4);
    dst += 4;
    if (len <= 32 && static_cast<size_t>(o[i]) + 32 <= data.size()) {
      copy32(dst, src + o[i]);
    } else {
      bytes::copy_bounded(dst, src + o[i], len, src_end);
    }
    dst += len;
  }
}

void PlainByteArrayEncoder::put(const std::string_view* values, size_t n) {
  size_t total = 4 * n;
  bool too_long = false;
  for (size_t i = 0; i < n; ++i) {
    total += values[i].size();
    too_long |= values[i].size() > kMaxBatchBytes;
  }
  if (too_long)
    throw Error("PLAIN BYTE_ARRAY encoder: a value is longer than 2^31-1 bytes (at byte " +
                std::to_string(out_.size()) + " of the output)");
  uint8_t* dst = out_.extend(total);
  for (size_t i = 0; i < n; ++i) {
    uint32_t len = static_cast<uint32_t>(values[i].size());
    std::memcpy(dst, &len, 4);
    if (len != 0) std::memcpy(dst + 4, values[i].data(), len);
    dst += 4 + len;
  }
}

void PlainByteArrayEncoder::flush(Buffer& out) { detail::move_or_append(out_, out); }

// ---- selective reads --------------------------------------------------------

namespace detail {
namespace {

[[noreturn]] void fail_selected(const uint8_t* begin, const uint8_t* at, const uint8_t* end, const char* what) {
  throw Error(std::string("PLAIN BYTE_ARRAY: ") + what + " at byte " + std::to_string(at - begin) + " of " +
              std::to_string(end - begin));
}

// The length of the value at p, checked against the page.
inline size_t checked_length(const uint8_t* begin, const uint8_t* p, const uint8_t* end) {
  const auto avail = static_cast<size_t>(end - p);
  if (avail < 4) fail_selected(begin, p, end, "truncated length");
  const size_t len = load_u32(p);
  if (len > avail - 4) fail_selected(begin, p, end, "value length runs past the end of the page");
  return len;
}

// Values of a span that keeps some: while a value of up to 32 bytes, the 32
// bytes after its length and the next length are inside the page, it is
// copied whether kept or not and the output advances by its length only
// when kept, so that scattered flags cost no branch mispredictions. `fast`:
// the output has room for every byte left in the page.
const uint8_t* select_span(const uint8_t* begin, const uint8_t* p, const uint8_t* end, size_t n, const uint8_t* keep,
                           uint8_t* out, size_t& out_size, int32_t*& offsets, size_t limit, bool fast) {
  const size_t in_left = static_cast<size_t>(end - p);
  const uint8_t* const fast_end = fast ? end - std::min<size_t>(in_left, 4 + 32 + 4) : p;
  size_t i = 0;
  while (i < n) {
    if (p < fast_end) {
      size_t len = load_u32(p);
      while (len <= 32 && p < fast_end) {
        const size_t next = load_next_length(p, len);
        copy32(out + out_size, p + 4);
        const size_t k = keep[i] != 0;
        out_size += len & (0 - k);
        offsets[1] = static_cast<int32_t>(out_size);
        offsets += k;
        p += 4 + len;
        len = next;
        if (++i == n) return p;
      }
    }
    const size_t len = checked_length(begin, p, end);
    if (keep[i] != 0) {
      if (len > limit - out_size) throw Error("more than 2 GiB of byte-array data in one batch; read smaller batches");
      bytes::copy_bounded(out + out_size, p + 4, len, end);
      out_size += len;
      offsets[1] = static_cast<int32_t>(out_size);
      ++offsets;
    }
    p += 4 + len;
    ++i;
  }
  return p;
}

// Values of a span that keeps few: a walk to each kept value, then its
// copy.
const uint8_t* select_sparse(const uint8_t* begin, const uint8_t* p, const uint8_t* end, size_t n, const uint8_t* keep,
                             uint8_t* out, size_t& out_size, int32_t*& offsets, size_t limit) {
  size_t i = 0;
  for (size_t block = 0; block < n; block += 64) {
    for (uint64_t bits = keep_bits(keep + block, std::min<size_t>(64, n - block)); bits != 0; bits &= bits - 1) {
      const size_t at = block + static_cast<size_t>(std::countr_zero(bits));
      p = plain_byte_arrays_walk(begin, p, end, at - i);
      const size_t len = checked_length(begin, p, end);
      if (len > limit - out_size) throw Error("more than 2 GiB of byte-array data in one batch; read smaller batches");
      bytes::copy_bounded(out + out_size, p + 4, len, end);
      out_size += len;
      offsets[1] = static_cast<int32_t>(out_size);
      ++offsets;
      p += 4 + len;
      i = at + 1;
    }
  }
  return plain_byte_arrays_walk(begin, p, end, n - i);
}

}  // namespace

const uint8_t* plain_byte_arrays_walk(const uint8_t* begin, const uint8_t* pos, const uint8_t* end, size_t n) {
  const uint8_t* p = pos;
  size_t i = 0;
  if (n > 1 && end - p >= 4) {
    // As in skip(): while the value and the next length are inside the
    // page, a step is the dependent load alone.
    size_t len = load_u32(p);
    while (len + 8 <= static_cast<size_t>(end - p)) {
      const size_t next = load_next_length(p, len);
      p += 4 + len;
      len = next;
      if (++i == n - 1) break;
    }
  }
  for (; i < n; ++i) p += 4 + checked_length(begin, p, end);
  return p;
}

const uint8_t* plain_byte_arrays_selected(const uint8_t* begin, const uint8_t* pos, const uint8_t* end, size_t n,
                                          const uint8_t* keep, size_t kept, ByteArrayBatch& out) {
  Buffer& data_buf = out.data_buffer();
  Buffer& offsets_buf = out.offsets_buffer();
  // The kept values cannot hold more bytes than remain in the page. The
  // offsets get one slot of slack: the fast loop writes the next offset
  // before it knows whether the value is kept.
  size_t out_size = data_buf.size();
  const size_t room = kMaxBatchBytes - std::min(out_size, kMaxBatchBytes);
  const auto in_left = static_cast<size_t>(end - pos);
  data_buf.reserve_more(std::min(in_left, room));
  const size_t limit = std::min(data_buf.capacity(), kMaxBatchBytes);
  const bool fast = in_left <= limit - out_size;
  uint8_t* data = data_buf.data();
  int32_t* offsets = reinterpret_cast<int32_t*>(offsets_buf.extend(kept * sizeof(int32_t))) - 1;
  const uint8_t* p = pos;
  for_each_keep_span(keep, n, 1024, [&](KeepSpan kind, size_t first, size_t count, size_t span_kept) {
    if (kind == KeepSpan::kNone) {
      p = plain_byte_arrays_walk(begin, p, end, count);
    } else if (span_kept * 8 < count) {
      p = select_sparse(begin, p, end, count, keep + first, data, out_size, offsets, limit);
    } else {
      p = select_span(begin, p, end, count, keep + first, data, out_size, offsets, limit, fast);
    }
  });
  data_buf.resize(out_size);
  return p;
}

}  // namespace detail

}  // namespace parq::encoding
