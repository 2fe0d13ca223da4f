// The snappy decoder: fast loops that run while every element fits the
// slack at both ends (one bounds check per loop, one offset check per copy),
// then a careful loop that checks every byte for the last elements. The
// stream decodes in segments, each in the fast loop that suits a sample of
// its elements: near copies keep the last output bytes in a register (64
// with AVX-512, 16 with AVX2), copy types that change at random are read
// through a table, others branch.
#include "snappy_decompressor.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "codec_errors.h"
#include "parq/util/cpu.h"
#include "util/byte_copy.h"

// GCC 12 flags the deliberately undefined operand inside its own AVX-512
// extract, which a zmm register's low 16 bytes are taken with.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace parq::compression {
namespace {

// In the fast loop, an element's tag and offset (at most 5 bytes) and a
// literal of up to 60 bytes read as four 16-byte vectors stay inside the
// input; a copy of up to 64 bytes written as vectors (the last one starting
// below 64) stays inside the output.
constexpr size_t kInputSlack = 5 + 64;
constexpr size_t kOutputSlack = 64 + 16;

struct Stream {
  const uint8_t* in_begin;
  const uint8_t* ip;
  const uint8_t* in_end;
  uint8_t* out_begin;
  uint8_t* op;
  uint8_t* out_end;
};

[[noreturn]] void corrupt(const Stream& s, const uint8_t* element, const char* what) {
  fail_decompress("SNAPPY", std::string(what) + " (element at input byte " + std::to_string(element - s.in_begin) +
                                ", output byte " + std::to_string(s.op - s.out_begin) + ")");
}

// The length of a literal whose tag says 61..64: 1-4 length bytes follow
// the tag. Reads 4 bytes at ip, inside the fast loops' input slack.
inline size_t long_literal_length(size_t tag_length, const uint8_t*& ip) {
  const size_t extra = tag_length - 60;
  // In size_t: a length field of 2^32 - 1 is a literal of 2^32 bytes, more
  // than any output holds (libsnappy wraps it to an empty literal).
  const size_t len = size_t{bytes::load_u32(ip) & (0xFFFFFFFFu >> (32 - 8 * extra))} + 1;
  ip += extra;
  return len;
}

// A copy element (tag & 3 != 0, the tag at ip[-1]): its offset, its length
// in `len`, ip moved past the offset bytes.
inline size_t read_copy(uint32_t tag, const uint8_t*& ip, size_t& len) {
  size_t offset;
  switch (tag & 3) {
    case 1:
      len = 4 + ((tag >> 2) & 7);
      offset = (tag >> 5) << 8 | *ip;
      ip += 1;
      break;
    case 2:
      len = (tag >> 2) + 1;
      offset = bytes::load_u16(ip);
      ip += 2;
      break;
    default:
      len = (tag >> 2) + 1;
      offset = bytes::load_u32(ip);
      ip += 4;
      break;
  }
  return offset;
}

// Per copy tag of type 1 or 2: the length (low byte) and the offset bits
// the tag holds (type 1 keeps offset bits 8-10 there), above them.
constexpr std::array<uint32_t, 256> kCopyTag = [] {
  std::array<uint32_t, 256> table{};
  for (uint32_t tag = 0; tag < 256; ++tag) {
    if ((tag & 3) == 1) table[tag] = (4 + ((tag >> 2) & 7)) | (tag >> 5) << 16;
    if ((tag & 3) == 2) table[tag] = (tag >> 2) + 1;
  }
  return table;
}();

// The offset bytes after a copy tag of type 1 and 2.
constexpr std::array<uint32_t, 3> kOffsetMask = {0, 0xFF, 0xFFFF};

// read_copy without a branch between 1- and 2-byte offsets: on pages of
// random integers the type follows the offset's size, which is random, and
// a mispredicted branch here sat on the chain from one element's tag to the
// next (20% of the decoding time). The input advances by the type itself,
// two cycles after the tag. Compressors that work in 64 KiB blocks (all of
// them) never write 4-byte offsets, so that branch is always predicted.
// Reading 4 bytes at ip stays inside the fast loop's input slack.
inline size_t read_copy_by_table(uint32_t tag, const uint8_t*& ip, size_t& len) {
  const uint32_t type = tag & 3;
  if (type == 3) [[unlikely]]
    return read_copy(tag, ip, len);
  const uint32_t entry = kCopyTag[tag];
  len = entry & 0xFF;
  const size_t offset = ((entry >> 16) << 8) + (bytes::load_u32(ip) & kOffsetMask[type]);
  ip += type;
  return offset;
}

// A copy whose offset is below 16 repeats the last `offset` bytes: one
// vector holds the pattern, stored every `step` bytes (a multiple of the
// offset, so the stores agree where they overlap).
constexpr std::array<uint8_t, 16> kPatternStep = [] {
  std::array<uint8_t, 16> step{};
  for (int offset = 1; offset < 16; ++offset) step[offset] = static_cast<uint8_t>(16 - 16 % offset);
  return step;
}();

alignas(16) constexpr std::array<std::array<uint8_t, 16>, 16> kPatternShuffle = [] {
  std::array<std::array<uint8_t, 16>, 16> masks{};
  for (int offset = 1; offset < 16; ++offset)
    for (int i = 0; i < 16; ++i) masks[offset][i] = static_cast<uint8_t>(i % offset);
  return masks;
}();

inline void store_pattern(uint8_t* dst, __m128i pattern, size_t offset, size_t len) {
  const size_t step = kPatternStep[offset];
  for (size_t k = 0; k < len; k += step) _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + k), pattern);
}

struct ScalarPattern {
  static void copy(uint8_t* dst, const uint8_t* src, size_t offset, size_t len) {
    alignas(16) uint8_t bytes[16];
    for (size_t i = 0, j = 0; i < 16; ++i) {
      bytes[i] = src[j];
      j = j + 1 == offset ? 0 : j + 1;
    }
    store_pattern(dst, _mm_load_si128(reinterpret_cast<const __m128i*>(bytes)), offset, len);
  }
};

struct ShufflePattern {
  // Reads 16 bytes at src, past the `offset` bytes the pattern uses; they
  // lie inside the output (the fast loop's slack) and the shuffle drops them.
  [[gnu::target("avx2")]] static inline void copy(uint8_t* dst, const uint8_t* src, size_t offset, size_t len) {
    const __m128i mask = _mm_load_si128(reinterpret_cast<const __m128i*>(kPatternShuffle[offset].data()));
    const __m128i pattern = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src)), mask);
    store_pattern(dst, pattern, offset, len);
  }
};

// Writes the fast loop's bytes with 16-byte vectors; copies from less than
// 16 bytes back go through `Pattern`. Always inlined, so that the pattern
// call lands in the caller's target (AVX2) and inlines there. Most elements
// of integer pages are at most 16 bytes: one vector, with the step loop for
// longer ones out of their way.
template <class Pattern>
struct VectorCopies {
  // len <= 60
  [[gnu::always_inline]] void literal(uint8_t* op, const uint8_t* ip, size_t len) {
    bytes::copy16(op, ip);
    if (len > 16) bytes::copy16_steps(op + 16, ip + 16, len - 16);
  }
  void after_long_literal(const uint8_t*, size_t) {}
  [[gnu::always_inline]] void copy(uint8_t* op, size_t offset, size_t len) {
    if (offset >= 16) {
      bytes::copy16(op, op - offset);
      if (len > 16) bytes::copy16_steps(op + 16, op + 16 - offset, len - 16);
    } else {
      Pattern::copy(op, op - offset, offset, len);
    }
  }
};

// With AVX-512 VBMI the fast loop keeps the output's last 64 bytes in a
// register: a copy of up to 64 bytes back is one byte permute of it, which
// another permute moves on by the copy (a literal shifts its bytes in).
// Reading those bytes from memory instead would load across the stores of
// the last few elements, which the CPU cannot forward (the load waits for
// the stores to retire): with the short elements of integer pages, that
// wait was most of the time.
alignas(64) constexpr std::array<uint8_t, 64> kIota = [] {
  std::array<uint8_t, 64> iota{};
  for (int i = 0; i < 64; ++i) iota[i] = static_cast<uint8_t>(i);
  return iota;
}();

// Per offset, the positions in a window of `kBytes` (the output's last
// bytes) of a copy `offset` bytes back: kBytes - offset + j % offset.
template <int kBytes>
constexpr std::array<std::array<uint8_t, kBytes>, kBytes + 1> window_copy_lanes() {
  std::array<std::array<uint8_t, kBytes>, kBytes + 1> index{};
  for (int offset = 1; offset <= kBytes; ++offset)
    for (int j = 0; j < kBytes; ++j) index[offset][j] = static_cast<uint8_t>(kBytes - offset + j % offset);
  return index;
}

alignas(64) constexpr auto kWindowCopy = window_copy_lanes<64>();

#define PARQ_SNAPPY_AVX512 gnu::target("avx512f,avx512bw,avx512vl,avx512vbmi,bmi2")

struct WindowCopies {
  // The output's last 64 bytes, where the loop starts (it may start in the
  // middle of a stream). Lanes for bytes before the output's start hold
  // zeros; the offset check keeps copies from reading them, and the masked
  // load from touching them.
  [[PARQ_SNAPPY_AVX512]] explicit WindowCopies(const Stream& s) {
    const size_t history = std::min<size_t>(static_cast<size_t>(s.op - s.out_begin), 64);
    const __mmask64 lanes = ~_bzhi_u64(~uint64_t{0}, static_cast<unsigned>(64 - history));
    window = _mm512_maskz_loadu_epi8(lanes, s.op - 64);
  }

  __m512i window;

  // Lane i + len: where each lane of the window comes from once `len`
  // more bytes are output (64 and up: the incoming bytes).
  [[PARQ_SNAPPY_AVX512]] static __m512i lanes_after(size_t len) {
    return _mm512_add_epi8(_mm512_load_si512(kIota.data()), _mm512_set1_epi8(static_cast<char>(len)));
  }

  // The window after `len` more output bytes, the first `len` of `incoming`.
  [[PARQ_SNAPPY_AVX512]] void shift_in(__m512i incoming, size_t len) {
    window = _mm512_permutex2var_epi8(window, lanes_after(len), incoming);
  }

  [[PARQ_SNAPPY_AVX512]] void literal(uint8_t* op, const uint8_t* ip, size_t len) {
    if (len <= 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ip));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(op), bytes);
      shift_in(_mm512_castsi128_si512(bytes), len);
    } else {
      const __m512i bytes = _mm512_loadu_si512(ip);
      _mm512_storeu_si512(op, bytes);
      shift_in(bytes, len);
    }
  }

  // From the input, not the output just written (61..63 bytes are still
  // inside the fast loop's input slack).
  [[PARQ_SNAPPY_AVX512]] void after_long_literal(const uint8_t* ip, size_t len) {
    if (len >= 64) {
      window = _mm512_loadu_si512(ip + len - 64);
    } else {
      shift_in(_mm512_loadu_si512(ip), len);
    }
  }

  // A source more than 64 bytes back is whole in memory before the copy.
  // From nearer, the window after the copy is one permute of the window
  // before it: lane i takes byte i + len, or, for the copy's own bytes
  // (i + len >= 64), the byte the copy read there. Those lanes come from
  // the offset and the length alone, so the window's chain from one
  // element to the next holds one permute per copy, not the copy's
  // permute and then a second to shift its bytes in.
  [[PARQ_SNAPPY_AVX512]] void copy(uint8_t* op, size_t offset, size_t len) {
    if (offset <= 64) {
      const __m512i source = _mm512_load_si512(kWindowCopy[offset].data());
      const __m512i bytes = _mm512_maskz_permutexvar_epi8(~__mmask64{0}, source, window);
      store(op, bytes, len);
      const __m512i after = lanes_after(len);
      const __mmask64 copied = ~uint64_t{0} << (64 - len);
      const __m512i lanes = _mm512_mask_permutexvar_epi8(after, copied, after, source);
      window = _mm512_maskz_permutexvar_epi8(~__mmask64{0}, lanes, window);
      return;
    }
    const __m512i bytes = _mm512_loadu_si512(op - offset);
    store(op, bytes, len);
    shift_in(bytes, len);
  }

  // A short copy as one plain 16-byte store (a masked store of the
  // vector's first 16 bytes was slower).
  [[PARQ_SNAPPY_AVX512]] static void store(uint8_t* op, __m512i bytes, size_t len) {
    if (len <= 16) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(op), _mm512_castsi512_si128(bytes));
    } else {
      _mm512_storeu_si512(op, bytes);
    }
  }
};

// Without AVX-512, the window is the output's last 16 bytes in an xmm
// register, for the same reason: a copy of up to 16 bytes back is one byte
// shuffle of it and a second shuffle moves the window on (a literal's
// bytes are shifted in by two more). Longer elements reload it from
// memory, once per at least 17 bytes.
//
// Shuffle lanes that shift the window by `len` bytes (0..16): its own
// bytes move down (kKeepAfterShift), the first `len` of an incoming vector
// fill the top (kShiftedIn); a lane of 0x80 reads zero.
template <bool kIncoming>
constexpr std::array<std::array<uint8_t, 16>, 17> shift_lanes() {
  std::array<std::array<uint8_t, 16>, 17> index{};
  for (int len = 0; len <= 16; ++len) {
    for (int i = 0; i < 16; ++i) {
      const int from = kIncoming ? i - (16 - len) : i + len;
      index[len][i] = static_cast<uint8_t>(from >= 0 && from < 16 ? from : 0x80);
    }
  }
  return index;
}

alignas(16) constexpr auto kKeepAfterShift = shift_lanes<false>();
alignas(16) constexpr auto kShiftedIn = shift_lanes<true>();
alignas(16) constexpr auto kWindow16Copy = window_copy_lanes<16>();

#define PARQ_SNAPPY_AVX2 gnu::target("avx2,bmi2")

struct Window16Copies {
  // Lanes for bytes before the output's start hold zeros, as in
  // WindowCopies.
  [[PARQ_SNAPPY_AVX2]] explicit Window16Copies(const Stream& s) {
    const size_t history = std::min<size_t>(static_cast<size_t>(s.op - s.out_begin), 16);
    alignas(16) uint8_t last[16] = {};
    std::memcpy(last + 16 - history, s.op - history, history);
    window = _mm_load_si128(reinterpret_cast<const __m128i*>(last));
  }

  __m128i window;

  static __m128i lanes(const std::array<uint8_t, 16>& index) {
    return _mm_load_si128(reinterpret_cast<const __m128i*>(index.data()));
  }

  // len <= 16
  [[PARQ_SNAPPY_AVX2]] void shift_in(__m128i incoming, size_t len) {
    window = _mm_or_si128(_mm_shuffle_epi8(window, lanes(kKeepAfterShift[len])),
                          _mm_shuffle_epi8(incoming, lanes(kShiftedIn[len])));
  }

  [[PARQ_SNAPPY_AVX2]] void reload(const uint8_t* last_16) {
    window = _mm_loadu_si128(reinterpret_cast<const __m128i*>(last_16));
  }

  // len <= 60; the window's bytes come from the input.
  [[PARQ_SNAPPY_AVX2]] void literal(uint8_t* op, const uint8_t* ip, size_t len) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ip));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(op), bytes);
    if (len <= 16) {
      shift_in(bytes, len);
    } else {
      bytes::copy16_steps(op + 16, ip + 16, len - 16);
      reload(ip + len - 16);
    }
  }

  // A literal in the long form may still be short (its length bytes can
  // say 1); 16 bytes at ip are inside the fast loop's input slack.
  [[PARQ_SNAPPY_AVX2]] void after_long_literal(const uint8_t* ip, size_t len) {
    if (len >= 16) {
      reload(ip + len - 16);
    } else {
      shift_in(_mm_loadu_si128(reinterpret_cast<const __m128i*>(ip)), len);
    }
  }

  [[PARQ_SNAPPY_AVX2]] void copy(uint8_t* op, size_t offset, size_t len) {
    if (offset <= 16) {
      const __m128i source = lanes(kWindow16Copy[offset]);
      const __m128i pattern = _mm_shuffle_epi8(window, source);
      if (len <= 16) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(op), pattern);
        // One shuffle of the window, as in WindowCopies::copy: lanes that
        // stay (kKeepAfterShift's, their 0x80 cleared) and, above them,
        // the copy's source lanes.
        const __m128i kept = _mm_and_si128(lanes(kKeepAfterShift[len]), _mm_set1_epi8(0x0F));
        window = _mm_shuffle_epi8(window, _mm_or_si128(kept, _mm_shuffle_epi8(source, lanes(kShiftedIn[len]))));
        return;
      }
      if (offset < 16) {
        store_pattern(op, pattern, offset, len);
        reload(op + len - 16);
        return;
      }
    }
    const __m128i head = _mm_loadu_si128(reinterpret_cast<const __m128i*>(op - offset));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(op), head);
    if (len <= 16) {
      shift_in(head, len);
      return;
    }
    bytes::copy16_steps(op + 16, op + 16 - offset, len - 16);
    // From the source where the copy does not overlap its output: those
    // bytes were stored before this copy's.
    reload(len <= offset ? op - offset + len - 16 : op + len - 16);
  }
};

// The element loop of the fast paths; `copies` writes the bytes. A
// branch on the copy type costs nothing where it is predictable and a
// mispredict per copy where it is not; the table costs a few cycles per
// copy either way. A sample of the stream chooses.
enum class CopyType { kBranch, kTable };

// Where a fast loop stops: its input pointer reaching `ip` or its output
// pointer reaching `op`.
struct FastLimits {
  const uint8_t* ip;
  const uint8_t* op;
};

// False where the slack has already run out.
inline bool fast_limits(const Stream& s, const uint8_t* op_limit, FastLimits& limits) {
  if (static_cast<size_t>(s.in_end - s.ip) <= kInputSlack || static_cast<size_t>(s.out_end - s.op) <= kOutputSlack)
    return false;
  limits = {s.in_end - kInputSlack, std::min<const uint8_t*>(op_limit, s.out_end - kOutputSlack)};
  return true;
}

// One element of the fast loop, ip and op moved past it.
template <CopyType kCopyType, class Copies>
[[gnu::always_inline]] inline void decode_element(Stream& s, Copies& copies, const uint8_t*& ip, uint8_t*& op) {
  const uint8_t* element = ip;
  const uint32_t tag = *ip++;
  size_t len = (tag >> 2) + 1;
  if ((tag & 3) == 0) {
    if (len <= 60) [[likely]] {
      copies.literal(op, ip, len);
    } else {
      len = long_literal_length(len, ip);
      s.op = op;
      if (len > static_cast<size_t>(s.in_end - ip)) corrupt(s, element, "a literal runs past the end of the input");
      if (len > static_cast<size_t>(s.out_end - op))
        corrupt(s, element, "the data decompresses to more bytes than its length header says");
      std::memcpy(op, ip, len);
      copies.after_long_literal(ip, len);
    }
    ip += len;
    op += len;
    return;
  }
  const size_t offset = kCopyType == CopyType::kTable ? read_copy_by_table(tag, ip, len) : read_copy(tag, ip, len);
  if (offset - 1 >= static_cast<size_t>(op - s.out_begin)) [[unlikely]] {
    s.op = op;
    corrupt(s, element, offset == 0 ? "a copy with offset 0" : "a copy reaches before the start of the output");
  }
  copies.copy(op, offset, len);
  op += len;
}

// Stops at the first element boundary at or past `op_limit`, or where the
// slack ends.
template <CopyType kCopyType, class Copies>
[[gnu::always_inline]] inline void decode_fast(Stream& s, Copies& copies, const uint8_t* op_limit) {
  FastLimits limits;
  if (!fast_limits(s, op_limit, limits)) return;
  const uint8_t* ip = s.ip;
  uint8_t* op = s.op;
  while (ip < limits.ip && op < limits.op) decode_element<kCopyType>(s, copies, ip, op);
  s.ip = ip;
  s.op = op;
}

// Two streams, an element of each in turn, until either one's slack ends.
// Each element's position comes from the tag before it, a chain of loads
// that keeps one stream waiting on load latency however short its
// elements; the other stream's chain runs in those waits. Copy tags are
// read through the table whatever a sample would say: a mispredicted
// branch throws away both streams' work in flight, and paired the table
// was faster on every kind of page the bench has (random int64 1.19 ->
// 1.96 GB/s, strings 1.89 -> 2.26) except those of near copies, which the
// window decodes faster one stream at a time.
template <class Copies>
[[gnu::always_inline]] inline void decode_fast_pair(Stream& a, Stream& b) {
  Copies copies_a, copies_b;
  FastLimits la, lb;
  if (!fast_limits(a, a.out_end, la) || !fast_limits(b, b.out_end, lb)) return;
  const uint8_t* ip_a = a.ip;
  uint8_t* op_a = a.op;
  const uint8_t* ip_b = b.ip;
  uint8_t* op_b = b.op;
  while (ip_a < la.ip && op_a < la.op && ip_b < lb.ip && op_b < lb.op) {
    decode_element<CopyType::kTable>(a, copies_a, ip_a, op_a);
    decode_element<CopyType::kTable>(b, copies_b, ip_b, op_b);
  }
  a.ip = ip_a;
  a.op = op_a;
  b.ip = ip_b;
  b.op = op_b;
}

// The last elements, every read and write checked.
void decode_careful(Stream& s) {
  while (s.ip < s.in_end) {
    const uint8_t* element = s.ip;
    const uint32_t tag = *s.ip++;
    const size_t available = static_cast<size_t>(s.in_end - s.ip);
    const size_t room = static_cast<size_t>(s.out_end - s.op);
    if ((tag & 3) == 0) {
      size_t len = (tag >> 2) + 1;
      if (len > 60) {
        const size_t extra = len - 60;
        if (extra > available) corrupt(s, element, "a literal's length runs past the end of the input");
        len = 0;
        for (size_t i = extra; i-- > 0;) len = len << 8 | s.ip[i];
        len += 1;
        s.ip += extra;
      }
      if (len > static_cast<size_t>(s.in_end - s.ip)) corrupt(s, element, "a literal runs past the end of the input");
      if (len > room) corrupt(s, element, "the data decompresses to more bytes than its length header says");
      std::memcpy(s.op, s.ip, len);
      s.ip += len;
      s.op += len;
      continue;
    }
    const size_t extra = (tag & 3) == 1 ? 1 : (tag & 3) == 2 ? 2 : 4;
    if (extra > available) corrupt(s, element, "a copy's offset runs past the end of the input");
    size_t len;
    size_t offset = 0;
    if ((tag & 3) == 1) {
      len = 4 + ((tag >> 2) & 7);
      offset = (tag >> 5) << 8 | s.ip[0];
    } else {
      len = (tag >> 2) + 1;
      for (size_t i = extra; i-- > 0;) offset = offset << 8 | s.ip[i];
    }
    s.ip += extra;
    if (offset == 0) corrupt(s, element, "a copy with offset 0");
    if (offset > static_cast<size_t>(s.op - s.out_begin))
      corrupt(s, element, "a copy reaches before the start of the output");
    if (len > room) corrupt(s, element, "the data decompresses to more bytes than its length header says");
    const uint8_t* src = s.op - offset;
    for (size_t i = 0; i < len; ++i) s.op[i] = src[i];
    s.op += len;
  }
  if (s.op != s.out_end)
    fail_decompress("SNAPPY", "the data decompresses to " + std::to_string(s.op - s.out_begin) +
                                  " bytes, fewer than its length header says (" +
                                  std::to_string(s.out_end - s.out_begin) + ")");
}

// Copies from this near wait for recent stores (bench/snappy_bench.cc:
// sequential int64 copies from 8 bytes back, text mostly from beyond 64).
constexpr size_t kNearOffset = 32;
// The stream decodes in segments of this much output, each in the loop
// that suits a sample of its first elements. Compressors (libsnappy and
// the ports in other engines) match within blocks of 64 KiB of input, each
// starting without history, so a block's first copies are all near and of
// one type; its later ones reach further (copies of random integers pass
// 2 KiB, and so change type, only after the first few KiB). Segments start
// in the middle of blocks, where a sample shows the block as it mostly is.
constexpr size_t kSegmentBytes = 64 * 1024;
// The sample: 128 elements, after the first 256 of a stream (whose copies
// are all near, for want of history). A quarter of them near copies call
// for the window; copies that change type at least 30 times in 100 (random
// integers and doubles: 42-46) for the table.
constexpr int kSampleSkip = 256;
constexpr int kSampleElements = 128;
constexpr int kSampleNear = kSampleElements / 4;
constexpr int kMixedTypesPercent = 30;

struct StreamSample {
  int copies = 0;
  int near = 0;          // copies from at most kNearOffset bytes back
  int near16 = 0;        // copies of at most 16 bytes from at most 16 back
  int type_changes = 0;  // copies of another type than the copy before

  // For the 64-byte window (AVX-512).
  bool near_copies() const { return near >= kSampleNear; }
  // For the 16-byte window (AVX2), which serves only the copies it holds
  // whole: it reloads from memory after longer ones.
  bool near16_copies() const { return near16 >= kSampleNear; }
  bool mixed_types() const { return copies > 0 && type_changes * 100 >= copies * kMixedTypesPercent; }
};

// The copies among `sample` elements after the first `skip`. Near copies
// are the loads that wait for recent stores, which the window saves; where
// copies reach further (text, random integers), shifting the window costs
// more than it saves.
StreamSample sample_stream(const Stream& s, int skip, int sample) {
  const uint8_t* ip = s.ip;
  StreamSample result;
  uint32_t last_type = 0;
  for (int element = 0; element < skip + sample && s.in_end - ip >= 5; ++element) {
    const uint32_t tag = *ip++;
    size_t len = (tag >> 2) + 1;
    if ((tag & 3) == 0) {
      if (len > 60) len = long_literal_length(len, ip);
      if (len > static_cast<size_t>(s.in_end - ip)) break;
      ip += len;
      continue;
    }
    const size_t offset = read_copy(tag, ip, len);
    if (element >= skip) {
      result.near += offset <= kNearOffset;
      result.near16 += offset <= 16 && len <= 16;
      result.type_changes += last_type != 0 && (tag & 3) != last_type;
      ++result.copies;
    }
    last_type = tag & 3;
  }
  return result;
}

// Each loop is a function of its own, compiled for its instruction set:
// sharing one function, the loops ran slower.
template <CopyType kCopyType>
[[gnu::noinline]] void decode_vector_scalar(Stream& s, const uint8_t* op_limit) {
  VectorCopies<ScalarPattern> copies;
  decode_fast<kCopyType>(s, copies, op_limit);
}

template <CopyType kCopyType>
[[PARQ_SNAPPY_AVX2, gnu::noinline]] void decode_vector_avx2(Stream& s, const uint8_t* op_limit) {
  VectorCopies<ShufflePattern> copies;
  decode_fast<kCopyType>(s, copies, op_limit);
}

template <CopyType kCopyType>
[[PARQ_SNAPPY_AVX512, gnu::noinline]] void decode_vector_avx512(Stream& s, const uint8_t* op_limit) {
  VectorCopies<ShufflePattern> copies;
  decode_fast<kCopyType>(s, copies, op_limit);
}

[[PARQ_SNAPPY_AVX2, gnu::noinline]] void decode_window16(Stream& s, const uint8_t* op_limit) {
  Window16Copies copies(s);
  decode_fast<CopyType::kBranch>(s, copies, op_limit);
}

[[PARQ_SNAPPY_AVX512, gnu::noinline]] void decode_window(Stream& s, const uint8_t* op_limit) {
  WindowCopies copies(s);
  decode_fast<CopyType::kBranch>(s, copies, op_limit);
}

using FastLoop = void (*)(Stream& s, const uint8_t* op_limit);

// Runs the fast loop that `choose(sample)` gives, segment by segment, while
// the input's slack lasts; then the careful loop. The first segment is half
// as long, so that later ones start in the middle of compressor blocks.
template <class ChooseLoop>
[[gnu::always_inline]] inline void decode_segments(Stream& s, ChooseLoop choose) {
  int skip = kSampleSkip;
  size_t segment = kSegmentBytes / 2;
  while (true) {
    const bool last = static_cast<size_t>(s.out_end - s.op) <= segment;
    uint8_t* const op_limit = last ? s.out_end : s.op + segment;
    const FastLoop loop = choose(sample_stream(s, skip, kSampleElements));
    loop(s, op_limit);
    if (last || s.op < op_limit) break;  // the end, or the input's slack ran out
    skip = 0;
    segment = kSegmentBytes;
  }
  decode_careful(s);
}

void decode_scalar(Stream& s) {
  decode_segments(s, [](const StreamSample& sample) -> FastLoop {
    return sample.mixed_types() ? decode_vector_scalar<CopyType::kTable> : decode_vector_scalar<CopyType::kBranch>;
  });
}

[[PARQ_SNAPPY_AVX2]] void decode_avx2(Stream& s) {
  decode_segments(s, [](const StreamSample& sample) -> FastLoop {
    if (sample.near16_copies()) return decode_window16;
    return sample.mixed_types() ? decode_vector_avx2<CopyType::kTable> : decode_vector_avx2<CopyType::kBranch>;
  });
}

[[PARQ_SNAPPY_AVX512]] void decode_avx512(Stream& s) {
  decode_segments(s, [](const StreamSample& sample) -> FastLoop {
    if (sample.near_copies()) return decode_window;
    return sample.mixed_types() ? decode_vector_avx512<CopyType::kTable> : decode_vector_avx512<CopyType::kBranch>;
  });
}

[[gnu::noinline]] void decode_pair_scalar(Stream& a, Stream& b) { decode_fast_pair<VectorCopies<ScalarPattern>>(a, b); }

[[PARQ_SNAPPY_AVX2, gnu::noinline]] void decode_pair_avx2(Stream& a, Stream& b) {
  decode_fast_pair<VectorCopies<ShufflePattern>>(a, b);
}

[[PARQ_SNAPPY_AVX512, gnu::noinline]] void decode_pair_avx512(Stream& a, Stream& b) {
  decode_fast_pair<VectorCopies<ShufflePattern>>(a, b);
}

struct Preamble {
  size_t length;  // uncompressed
  size_t bytes;   // of the varint
};

std::optional<Preamble> read_preamble(std::span<const uint8_t> in) {
  uint64_t value = 0;
  for (size_t i = 0; i < 5 && i < in.size(); ++i) {
    value |= uint64_t{in[i] & 0x7Fu} << (7 * i);
    if ((in[i] & 0x80) == 0) {
      if (value > UINT32_MAX) return std::nullopt;
      return Preamble{static_cast<size_t>(value), i + 1};
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<size_t> snappy_uncompressed_length(std::span<const uint8_t> in) {
  const std::optional<Preamble> preamble = read_preamble(in);
  if (!preamble) return std::nullopt;
  return preamble->length;
}

namespace {

Stream open_stream(std::span<const uint8_t> in, uint8_t* out, size_t out_size) {
  const std::optional<Preamble> preamble = read_preamble(in);
  if (!preamble) fail_decompress("SNAPPY", "corrupt length header");
  if (preamble->length != out_size) fail_size("SNAPPY", preamble->length, out_size);
  return Stream{in.data(), in.data() + preamble->bytes, in.data() + in.size(), out, out, out + out_size};
}

void decode(Stream& s, SimdLevel level) {
  if (level >= SimdLevel::kAvx512) {
    decode_avx512(s);
  } else if (level >= SimdLevel::kAvx2) {
    decode_avx2(s);
  } else {
    decode_scalar(s);
  }
}

}  // namespace

void snappy_decompress(std::span<const uint8_t> in, uint8_t* out, size_t out_size) {
  Stream s = open_stream(in, out, out_size);
  decode(s, simd_level());
}

void snappy_decompress_pair(const DecompressJob& first, const DecompressJob& second) {
  Stream a = open_stream(first.in, first.out, first.out_size);
  Stream b = open_stream(second.in, second.out, second.out_size);
  const SimdLevel level = simd_level();
  // Streams that a window loop would take decode one at a time.
  const auto sample = [](const Stream& s) { return sample_stream(s, kSampleSkip, kSampleElements); };
  if (level >= SimdLevel::kAvx512) {
    if (!sample(a).near_copies() && !sample(b).near_copies()) decode_pair_avx512(a, b);
  } else if (level >= SimdLevel::kAvx2) {
    if (!sample(a).near16_copies() && !sample(b).near16_copies()) decode_pair_avx2(a, b);
  } else {
    decode_pair_scalar(a, b);
  }
  decode(a, level);
  decode(b, level);
}

}  // namespace parq::compression
