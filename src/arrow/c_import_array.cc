// Arrow arrays -> parq Arrays, following an ImportPlan. Every node is read
// through a slice [begin, begin + length) of its logical slots; the array's
// own offset is added on top, and struct children inherit the slice, so
// offsets at every level of the tree are honoured. The producer's buffers
// carry no sizes, so what can be checked is checked: lengths, offsets that
// must be monotonic and stay inside their child, dictionary indices.
#include <bit>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "c_import_plan.h"
#include "parq/arrow/c_import.h"
#include "parq/error.h"
#include "util/bits.h"

namespace parq::arrow_import {
namespace {

static_assert(std::endian::native == std::endian::little,
              "Arrow buffers are read as native integers, which assumes a little-endian host");

using format::Type;

constexpr int64_t kMaxOffset = std::numeric_limits<int32_t>::max();

[[noreturn]] void fail(const ImportNode& n, const std::string& what) {
  throw Error("Arrow import: column '" + n.path + "' (format '" + n.format + "'): " + what,
              ErrorKind::kInvalidArgument);
}

std::string slot(int64_t i) { return " at slot " + std::to_string(i); }

// ---------------------------------------------------------------------------
// Bitmaps.

// Bits [start, start + length) of `src`, moved down to bit 0; the unused
// bits of the last byte are zero, so whole bytes can be counted.
Buffer copy_bits(const uint8_t* src, int64_t start, int64_t length) {
  const size_t out_bytes = static_cast<size_t>((length + 7) / 8);
  Buffer out(out_bytes);
  if (out_bytes == 0) return out;
  const uint8_t* from = src + start / 8;
  const int shift = static_cast<int>(start % 8);
  uint8_t* o = out.data();
  if (shift == 0) {
    std::memcpy(o, from, out_bytes);
  } else {
    // The source byte after the last one needed may not exist.
    const size_t src_bytes = static_cast<size_t>((shift + length + 7) / 8);
    for (size_t j = 0; j < out_bytes; ++j) {
      uint8_t hi = j + 1 < src_bytes ? static_cast<uint8_t>(from[j + 1] << (8 - shift)) : 0;
      o[j] = static_cast<uint8_t>(from[j] >> shift) | hi;
    }
  }
  if (int rest = static_cast<int>(length % 8)) o[out_bytes - 1] &= static_cast<uint8_t>((1u << rest) - 1);
  return out;
}

int64_t count_set(const Buffer& bits) { return count_set_bits(bits.data(), 0, static_cast<int64_t>(bits.size()) * 8); }

void set_validity(Array& out, Buffer bits) {
  int64_t nulls = out.length - count_set(bits);
  if (nulls == 0) return;  // parq leaves the bitmap out when nothing is null
  out.validity = std::move(bits);
  out.null_count = nulls;
}

// ---------------------------------------------------------------------------
// Checks and buffers.

void check_array(const ImportNode& n, const ArrowArray* a, int64_t begin, int64_t length) {
  if (a == nullptr || a->release == nullptr) fail(n, "the array is missing or released");
  if (a->length < 0 || a->offset < 0 || a->offset > std::numeric_limits<int64_t>::max() - a->length)
    fail(n, "negative or overflowing length or offset");
  if (begin < 0 || length < 0 || begin > a->length - length)
    fail(n, "slots [" + std::to_string(begin) + ", " + std::to_string(begin + length) + ") are outside its length " +
                std::to_string(a->length));
  if (a->n_buffers < 0 || (a->n_buffers > 0 && a->buffers == nullptr)) fail(n, "the buffers are missing");
  if (a->n_children < 0 || (a->n_children > 0 && a->children == nullptr)) fail(n, "the children are missing");
}

void expect_shape(const ImportNode& n, const ArrowArray* a, int64_t buffers, int64_t children) {
  if (a->n_buffers != buffers)
    fail(n, "has " + std::to_string(a->n_buffers) + " buffers where " + std::to_string(buffers) + " are expected");
  if (a->n_children != children)
    fail(n, "has " + std::to_string(a->n_children) + " children where " + std::to_string(children) + " are expected");
}

// A buffer the slice needs (producers may leave buffers of empty arrays NULL).
const uint8_t* data(const ImportNode& n, const ArrowArray* a, int64_t i) {
  const void* p = a->buffers[i];
  if (p == nullptr) fail(n, "buffer " + std::to_string(i) + " is missing");
  return static_cast<const uint8_t*>(p);
}

void import_validity(const ImportNode& n, const ArrowArray* a, int64_t start, Array& out) {
  if (a->null_count == 0 || out.length == 0) return;
  const void* bitmap = a->n_buffers > 0 ? a->buffers[0] : nullptr;
  if (bitmap == nullptr) {
    if (a->null_count > 0) fail(n, "has nulls but no validity buffer");
    return;  // null_count -1 without a bitmap: nothing is null
  }
  set_validity(out, copy_bits(static_cast<const uint8_t*>(bitmap), start, out.length));
}

// ---------------------------------------------------------------------------
// Leaf values. `start` is the first physical slot, offset included.

template <class From>
void widen(const uint8_t* in, int64_t start, Array& out) {
  out.values.resize(static_cast<size_t>(out.length) * 4);
  const From* src = reinterpret_cast<const From*>(in) + start;
  int32_t* o = out.values.data_as<int32_t>();
  for (int64_t i = 0; i < out.length; ++i) o[i] = static_cast<int32_t>(src[i]);
}

// Null slots may hold anything, so they are zeroed rather than converted.
template <class T>
void seconds_to_millis(const ImportNode& n, const uint8_t* in, int64_t start, Array& out) {
  out.values.resize(static_cast<size_t>(out.length) * sizeof(T));
  const T* src = reinterpret_cast<const T*>(in) + start;
  T* o = out.values.data_as<T>();
  for (int64_t i = 0; i < out.length; ++i) {
    if (!out.is_valid(i)) {
      o[i] = 0;
    } else if (__builtin_mul_overflow(src[i], T{1000}, &o[i])) {
      fail(n, "seconds overflow as milliseconds" + slot(i));
    }
  }
}

void millis_to_days(const ImportNode& n, const uint8_t* in, int64_t start, Array& out) {
  constexpr int64_t kMillisPerDay = 86400000;
  out.values.resize(static_cast<size_t>(out.length) * 4);
  const int64_t* src = reinterpret_cast<const int64_t*>(in) + start;
  int32_t* o = out.values.data_as<int32_t>();
  for (int64_t i = 0; i < out.length; ++i) {
    if (!out.is_valid(i)) {
      o[i] = 0;
      continue;
    }
    // Floor, so that a time of day before the epoch stays on its own day.
    int64_t days = src[i] / kMillisPerDay - (src[i] % kMillisPerDay < 0 ? 1 : 0);
    if (days < std::numeric_limits<int32_t>::min() || days > std::numeric_limits<int32_t>::max())
      fail(n, "date out of the DATE range" + slot(i));
    o[i] = static_cast<int32_t>(days);
  }
}

// Little-endian two's complement of `w` bytes -> `k` bytes, little or big
// endian; false when the value needs more than `k` bytes.
bool fit_decimal(const uint8_t* v, int32_t w, uint8_t* o, int32_t k, bool big_endian) {
  const uint8_t sign = (v[w - 1] & 0x80) != 0 ? 0xFF : 0x00;
  if (k < w) {
    for (int32_t j = k; j < w; ++j) {
      if (v[j] != sign) return false;
    }
    if (((v[k - 1] ^ sign) & 0x80) != 0) return false;
  }
  for (int32_t j = 0; j < k; ++j) {
    uint8_t b = j < w ? v[j] : sign;
    o[big_endian ? k - 1 - j : j] = b;
  }
  return true;
}

// Arrow's 128-bit decimals into INT64 or INT32 storage, for arrays without
// nulls (whose slots all must fit): a loop without branches, which the
// compiler vectorizes, where the byte-wise fit_decimal costs a call and a
// loop per value. False when some value does not fit; the caller then finds
// which.
template <class T>
bool narrow_decimal128(const uint8_t* v, int64_t n, T* o) {
  bool fits = true;
  for (int64_t i = 0; i < n; ++i, v += 16) {
    int64_t low, high;
    std::memcpy(&low, v, 8);
    std::memcpy(&high, v + 8, 8);
    const T narrow = static_cast<T>(low);
    fits &= (high == (low >> 63)) & (static_cast<int64_t>(narrow) == low);
    o[i] = narrow;
  }
  return fits;
}

// Parquet keeps INT32/INT64 decimals as integers and FIXED_LEN_BYTE_ARRAY
// ones big endian.
void import_decimal(const ImportNode& n, const uint8_t* in, int64_t start, Array& out) {
  int32_t k = 0;
  bool big_endian = false;
  switch (n.type.physical) {
    case Type::INT32:
      k = 4;
      break;
    case Type::INT64:
      k = 8;
      break;
    case Type::FIXED_LEN_BYTE_ARRAY:
      k = n.type.type_length;
      big_endian = true;
      break;
    default:
      fail(n, "unexpected decimal storage");
  }
  const int32_t w = n.width;
  out.values.resize(static_cast<size_t>(out.length) * k);
  const uint8_t* v = in + start * w;
  uint8_t* o = out.values.data();
  if (w == 16 && out.validity.empty()) {
    if (k == 8 && narrow_decimal128(v, out.length, out.values.data_as<int64_t>())) return;
    if (k == 4 && narrow_decimal128(v, out.length, out.values.data_as<int32_t>())) return;
  }
  for (int64_t i = 0; i < out.length; ++i, v += w, o += k) {
    if (!out.is_valid(i)) {
      std::memset(o, 0, static_cast<size_t>(k));
    } else if (!fit_decimal(v, w, o, k, big_endian)) {
      fail(n, "decimal value wider than its precision allows" + slot(i));
    }
  }
}

void store_interval(uint8_t* o, int64_t months, int64_t days, int64_t millis) {
  uint32_t parts[3] = {static_cast<uint32_t>(months), static_cast<uint32_t>(days), static_cast<uint32_t>(millis)};
  std::memcpy(o, parts, sizeof parts);
}

bool fits_u32(int64_t v) { return v >= 0 && v <= std::numeric_limits<uint32_t>::max(); }

// Parquet's INTERVAL is three unsigned 32-bit counts and has no
// nanoseconds; anything it cannot say exactly is refused.
void import_interval(const ImportNode& n, const uint8_t* in, int64_t start, Array& out) {
  out.values.resize(static_cast<size_t>(out.length) * 12);
  const uint8_t* v = in + start * n.width;
  uint8_t* o = out.values.data();
  for (int64_t i = 0; i < out.length; ++i, v += n.width, o += 12) {
    int32_t months = 0, days = 0;
    int64_t millis = 0;
    if (!out.is_valid(i)) {
      store_interval(o, 0, 0, 0);
      continue;
    }
    if (n.layout == Layout::kYearMonth) {
      std::memcpy(&months, v, 4);
    } else if (n.layout == Layout::kDayTime) {
      int32_t ms;
      std::memcpy(&days, v, 4);
      std::memcpy(&ms, v + 4, 4);
      millis = ms;
    } else {
      int64_t nanos;
      std::memcpy(&months, v, 4);
      std::memcpy(&days, v + 4, 4);
      std::memcpy(&nanos, v + 8, 8);
      if (nanos % 1000000 != 0) fail(n, "interval with a fraction of a millisecond" + slot(i));
      millis = nanos / 1000000;
    }
    if (!fits_u32(months) || !fits_u32(days) || !fits_u32(millis))
      fail(n, "interval part negative or too large for Parquet's unsigned INTERVAL" + slot(i));
    store_interval(o, months, days, millis);
  }
}

template <class Offset>
void import_binary(const ImportNode& n, const ArrowArray* a, int64_t start, Array& out) {
  out.offsets.resize(static_cast<size_t>(out.length + 1) * 4);
  int32_t* o = out.offsets.data_as<int32_t>();
  o[0] = 0;
  if (out.length == 0) return;
  const Offset* src = reinterpret_cast<const Offset*>(data(n, a, 1)) + start;
  const int64_t first = src[0];
  if (first < 0) fail(n, "negative offset");
  for (int64_t i = 0; i < out.length; ++i) {
    if (src[i + 1] < src[i]) fail(n, "decreasing offsets" + slot(i));
    if (src[i + 1] - first > kMaxOffset) fail(n, "more than 2^31 - 1 bytes of values in one batch");
    o[i + 1] = static_cast<int32_t>(src[i + 1] - first);
  }
  const int64_t bytes = src[out.length] - first;
  if (bytes > 0) out.values.assign(data(n, a, 2) + first, static_cast<size_t>(bytes));
}

// Views (Arrow's "vu"/"vz"): length, then the bytes inline up to 12, else a
// prefix, the variadic buffer's index and the offset in it. The last buffer
// holds the variadic buffers' sizes, which bound every view.
void import_binary_view(const ImportNode& n, const ArrowArray* a, int64_t start, Array& out) {
  out.offsets.resize(static_cast<size_t>(out.length + 1) * 4);
  int32_t* o = out.offsets.data_as<int32_t>();
  o[0] = 0;
  if (out.length == 0) return;
  const int64_t variadic = a->n_buffers - 3;
  const uint8_t* views = data(n, a, 1) + start * 16;
  const int64_t* sizes = variadic > 0 ? reinterpret_cast<const int64_t*>(data(n, a, a->n_buffers - 1)) : nullptr;
  for (int64_t i = 0; i < out.length; ++i, views += 16) {
    int32_t size = 0;
    if (out.is_valid(i)) std::memcpy(&size, views, 4);
    if (size < 0) fail(n, "negative view length" + slot(i));
    if (static_cast<int64_t>(out.values.size()) + size > kMaxOffset)
      fail(n, "more than 2^31 - 1 bytes of values in one batch");
    if (size <= 12) {
      out.values.append(views + 4, static_cast<size_t>(size));
    } else {
      int32_t index, offset;
      std::memcpy(&index, views + 8, 4);
      std::memcpy(&offset, views + 12, 4);
      if (index < 0 || index >= variadic || offset < 0 || offset + int64_t{size} > sizes[index])
        fail(n, "view outside its data buffer" + slot(i));
      out.values.append(data(n, a, 2 + index) + offset, static_cast<size_t>(size));
    }
    o[i + 1] = static_cast<int32_t>(out.values.size());
  }
}

void import_null(Array& out) {
  out.values.resize(static_cast<size_t>(out.length) * 4);
  if (out.length == 0) return;
  std::memset(out.values.data(), 0, out.values.size());
  out.validity.resize(static_cast<size_t>((out.length + 7) / 8));
  std::memset(out.validity.data(), 0, out.validity.size());
  out.null_count = out.length;
}

int64_t expected_buffers(Layout layout) {
  switch (layout) {
    case Layout::kNull:
      return 0;
    case Layout::kBinary:
    case Layout::kLargeBinary:
      return 3;
    case Layout::kStruct:
    case Layout::kFixedSizeList:
      return 1;
    default:
      return 2;
  }
}

void check_leaf_shape(const ImportNode& n, const ArrowArray* a) {
  if (n.layout == Layout::kBinaryView) {
    if (a->n_buffers < 3 || a->n_children != 0) fail(n, "a binary view needs at least 3 buffers and no children");
    return;
  }
  // Arrow C++ before 2.0 gave the null type one (validity) buffer.
  if (n.layout == Layout::kNull && a->n_buffers == 1 && a->n_children == 0) return;
  expect_shape(n, a, expected_buffers(n.layout), 0);
}

// The values of a leaf slice, validity already in `out`.
void import_values(const ImportNode& n, const ArrowArray* a, int64_t start, Array& out) {
  if (n.layout == Layout::kNull) return import_null(out);
  if (n.layout == Layout::kBinary) return import_binary<int32_t>(n, a, start, out);
  if (n.layout == Layout::kLargeBinary) return import_binary<int64_t>(n, a, start, out);
  if (n.layout == Layout::kBinaryView) return import_binary_view(n, a, start, out);
  if (out.length == 0) return;
  const uint8_t* in = data(n, a, 1);
  switch (n.layout) {
    case Layout::kBoolean:
      out.values = copy_bits(in, start, out.length);
      return;
    case Layout::kFixed:
      out.values.assign(in + start * n.width, static_cast<size_t>(out.length * n.width));
      return;
    case Layout::kSignExtend:
      return n.width == 1 ? widen<int8_t>(in, start, out) : widen<int16_t>(in, start, out);
    case Layout::kZeroExtend:
      return n.width == 1 ? widen<uint8_t>(in, start, out) : widen<uint16_t>(in, start, out);
    case Layout::kSecondsToMillis32:
      return seconds_to_millis<int32_t>(n, in, start, out);
    case Layout::kSecondsToMillis64:
      return seconds_to_millis<int64_t>(n, in, start, out);
    case Layout::kMillisToDays:
      return millis_to_days(n, in, start, out);
    case Layout::kDecimal:
      return import_decimal(n, in, start, out);
    case Layout::kMonthDayNano:
    case Layout::kYearMonth:
    case Layout::kDayTime:
      return import_interval(n, in, start, out);
    default:
      fail(n, "not a leaf layout");
  }
}

Array leaf_array(const ImportNode& n, int64_t length) {
  Array out;
  out.name = n.name;
  out.type = n.type;
  out.length = length;
  return out;
}

// A leaf without a dictionary.
Array import_plain(const ImportNode& n, const ArrowArray* a, int64_t begin, int64_t length) {
  check_leaf_shape(n, a);
  Array out = leaf_array(n, length);
  const int64_t start = a->offset + begin;
  if (n.layout != Layout::kNull) import_validity(n, a, start, out);
  import_values(n, a, start, out);
  return out;
}

// ---------------------------------------------------------------------------
// Dictionaries: the indices select from the dictionary imported whole.

template <class Index>
void read_indices(const uint8_t* in, int64_t start, std::vector<int64_t>& out) {
  const Index* src = reinterpret_cast<const Index*>(in) + start;
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int64_t>(src[i]);
}

std::vector<int64_t> indices_of(const ImportNode& n, const uint8_t* in, int64_t start, int64_t length) {
  std::vector<int64_t> out(static_cast<size_t>(length));
  switch (n.index_width) {
    case 1:
      n.index_signed ? read_indices<int8_t>(in, start, out) : read_indices<uint8_t>(in, start, out);
      break;
    case 2:
      n.index_signed ? read_indices<int16_t>(in, start, out) : read_indices<uint16_t>(in, start, out);
      break;
    case 4:
      n.index_signed ? read_indices<int32_t>(in, start, out) : read_indices<uint32_t>(in, start, out);
      break;
    default:
      // uint64 indices above INT64_MAX turn negative and fail the range check.
      read_indices<int64_t>(in, start, out);
  }
  return out;
}

// Validity of the result: the index's, and the dictionary value's.
Buffer merged_validity(const Array& dict, const std::vector<int64_t>& idx, const Array& out) {
  Buffer bits((idx.size() + 7) / 8);
  if (bits.empty()) return bits;
  std::memset(bits.data(), 0, bits.size());
  for (size_t i = 0; i < idx.size(); ++i) {
    if (out.is_valid(static_cast<int64_t>(i)) && dict.is_valid(idx[i])) bits.data()[i / 8] |= uint8_t(1u << (i % 8));
  }
  return bits;
}

void gather(const Array& dict, const std::vector<int64_t>& idx, Array& out) {
  const int64_t length = out.length;
  if (dict.type.physical == Type::BOOLEAN) {
    out.values.resize(static_cast<size_t>((length + 7) / 8));
    if (!out.values.empty()) std::memset(out.values.data(), 0, out.values.size());
    for (int64_t i = 0; i < length; ++i) {
      int64_t j = idx[i];
      if (out.is_valid(i) && (dict.values.data()[j >> 3] >> (j & 7) & 1) != 0)
        out.values.data()[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
    }
    return;
  }
  if (dict.type.physical == Type::BYTE_ARRAY) {
    out.offsets.resize(static_cast<size_t>(length + 1) * 4);
    int32_t* o = out.offsets.data_as<int32_t>();
    const int32_t* d = dict.offsets_data();
    o[0] = 0;
    for (int64_t i = 0; i < length; ++i) {
      if (out.is_valid(i)) {
        int64_t j = idx[i];
        if (static_cast<int64_t>(out.values.size()) + d[j + 1] - d[j] > kMaxOffset)
          throw Error("Arrow import: column '" + out.name + "': more than 2^31 - 1 bytes of values in one batch",
                      ErrorKind::kInvalidArgument);
        out.values.append(dict.values.data() + d[j], static_cast<size_t>(d[j + 1] - d[j]));
      }
      o[i + 1] = static_cast<int32_t>(out.values.size());
    }
    return;
  }
  const size_t w = static_cast<size_t>(dict.value_width());
  out.values.resize(static_cast<size_t>(length) * w);
  uint8_t* o = out.values.data();
  for (int64_t i = 0; i < length; ++i, o += w) {
    if (out.is_valid(i)) {
      std::memcpy(o, dict.values.data() + idx[i] * w, w);
    } else {
      std::memset(o, 0, w);
    }
  }
}

Array import_dictionary(const ImportNode& n, const ArrowArray* a, int64_t begin, int64_t length) {
  expect_shape(n, a, 2, 0);
  const ArrowArray* d = a->dictionary;
  if (d == nullptr) fail(n, "dictionary-encoded but the array has no dictionary");
  check_array(n, d, 0, d->length);
  Array dict = import_plain(n, d, 0, d->length);
  Array out = leaf_array(n, length);
  const int64_t start = a->offset + begin;
  import_validity(n, a, start, out);
  if (length == 0) {
    if (dict.type.physical == Type::BYTE_ARRAY) out.offsets.append_value<int32_t>(0);
    return out;
  }
  std::vector<int64_t> idx = indices_of(n, data(n, a, 1), start, length);
  for (int64_t i = 0; i < length; ++i) {
    if (out.is_valid(i) && (idx[i] < 0 || idx[i] >= dict.length))
      fail(n, "dictionary index " + std::to_string(idx[i]) + " outside the dictionary" + slot(i));
  }
  if (dict.null_count > 0) {
    Buffer merged = merged_validity(dict, idx, out);
    out.validity.clear();
    out.null_count = 0;
    set_validity(out, std::move(merged));
  }
  gather(dict, idx, out);
  return out;
}

// ---------------------------------------------------------------------------
// Nested arrays.

Array import_node(const ImportNode& n, const ArrowArray* a, int64_t begin, int64_t length);

struct Range {
  int64_t first = 0;
  int64_t count = 0;
};

// Offsets of a list or map slice, rebased to 0; returns the child range.
template <class Offset>
Range import_offsets(const ImportNode& n, const ArrowArray* a, int64_t start, Array& out) {
  out.offsets.resize(static_cast<size_t>(out.length + 1) * 4);
  int32_t* o = out.offsets.data_as<int32_t>();
  o[0] = 0;
  if (out.length == 0) return {};
  const Offset* src = reinterpret_cast<const Offset*>(data(n, a, 1)) + start;
  const int64_t first = src[0];
  if (first < 0) fail(n, "negative offset");
  for (int64_t i = 0; i < out.length; ++i) {
    if (src[i + 1] < src[i]) fail(n, "decreasing offsets" + slot(i));
    if (src[i + 1] - first > kMaxOffset) fail(n, "more than 2^31 - 1 elements in one batch");
    o[i + 1] = static_cast<int32_t>(src[i + 1] - first);
  }
  return {first, src[out.length] - first};
}

Array nested_array(const ImportNode& n, ArrayKind kind, const ArrowArray* a, int64_t start, int64_t length) {
  Array out;
  out.kind = kind;
  out.name = n.name;
  out.length = length;
  import_validity(n, a, start, out);
  return out;
}

Array import_struct(const ImportNode& n, const ArrowArray* a, int64_t begin, int64_t length) {
  expect_shape(n, a, 1, static_cast<int64_t>(n.children.size()));
  const int64_t start = a->offset + begin;
  Array out = nested_array(n, ArrayKind::kStruct, a, start, length);
  for (size_t i = 0; i < n.children.size(); ++i)
    out.children.push_back(import_node(n.children[i], a->children[i], start, length));
  return out;
}

Array import_list(const ImportNode& n, const ArrowArray* a, int64_t begin, int64_t length) {
  expect_shape(n, a, n.layout == Layout::kFixedSizeList ? 1 : 2, 1);
  const int64_t start = a->offset + begin;
  Array out = nested_array(n, ArrayKind::kList, a, start, length);
  Range r;
  if (n.layout == Layout::kFixedSizeList) {
    if (n.width != 0 && length > kMaxOffset / n.width) fail(n, "more than 2^31 - 1 elements in one batch");
    if (n.width != 0 && start > std::numeric_limits<int64_t>::max() / n.width) fail(n, "offset overflows");
    out.offsets.resize(static_cast<size_t>(length + 1) * 4);
    int32_t* o = out.offsets.data_as<int32_t>();
    for (int64_t i = 0; i <= length; ++i) o[i] = static_cast<int32_t>(i * n.width);
    r = {start * n.width, length * n.width};
  } else {
    r = n.layout == Layout::kList ? import_offsets<int32_t>(n, a, start, out)
                                  : import_offsets<int64_t>(n, a, start, out);
  }
  out.children.push_back(import_node(n.children[0], a->children[0], r.first, r.count));
  return out;
}

// Arrow's map is a list of a non-null "entries" struct; parq's has the keys
// and values as its own children.
Array import_map(const ImportNode& n, const ArrowArray* a, int64_t begin, int64_t length) {
  expect_shape(n, a, 2, 1);
  const int64_t start = a->offset + begin;
  Array out = nested_array(n, ArrayKind::kMap, a, start, length);
  Range r = import_offsets<int32_t>(n, a, start, out);
  const ArrowArray* entries = a->children[0];
  check_array(n, entries, r.first, r.count);
  expect_shape(n, entries, 1, 2);
  const int64_t entry_start = entries->offset + r.first;
  out.children.push_back(import_node(n.children[0], entries->children[0], entry_start, r.count));
  if (out.children[0].null_count != 0) fail(n, "a map key is null");
  if (!n.drop_map_values)
    out.children.push_back(import_node(n.children[1], entries->children[1], entry_start, r.count));
  return out;
}

Array import_node(const ImportNode& n, const ArrowArray* a, int64_t begin, int64_t length) {
  check_array(n, a, begin, length);
  switch (n.layout) {
    case Layout::kStruct:
      return import_struct(n, a, begin, length);
    case Layout::kList:
    case Layout::kLargeList:
    case Layout::kFixedSizeList:
      return import_list(n, a, begin, length);
    case Layout::kMap:
      return import_map(n, a, begin, length);
    default:
      return n.index_width != 0 ? import_dictionary(n, a, begin, length) : import_plain(n, a, begin, length);
  }
}

Array empty_array(const ImportNode& n) {
  Array a;
  a.name = n.name;
  switch (n.layout) {
    case Layout::kStruct:
      a.kind = ArrayKind::kStruct;
      break;
    case Layout::kList:
    case Layout::kLargeList:
    case Layout::kFixedSizeList:
      a.kind = ArrayKind::kList;
      break;
    case Layout::kMap:
      a.kind = ArrayKind::kMap;
      break;
    default:
      a.type = n.type;
  }
  if (a.kind == ArrayKind::kList || a.kind == ArrayKind::kMap || a.type.physical == Type::BYTE_ARRAY)
    a.offsets.append_value<int32_t>(0);
  for (const ImportNode& c : n.children) a.children.push_back(empty_array(c));
  return a;
}

// Stands for the top-level struct in messages.
const ImportNode& batch_node() {
  static const ImportNode node = [] {
    ImportNode n;
    n.path = "(record batch)";
    n.format = "+s";
    n.layout = Layout::kStruct;
    return n;
  }();
  return node;
}

}  // namespace

RecordBatch import_rows(const ImportPlan& plan, const ArrowArray* array) {
  const ImportNode& root = batch_node();
  check_array(root, array, 0, array != nullptr ? array->length : 0);
  expect_shape(root, array, 1, static_cast<int64_t>(plan.columns.size()));
  // A null row has no Parquet form: top-level fields have no parent to be null.
  Array rows = nested_array(root, ArrayKind::kStruct, array, array->offset, array->length);
  if (rows.null_count != 0) fail(root, "the record batch has null rows");
  RecordBatch batch;
  batch.num_rows = array->length;
  for (size_t i = 0; i < plan.columns.size(); ++i)
    batch.columns.push_back(import_node(plan.columns[i], array->children[i], array->offset, array->length));
  return batch;
}

RecordBatch empty_rows(const ImportPlan& plan) {
  RecordBatch batch;
  for (const ImportNode& c : plan.columns) batch.columns.push_back(empty_array(c));
  return batch;
}

}  // namespace parq::arrow_import

namespace parq {

RecordBatch import_batch(const ArrowArray* array, const ArrowSchema* schema) {
  return arrow_import::import_rows(arrow_import::plan_import(schema), array);
}

}  // namespace parq
