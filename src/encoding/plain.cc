// PLAIN for the fixed-width types (INT32, INT64, INT96, FLOAT, DOUBLE,
// FIXED_LEN_BYTE_ARRAY); see encoding/plain.h. Little-endian hosts only: the
// page bytes are the values, so decoding is a bounds check and a memcpy.
#include "parq/encoding/plain.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "parq/error.h"

namespace parq::encoding {
namespace {

static_assert(std::endian::native == std::endian::little, "PLAIN decoding copies little-endian bytes as they are");

template <class T>
constexpr const char* type_name() {
  if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>) return "INT32";
  if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>) return "INT64";
  if constexpr (std::is_same_v<T, Int96>) return "INT96";
  if constexpr (std::is_same_v<T, float>) return "FLOAT";
  if constexpr (std::is_same_v<T, double>) return "DOUBLE";
  return "?";
}

void check_fits(const char* type, size_t size, size_t num_values, size_t width) {
  if (width != 0 && num_values > size / width)
    throw Error(std::string("PLAIN ") + type + ": " + std::to_string(num_values) + " values of " +
                std::to_string(width) + " bytes need more than the " + std::to_string(size) +
                " bytes of the page (data ends at byte " + std::to_string(size) + ")");
}

}  // namespace

template <class T>
void PlainDecoder<T>::reset(const uint8_t* data, size_t size, size_t num_values) {
  check_fits(type_name<T>(), size, num_values, sizeof(T));
  data_ = data;
  num_values_ = num_values;
  index_ = 0;
}

template <class T>
size_t PlainDecoder<T>::decode(T* out, size_t n) {
  n = std::min(n, num_values_ - index_);
  if (n != 0) std::memcpy(out, data_ + index_ * sizeof(T), n * sizeof(T));
  index_ += n;
  return n;
}

template <class T>
size_t PlainDecoder<T>::skip(size_t n) {
  n = std::min(n, num_values_ - index_);
  index_ += n;
  return n;
}

template <class T>
void PlainEncoder<T>::put(const T* values, size_t n) {
  out_.append(values, n * sizeof(T));
}

template <class T>
void PlainEncoder<T>::flush(Buffer& out) {
  detail::move_or_append(out_, out);
}

template class PlainDecoder<int32_t>;
template class PlainDecoder<int64_t>;
template class PlainDecoder<uint32_t>;
template class PlainDecoder<uint64_t>;
template class PlainDecoder<Int96>;
template class PlainDecoder<float>;
template class PlainDecoder<double>;
template class PlainEncoder<int32_t>;
template class PlainEncoder<int64_t>;
template class PlainEncoder<uint32_t>;
template class PlainEncoder<uint64_t>;
template class PlainEncoder<Int96>;
template class PlainEncoder<float>;
template class PlainEncoder<double>;

// ---- FIXED_LEN_BYTE_ARRAY ---------------------------------------------------

PlainFixedLenByteArrayDecoder::PlainFixedLenByteArrayDecoder(size_t width) : width_(width) {
  if (width == 0) throw Error("PLAIN FIXED_LEN_BYTE_ARRAY: width 0 (at byte 0)");
}

void PlainFixedLenByteArrayDecoder::reset(const uint8_t* data, size_t size, size_t num_values) {
  check_fits("FIXED_LEN_BYTE_ARRAY", size, num_values, width_);
  data_ = data;
  num_values_ = num_values;
  index_ = 0;
}

size_t PlainFixedLenByteArrayDecoder::decode(uint8_t* out, size_t n) {
  n = std::min(n, num_values_ - index_);
  if (n != 0) std::memcpy(out, data_ + index_ * width_, n * width_);
  index_ += n;
  return n;
}

size_t PlainFixedLenByteArrayDecoder::skip(size_t n) {
  n = std::min(n, num_values_ - index_);
  index_ += n;
  return n;
}

PlainFixedLenByteArrayEncoder::PlainFixedLenByteArrayEncoder(size_t width) : width_(width) {
  if (width == 0) throw Error("PLAIN FIXED_LEN_BYTE_ARRAY: width 0 (at byte 0)");
}

void PlainFixedLenByteArrayEncoder::put(const uint8_t* values, size_t n) { out_.append(values, n * width_); }

void PlainFixedLenByteArrayEncoder::flush(Buffer& out) { detail::move_or_append(out_, out); }

}  // namespace parq::encoding
