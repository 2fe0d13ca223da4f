// Export of RecordBatches and their schemas through the Arrow C Data
// Interface: the Parquet -> Arrow type decision (shared by the schema and the
// array so the two never disagree), the conversions where parq keeps
// Parquet's storage, and the ownership behind the release callbacks.
#include "parq/arrow/c_export.h"

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "parq/error.h"
#include "parq/util/cpu.h"
#include "util/bits.h"

// GCC 12 flags the deliberately undefined source operand inside its own
// AVX-512 intrinsics.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace parq {
namespace {

static_assert(std::endian::native == std::endian::little,
              "Arrow buffers are exported as parq holds them, which assumes a little-endian host");

using format::Type;

// Consumers read length + 1 offsets even at length 0, and some reject NULL
// data pointers; empty buffers point here instead.
alignas(64) const uint8_t kZeros[64] = {};
const void* const kNoBuffers[1] = {nullptr};

constexpr int kMaxDecimal128Digits = 38;
constexpr int kMaxDecimal256Digits = 76;

[[noreturn]] void fail(const Array& a, const std::string& what) {
  throw Error("Arrow export: column '" + a.name + "': " + what, ErrorKind::kUnsupported);
}

// ---------------------------------------------------------------------------
// Type decision.

// How a leaf's Parquet storage becomes its Arrow layout.
enum class Conversion {
  kShare,     // fixed-width values are already Arrow's
  kBoolean,   // bit-packed values are already Arrow's
  kBinary,    // offsets and bytes are already Arrow's
  kNull,      // Arrow's null type has no buffers
  kNarrow8,   // INT(8) held in 4 bytes
  kNarrow16,  // INT(16) held in 4 bytes
  kDecimal,   // unscaled INT32/INT64 or big-endian bytes -> little endian
  kInt96,     // nanos-of-day + Julian day -> nanos since the epoch
  kInterval,  // 3 x uint32 -> month_day_nano
};

struct LeafType {
  std::string format;
  Conversion conversion = Conversion::kShare;
  int32_t width = 0;  // Arrow bytes per slot for the fixed-width conversions
  bool uuid = false;
};

char unit_letter(const format::TimeUnit& unit) {
  if (unit.MILLIS) return 'm';
  if (unit.MICROS) return 'u';
  if (unit.NANOS) return 'n';
  return 0;
}

// Null when the precision has no Arrow decimal: the caller falls back to
// the storage type so no value is lost.
std::optional<LeafType> decimal_type(const format::DecimalType& d) {
  if (d.precision < 1 || d.precision > kMaxDecimal256Digits) return std::nullopt;
  bool wide = d.precision > kMaxDecimal128Digits;
  std::string format = "d:" + std::to_string(d.precision) + "," + std::to_string(d.scale) + (wide ? ",256" : "");
  return LeafType{format, Conversion::kDecimal, wide ? 32 : 16};
}

LeafType int32_type(const format::LogicalType& l) {
  if (l.DECIMAL) {
    if (auto d = decimal_type(*l.DECIMAL)) return *d;
  }
  if (l.DATE) return {"tdD"};
  if (l.TIME && unit_letter(l.TIME->unit) == 'm') return {"ttm"};
  if (l.INTEGER) {
    bool s = l.INTEGER->is_signed;
    if (l.INTEGER->bit_width == 8) return {s ? "c" : "C", Conversion::kNarrow8, 1};
    if (l.INTEGER->bit_width == 16) return {s ? "s" : "S", Conversion::kNarrow16, 2};
    return {s ? "i" : "I"};
  }
  return {"i"};
}

LeafType int64_type(const format::LogicalType& l) {
  if (l.DECIMAL) {
    if (auto d = decimal_type(*l.DECIMAL)) return *d;
  }
  if (l.TIME) {
    char unit = unit_letter(l.TIME->unit);
    if (unit == 'u' || unit == 'n') return {std::string("tt") + unit};
  }
  if (l.TIMESTAMP) {
    if (char unit = unit_letter(l.TIMESTAMP->unit)) {
      return {std::string("ts") + unit + ":" + (l.TIMESTAMP->is_adjusted_to_utc ? "UTC" : "")};
    }
  }
  if (l.INTEGER && !l.INTEGER->is_signed) return {"L"};
  return {"l"};
}

LeafType byte_array_type(const format::LogicalType& l) {
  if (l.STRING || l.ENUM || l.JSON) return {"u", Conversion::kBinary};
  if (l.DECIMAL) {
    if (auto d = decimal_type(*l.DECIMAL)) return *d;
  }
  return {"z", Conversion::kBinary};
}

LeafType fixed_type(const ValueType& t) {
  const format::LogicalType& l = t.logical;
  if (l.DECIMAL) {
    if (auto d = decimal_type(*l.DECIMAL)) return *d;
  }
  if (l.FLOAT16 && t.type_length == 2) return {"e"};
  if (t.converted == format::ConvertedType::INTERVAL && t.type_length == 12) {
    return {"tin", Conversion::kInterval, 16};
  }
  LeafType w{"w:" + std::to_string(t.type_length)};
  w.uuid = l.UUID && t.type_length == 16;
  return w;
}

LeafType leaf_type(const ValueType& t) {
  if (t.logical.UNKNOWN) return {"n", Conversion::kNull};
  switch (t.physical) {
    case Type::BOOLEAN:
      return {"b", Conversion::kBoolean};
    case Type::INT32:
      return int32_type(t.logical);
    case Type::INT64:
      return int64_type(t.logical);
    case Type::INT96:
      return {"tsn:", Conversion::kInt96, 8};
    case Type::FLOAT:
      return {"f"};
    case Type::DOUBLE:
      return {"g"};
    case Type::BYTE_ARRAY:
      return byte_array_type(t.logical);
    case Type::FIXED_LEN_BYTE_ARRAY:
      return fixed_type(t);
  }
  throw Error("Arrow export: unknown physical type " + std::to_string(static_cast<int>(t.physical)));
}

// ---------------------------------------------------------------------------
// Schema.

// The schema as plain values first, so that building it may throw freely
// before any C structure exists.
struct Field {
  std::string format;
  std::string name;
  std::string metadata;
  int64_t flags = ARROW_FLAG_NULLABLE;
  std::vector<Field> children;
};

void append_int32(std::string& out, int32_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

// The C Data Interface's binary key/value encoding.
std::string encode_metadata(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out;
  append_int32(out, static_cast<int32_t>(pairs.size()));
  for (const auto& [key, value] : pairs) {
    append_int32(out, static_cast<int32_t>(key.size()));
    out += key;
    append_int32(out, static_cast<int32_t>(value.size()));
    out += value;
  }
  return out;
}

Field describe(const Array& a);

Field describe_leaf(const Array& a) {
  LeafType t = leaf_type(a.type);
  Field f{t.format, a.name};
  if (t.uuid) f.metadata = encode_metadata({{"ARROW:extension:name", "arrow.uuid"}, {"ARROW:extension:metadata", ""}});
  return f;
}

Field describe_map(const Array& a) {
  if (a.children.empty() || a.children.size() > 2) fail(a, "a map needs keys and at most one values child");
  Field key = describe(a.children[0]);
  key.name = "key";
  key.flags = 0;  // Arrow map keys are never null
  Field value = a.children.size() == 2 ? describe(a.children[1]) : Field{"n"};
  value.name = "value";
  Field entries{"+s", "entries", "", 0};
  entries.children.push_back(std::move(key));
  entries.children.push_back(std::move(value));
  Field f{"+m", a.name};
  f.children.push_back(std::move(entries));
  return f;
}

Field describe(const Array& a) {
  switch (a.kind) {
    case ArrayKind::kLeaf:
      return describe_leaf(a);
    case ArrayKind::kStruct: {
      Field f{"+s", a.name};
      for (const Array& c : a.children) f.children.push_back(describe(c));
      // An unshredded VARIANT is the canonical extension type of the same
      // layout; a shredded one stays a plain struct of what the file holds.
      const bool unshredded =
          a.children.size() == 2 && a.children[0].name == "metadata" && a.children[1].name == "value";
      if (a.type.logical.VARIANT && unshredded)
        f.metadata =
            encode_metadata({{"ARROW:extension:name", "arrow.parquet.variant"}, {"ARROW:extension:metadata", ""}});
      return f;
    }
    case ArrayKind::kList: {
      if (a.children.size() != 1) fail(a, "a list needs exactly one child");
      Field f{"+l", a.name};
      f.children.push_back(describe(a.children[0]));
      if (f.children[0].name.empty()) f.children[0].name = "item";
      return f;
    }
    case ArrayKind::kMap:
      return describe_map(a);
  }
  fail(a, "unknown array kind");
}

// private_data of every exported ArrowSchema.
struct SchemaNode {
  std::string format, name, metadata;
  std::unique_ptr<ArrowSchema[]> children;
  std::vector<ArrowSchema*> child_pointers;
  // Releases the children the consumer has not moved out; this also undoes
  // a half-built tree when an allocation fails.
  ~SchemaNode() {
    for (ArrowSchema* c : child_pointers) {
      if (c->release != nullptr) c->release(c);
    }
  }
};

void release_schema(ArrowSchema* schema) {
  delete static_cast<SchemaNode*>(schema->private_data);
  schema->release = nullptr;
}

void publish(Field&& f, ArrowSchema* out) {
  auto node = std::make_unique<SchemaNode>();
  node->format = std::move(f.format);
  node->name = std::move(f.name);
  node->metadata = std::move(f.metadata);
  size_t n = f.children.size();
  node->children = std::make_unique<ArrowSchema[]>(n);  // value-initialised: release == nullptr
  node->child_pointers.reserve(n);                      // a published child must always be found by ~SchemaNode
  for (size_t i = 0; i < n; ++i) {
    publish(std::move(f.children[i]), &node->children[i]);
    node->child_pointers.push_back(&node->children[i]);
  }
  *out = ArrowSchema{};
  out->format = node->format.c_str();
  out->name = node->name.c_str();
  out->metadata = node->metadata.empty() ? nullptr : node->metadata.data();
  out->flags = f.flags;
  out->n_children = static_cast<int64_t>(n);
  out->children = node->child_pointers.data();
  out->release = release_schema;
  out->private_data = node.release();
}

// ---------------------------------------------------------------------------
// Arrays: checks that the buffers cover what the lengths claim, so a bad
// batch fails here rather than in the consumer.

// `scan`: whether to check that no offset decreases; arrays a reader built
// have them in order by construction, and the scan reads every offset.
int64_t checked_offset_end(const Array& a, int64_t limit, const char* what, bool scan) {
  if (a.length == 0 && a.offsets.empty()) return 0;
  if (a.offsets.size() < static_cast<size_t>(a.length + 1) * 4) fail(a, "offsets shorter than length + 1");
  const int32_t* o = a.offsets_data();
  if (o[0] < 0) fail(a, "negative first offset");
  if (!scan) {
    if (o[a.length] < o[0] || o[a.length] > limit) fail(a, std::string("offsets run past the ") + what);
    return o[a.length];
  }
  // A branch per offset keeps the loop from vectorizing: whole blocks (a
  // trip count the compiler knows) fold their comparisons first.
  constexpr int64_t kBlock = 1024;
  int64_t begin = 0;
  for (; begin + kBlock <= a.length; begin += kBlock) {
    const int32_t* block = o + begin;
    int decreasing = 0;
    for (int64_t i = 0; i < kBlock; ++i) decreasing |= static_cast<int>(block[i + 1] < block[i]);
    if (decreasing != 0) fail(a, "decreasing offsets");
  }
  for (int64_t i = begin; i < a.length; ++i) {
    if (o[i + 1] < o[i]) fail(a, "decreasing offsets");
  }
  if (o[a.length] > limit) fail(a, std::string("offsets run past the ") + what);
  return o[a.length];
}

void check_validity(const Array& a) {
  if (a.length < 0) fail(a, "negative length");
  if (!a.validity.empty() && a.validity.size() < static_cast<size_t>((a.length + 7) / 8)) {
    fail(a, "validity bitmap shorter than length");
  }
}

void check_values(const Array& a, size_t bytes_per_slot) {
  if (a.values.size() < static_cast<size_t>(a.length) * bytes_per_slot) fail(a, "values shorter than length");
}

void check_leaf(const Array& a, const LeafType& t, bool scan) {
  switch (t.conversion) {
    case Conversion::kNull:
      return;
    case Conversion::kBoolean:
      if (a.values.size() < static_cast<size_t>((a.length + 7) / 8)) fail(a, "values shorter than length");
      return;
    case Conversion::kBinary:
      checked_offset_end(a, static_cast<int64_t>(a.values.size()), "values", scan);
      return;
    default:
      if (a.type.physical == Type::BYTE_ARRAY) {
        checked_offset_end(a, static_cast<int64_t>(a.values.size()), "values", scan);
      } else {
        if (a.value_width() <= 0) fail(a, "fixed-width column without a width");
        check_values(a, static_cast<size_t>(a.value_width()));
      }
  }
}

int64_t count_nulls(const Buffer& validity, int64_t length) {
  if (validity.empty()) return 0;
  return length - count_set_bits(validity.data(), 0, length);
}

// ---------------------------------------------------------------------------
// Conversions into fresh buffers.

template <class T>
Buffer narrow(const Array& a) {
  Buffer out(static_cast<size_t>(a.length) * sizeof(T));
  const int32_t* in = a.values.data_as<int32_t>();
  T* o = out.data_as<T>();
  for (int64_t i = 0; i < a.length; ++i) o[i] = static_cast<T>(in[i]);
  return out;
}

// Unscaled INT32/INT64 values sign-extended into little-endian words of
// `Words` 64-bit words each: a loop the compiler vectorizes, with no
// per-value call.
template <class T, int Words>
void widen_decimals_scalar(const T* in, int64_t n, uint8_t* out) {
  auto* o = reinterpret_cast<uint64_t*>(out);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = in[i];
    o[i * Words] = static_cast<uint64_t>(v);
    for (int w = 1; w < Words; ++w) o[i * Words + w] = static_cast<uint64_t>(v >> 63);
  }
}

// At and above this many output bytes the widening stores bypass the
// caches: the result is far larger than what they keep, and it is the
// consumer's, read later if at all, so loading each line before writing
// it (as plain stores do) only doubles the memory traffic.
constexpr int64_t kStreamingBytes = int64_t{512} << 10;

// Whether `n` values widened to 128 bits at `out` take streaming stores,
// which need whole aligned lines (a Buffer's start is one).
inline bool streams_widened(int64_t n, const uint8_t* out) {
  return n * 16 >= kStreamingBytes && (reinterpret_cast<uintptr_t>(out) & 63) == 0;
}

// Into 128-bit words: eight values at a time interleaved with their sign
// words by one permute per output vector.
template <class T>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,bmi2"))) void widen_decimals_to_128_avx512(const T* in,
                                                                                                       int64_t n,
                                                                                                       uint8_t* out) {
  auto* o = reinterpret_cast<uint64_t*>(out);
  const bool streaming = streams_widened(n, out);
  int64_t i = 0;
  const __m512i low_half = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
  const __m512i high_half = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
  for (; i + 8 <= n; i += 8) {
    __m512i v;
    if constexpr (sizeof(T) == 4) {
      v = _mm512_cvtepi32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i)));
    } else {
      v = _mm512_loadu_si512(in + i);
    }
    const __m512i sign = _mm512_srai_epi64(v, 63);
    const __m512i low = _mm512_permutex2var_epi64(v, low_half, sign);
    const __m512i high = _mm512_permutex2var_epi64(v, high_half, sign);
    if (streaming) {
      _mm512_stream_si512(reinterpret_cast<__m512i*>(o + 2 * i), low);
      _mm512_stream_si512(reinterpret_cast<__m512i*>(o + 2 * i + 8), high);
    } else {
      _mm512_storeu_si512(o + 2 * i, low);
      _mm512_storeu_si512(o + 2 * i + 8, high);
    }
  }
  if (streaming) _mm_sfence();
  widen_decimals_scalar<T, 2>(in + i, n - i, out + 16 * i);
}

// Into 128-bit words, four values at a time: AVX2 has no 64-bit arithmetic
// shift, so the sign words come from a compare, and two lane permutes put
// each value beside its sign word.
template <class T>
__attribute__((target("avx2,bmi2"))) void widen_decimals_to_128_avx2(const T* in, int64_t n, uint8_t* out) {
  auto* o = reinterpret_cast<uint64_t*>(out);
  const bool streaming = streams_widened(n, out);
  const __m256i zero = _mm256_setzero_si256();
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    __m256i v;
    if constexpr (sizeof(T) == 4) {
      v = _mm256_cvtepi32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i)));
    } else {
      v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    }
    const __m256i sign = _mm256_cmpgt_epi64(zero, v);
    const __m256i even = _mm256_unpacklo_epi64(v, sign);  // v0 s0 | v2 s2
    const __m256i odd = _mm256_unpackhi_epi64(v, sign);   // v1 s1 | v3 s3
    const __m256i first = _mm256_permute2x128_si256(even, odd, 0x20);
    const __m256i second = _mm256_permute2x128_si256(even, odd, 0x31);
    if (streaming) {
      _mm256_stream_si256(reinterpret_cast<__m256i*>(o + 2 * i), first);
      _mm256_stream_si256(reinterpret_cast<__m256i*>(o + 2 * i + 4), second);
    } else {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 2 * i), first);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 2 * i + 4), second);
    }
  }
  if (streaming) _mm_sfence();
  widen_decimals_scalar<T, 2>(in + i, n - i, out + 16 * i);
}

template <class T>
void widen_decimals(const T* in, int64_t n, uint8_t* out, int width) {
  if (width == 16) {
    if (simd_level() == SimdLevel::kAvx512) return widen_decimals_to_128_avx512(in, n, out);
    if (simd_level() == SimdLevel::kAvx2) return widen_decimals_to_128_avx2(in, n, out);
    widen_decimals_scalar<T, 2>(in, n, out);
  } else {
    widen_decimals_scalar<T, 4>(in, n, out);
  }
}

// Big-endian two's complement of any length -> `width` bytes little endian.
// Bytes beyond `width` must be sign extension, else the value does not fit.
bool store_big_endian(uint8_t* out, const uint8_t* in, size_t n, int width) {
  uint8_t sign = n > 0 && (in[0] & 0x80) ? 0xFF : 0x00;
  std::memset(out, sign, width);
  size_t kept = std::min(n, static_cast<size_t>(width));
  for (size_t i = 0; i < kept; ++i) out[i] = in[n - 1 - i];
  for (size_t i = 0; i < n - kept; ++i) {
    if (in[i] != sign) return false;
  }
  return (out[width - 1] & 0x80) == (sign & 0x80);
}

// Big-endian two's complement of `n` bytes (1..16) at `in`, sign-extended
// into a little-endian 128-bit word at `out`. Reads the 8 bytes at `in`
// and, past 8 bytes, the 8 ending at `in + n`: the caller keeps both
// inside the buffer.
inline void store_big_endian_128(uint8_t* out, const uint8_t* in, int n) {
  uint64_t head;
  std::memcpy(&head, in, 8);
  const int64_t top = static_cast<int64_t>(__builtin_bswap64(head));
  uint64_t low, high;
  if (n <= 8) {
    low = static_cast<uint64_t>(top >> (64 - 8 * n));
    high = static_cast<uint64_t>(top >> 63);
  } else {
    uint64_t tail;
    std::memcpy(&tail, in + n - 8, 8);
    low = __builtin_bswap64(tail);
    high = static_cast<uint64_t>(top >> (128 - 8 * n));
  }
  std::memcpy(out, &low, 8);
  std::memcpy(out + 8, &high, 8);
}

// The words of `length` values of n bytes: the first `fast` by word loads,
// the rest byte by byte. A width template keeps the sign fill of 256-bit
// words out of the 128-bit loop rather than a branch per value.
template <int kWidth>
void store_short_flba_words(const uint8_t* in, int n, int64_t fast, int64_t length, uint8_t* out) {
  // A 256-bit word's upper half is the sign of its lower, filled as each
  // value is stored rather than in a second pass.
  auto extend = [](uint8_t* o) {
    if constexpr (kWidth == 32) std::memset(o + 16, o[15] & 0x80 ? 0xFF : 0x00, 16);
  };
  for (int64_t i = 0; i < fast; ++i) {
    store_big_endian_128(out + i * kWidth, in + i * n, n);
    extend(out + i * kWidth);
  }
  for (int64_t i = fast; i < length; ++i) {
    store_big_endian(out + i * kWidth, in + i * n, n, 16);
    extend(out + i * kWidth);
  }
}

// FIXED_LEN_BYTE_ARRAY decimals no longer than the output word always fit
// it, so no value needs a range check: one byte swap per word, where the
// byte-by-byte path costs several times as much (pyarrow writes decimals
// this way by default). Null slots export as 0, like the other paths.
void convert_short_flba_decimals(const Array& a, int width, uint8_t* out) {
  const int n = a.type.type_length;
  // check_leaf has made sure the values hold length * n bytes; the first
  // word's 8-byte load must stay inside them.
  const uint8_t* in = a.values.data();
  const int64_t fast = n >= 8 ? a.length : std::max<int64_t>(0, a.length - (8 + n - 1) / n);
  if (width == 32) {
    store_short_flba_words<32>(in, n, fast, a.length, out);
  } else {
    store_short_flba_words<16>(in, n, fast, a.length, out);
  }
  if (!a.validity.empty()) {
    for (int64_t i = 0; i < a.length; ++i) {
      if (!a.is_valid(i)) std::memset(out + i * width, 0, width);
    }
  }
}

Buffer convert_decimal(const Array& a, int width) {
  Buffer out(static_cast<size_t>(a.length) * width);
  uint8_t* o = out.data();
  if (a.type.physical == Type::INT32) {
    widen_decimals(a.values.data_as<int32_t>(), a.length, o, width);
    return out;
  }
  if (a.type.physical == Type::INT64) {
    widen_decimals(a.values.data_as<int64_t>(), a.length, o, width);
    return out;
  }
  if (a.type.physical == Type::FIXED_LEN_BYTE_ARRAY && a.type.type_length >= 1 && a.type.type_length <= 16) {
    convert_short_flba_decimals(a, width, o);
    return out;
  }
  for (int64_t i = 0; i < a.length; ++i, o += width) {
    // Null slots may hold anything in a fixed-width column; they export as 0.
    if (!a.is_valid(i)) {
      std::memset(o, 0, width);
      continue;
    }
    const uint8_t* in;
    size_t n;
    if (a.type.physical == Type::BYTE_ARRAY) {
      in = a.values.data() + a.offsets_data()[i];
      n = static_cast<size_t>(a.offsets_data()[i + 1] - a.offsets_data()[i]);
    } else {
      n = static_cast<size_t>(a.type.type_length);
      in = a.values.data() + i * n;
    }
    if (!store_big_endian(o, in, n, width))
      fail(a, "decimal value too wide for its precision at slot " + std::to_string(i));
  }
  return out;
}

// Wraps around outside 1677..2262 like Arrow C++: unsigned arithmetic makes
// the overflow defined.
Buffer convert_int96(const Array& a) {
  constexpr int64_t kJulianDayOfEpoch = 2440588;
  constexpr uint64_t kNanosPerDay = 86400ull * 1000 * 1000 * 1000;
  Buffer out(static_cast<size_t>(a.length) * 8);
  const uint8_t* in = a.values.data();
  int64_t* o = out.data_as<int64_t>();
  for (int64_t i = 0; i < a.length; ++i, in += 12) {
    uint64_t nanos_of_day;
    uint32_t julian_day;
    std::memcpy(&nanos_of_day, in, 8);
    std::memcpy(&julian_day, in + 8, 4);
    uint64_t days = static_cast<uint64_t>(static_cast<int64_t>(julian_day) - kJulianDayOfEpoch);
    o[i] = static_cast<int64_t>(days * kNanosPerDay + nanos_of_day);
  }
  return out;
}

Buffer convert_interval(const Array& a) {
  Buffer out(static_cast<size_t>(a.length) * 16);
  const uint8_t* in = a.values.data();
  uint8_t* o = out.data();
  for (int64_t i = 0; i < a.length; ++i, in += 12, o += 16) {
    uint32_t months, days, millis;
    std::memcpy(&months, in, 4);
    std::memcpy(&days, in + 4, 4);
    std::memcpy(&millis, in + 8, 4);
    int64_t nanos = static_cast<int64_t>(millis) * 1000000;
    std::memcpy(o, &months, 4);  // reinterpreted as int32, see c_export.h
    std::memcpy(o + 4, &days, 4);
    std::memcpy(o + 8, &nanos, 8);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Array nodes.

// private_data of every exported ArrowArray: the buffers it points into and
// its children's structures.
struct ArrayNode {
  std::vector<Buffer> owned;
  std::vector<const void*> buffers;
  std::unique_ptr<ArrowArray[]> children;
  std::vector<ArrowArray*> child_pointers;

  const void* keep(Buffer&& b) {
    if (b.empty()) return kZeros;
    owned.push_back(std::move(b));
    return std::as_const(owned.back()).data();  // views stay views
  }
  ~ArrayNode() {
    for (ArrowArray* c : child_pointers) {
      if (c->release != nullptr) c->release(c);
    }
  }
};

void release_array(ArrowArray* array) {
  delete static_cast<ArrayNode*>(array->private_data);
  array->release = nullptr;
}

void finish(std::unique_ptr<ArrayNode> node, int64_t length, int64_t null_count, ArrowArray* out) {
  *out = ArrowArray{};
  out->length = length;
  out->null_count = null_count;
  out->n_buffers = static_cast<int64_t>(node->buffers.size());
  out->buffers = node->buffers.empty() ? const_cast<const void**>(kNoBuffers) : node->buffers.data();
  out->n_children = static_cast<int64_t>(node->child_pointers.size());
  out->children = node->child_pointers.data();
  out->release = release_array;
  out->private_data = node.release();
}

void make_children(ArrayNode& node, size_t n) {
  node.children = std::make_unique<ArrowArray[]>(n);  // value-initialised: release == nullptr
  node.child_pointers.reserve(n);
}

ArrowArray* next_child(ArrayNode& node) {
  ArrowArray* c = &node.children[node.child_pointers.size()];
  node.child_pointers.push_back(c);
  return c;
}

// Pushes the validity pointer (NULL without nulls) and returns the null count.
int64_t push_validity(ArrayNode& node, Array& a) {
  check_validity(a);
  int64_t nulls = count_nulls(a.validity, a.length);
  node.buffers.push_back(nulls == 0 ? nullptr : node.keep(std::move(a.validity)));
  return nulls;
}

void export_array(Array&& a, ArrowArray* out, bool scan);

void export_null(int64_t length, ArrowArray* out) { finish(std::make_unique<ArrayNode>(), length, length, out); }

Buffer converted_values(const Array& a, const LeafType& t) {
  switch (t.conversion) {
    case Conversion::kNarrow8:
      return narrow<int8_t>(a);
    case Conversion::kNarrow16:
      return narrow<int16_t>(a);
    case Conversion::kDecimal:
      return convert_decimal(a, t.width);
    case Conversion::kInt96:
      return convert_int96(a);
    case Conversion::kInterval:
      return convert_interval(a);
    default:
      return {};
  }
}

void export_leaf(Array&& a, ArrowArray* out, bool scan) {
  LeafType t = leaf_type(a.type);
  if (t.conversion == Conversion::kNull) return export_null(a.length, out);
  check_validity(a);
  check_leaf(a, t, scan);
  // Before the bitmap moves into the export: decimals read it to skip null slots.
  Buffer converted = converted_values(a, t);
  auto node = std::make_unique<ArrayNode>();
  int64_t nulls = push_validity(*node, a);
  switch (t.conversion) {
    case Conversion::kShare:
    case Conversion::kBoolean:
      node->buffers.push_back(node->keep(std::move(a.values)));
      break;
    case Conversion::kBinary:
      node->buffers.push_back(node->keep(std::move(a.offsets)));
      node->buffers.push_back(node->keep(std::move(a.values)));
      break;
    default:
      node->buffers.push_back(node->keep(std::move(converted)));
  }
  finish(std::move(node), a.length, nulls, out);
}

void export_struct(Array&& a, ArrowArray* out, bool scan) {
  auto node = std::make_unique<ArrayNode>();
  int64_t nulls = push_validity(*node, a);
  make_children(*node, a.children.size());
  for (Array& c : a.children) {
    if (c.length < a.length) fail(a, "struct child '" + c.name + "' shorter than the struct");
    export_array(std::move(c), next_child(*node), scan);
  }
  finish(std::move(node), a.length, nulls, out);
}

void export_list(Array&& a, ArrowArray* out, bool scan) {
  if (a.children.size() != 1) fail(a, "a list needs exactly one child");
  checked_offset_end(a, a.children[0].length, "elements", scan);
  auto node = std::make_unique<ArrayNode>();
  int64_t nulls = push_validity(*node, a);
  node->buffers.push_back(node->keep(std::move(a.offsets)));
  make_children(*node, 1);
  export_array(std::move(a.children[0]), next_child(*node), scan);
  finish(std::move(node), a.length, nulls, out);
}

// The entries struct has no buffers of its own: it only pairs keys and values.
void export_entries(Array& keys, Array* values, ArrowArray* out, bool scan) {
  auto node = std::make_unique<ArrayNode>();
  node->buffers.push_back(nullptr);
  make_children(*node, 2);
  int64_t length = keys.length;
  export_array(std::move(keys), next_child(*node), scan);
  if (values != nullptr) {
    export_array(std::move(*values), next_child(*node), scan);
  } else {
    export_null(length, next_child(*node));
  }
  finish(std::move(node), length, 0, out);
}

void export_map(Array&& a, ArrowArray* out, bool scan) {
  if (a.children.empty() || a.children.size() > 2) fail(a, "a map needs keys and at most one values child");
  Array* values = a.children.size() == 2 ? &a.children[1] : nullptr;
  if (values != nullptr && values->length != a.children[0].length) fail(a, "keys and values differ in length");
  checked_offset_end(a, a.children[0].length, "entries", scan);
  // Arrow declares map keys non-nullable; a consumer may skip their bitmap.
  check_validity(a.children[0]);
  if (count_nulls(a.children[0].validity, a.children[0].length) != 0) fail(a, "null map key");
  auto node = std::make_unique<ArrayNode>();
  int64_t nulls = push_validity(*node, a);
  node->buffers.push_back(node->keep(std::move(a.offsets)));
  make_children(*node, 1);
  export_entries(a.children[0], values, next_child(*node), scan);
  finish(std::move(node), a.length, nulls, out);
}

void export_array(Array&& a, ArrowArray* out, bool scan) {
  switch (a.kind) {
    case ArrayKind::kLeaf:
      return export_leaf(std::move(a), out, scan);
    case ArrayKind::kStruct:
      return export_struct(std::move(a), out, scan);
    case ArrayKind::kList:
      return export_list(std::move(a), out, scan);
    case ArrayKind::kMap:
      return export_map(std::move(a), out, scan);
  }
  fail(a, "unknown array kind");
}

}  // namespace

void export_schema(const RecordBatch& prototype, ArrowSchema* out) {
  Field root{"+s", "", "", 0};
  for (const Array& c : prototype.columns) root.children.push_back(describe(c));
  publish(std::move(root), out);
}

void export_batch(RecordBatch&& batch, ArrowArray* out, bool offsets_ordered) {
  // Consumed here, so that buffers replaced by conversions are freed now
  // rather than whenever the caller drops its moved-from batch.
  RecordBatch owned = std::move(batch);
  Array root;
  root.kind = ArrayKind::kStruct;
  root.length = owned.num_rows;
  root.children = std::move(owned.columns);
  ArrowArray exported;
  export_struct(std::move(root), &exported, !offsets_ordered);
  *out = exported;
}

}  // namespace parq
