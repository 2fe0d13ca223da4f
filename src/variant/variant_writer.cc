// Encoding VARIANT values; see variant/variant_writer.h.
#include "parq/variant/variant_writer.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "parq/error.h"

namespace parq::variant {
namespace {

// Primitive type ids of the encoding's header byte.
constexpr uint8_t kNullId = 0, kTrueId = 1, kFalseId = 2, kInt8Id = 3, kInt16Id = 4, kInt32Id = 5, kInt64Id = 6,
                  kDoubleId = 7, kDecimal4Id = 8, kDecimal8Id = 9, kDecimal16Id = 10, kDateId = 11, kTimestampId = 12,
                  kTimestampNtzId = 13, kFloatId = 14, kBinaryId = 15, kStringId = 16, kTimeNtzId = 17,
                  kTimestampNanosId = 18, kTimestampNtzNanosId = 19, kUuidId = 20;

constexpr uint8_t kObjectBasic = 2, kArrayBasic = 3, kShortStringBasic = 1;

uint8_t width_of(uint64_t max_value) {
  if (max_value <= 0xFF) return 1;
  if (max_value <= 0xFFFF) return 2;
  if (max_value <= 0xFFFFFF) return 3;
  return 4;
}

void put_le(uint8_t* p, uint64_t v, size_t width) {
  for (size_t i = 0; i < width; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

void write_metadata(std::span<const std::string_view> keys, Buffer& out) {
  size_t key_bytes = 0;
  for (std::string_view k : keys) key_bytes += k.size();
  const uint64_t largest = std::max<uint64_t>(key_bytes, keys.size());
  if (largest > UINT32_MAX) throw Error("variant: a dictionary's keys pass 4 GiB", ErrorKind::kInvalidArgument);
  const uint8_t width = width_of(largest);
  // Version 1, sorted and unique, offsets of `width` bytes.
  uint8_t* p = out.extend(1 + width * (keys.size() + 2) + key_bytes);
  p[0] = static_cast<uint8_t>(1 | 1 << 4 | (width - 1) << 6);
  put_le(p + 1, keys.size(), width);
  uint8_t* offsets = p + 1 + width;
  uint8_t* strings = offsets + width * (keys.size() + 1);
  size_t at = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    put_le(offsets + width * i, at, width);
    if (!keys[i].empty()) std::memcpy(strings + at, keys[i].data(), keys[i].size());
    at += keys[i].size();
  }
  put_le(offsets + width * keys.size(), at, width);
}

void ValueWriter::header(uint8_t primitive_id, size_t data_bytes, const void* data) {
  uint8_t* p = out_->extend(1 + data_bytes);
  p[0] = static_cast<uint8_t>(primitive_id << 2);
  if (data_bytes != 0) std::memcpy(p + 1, data, data_bytes);
}

void ValueWriter::null() { header(kNullId, 0, nullptr); }
void ValueWriter::boolean(bool value) { header(value ? kTrueId : kFalseId, 0, nullptr); }
void ValueWriter::int8(int8_t value) { header(kInt8Id, 1, &value); }
void ValueWriter::int16(int16_t value) { header(kInt16Id, 2, &value); }
void ValueWriter::int32(int32_t value) { header(kInt32Id, 4, &value); }
void ValueWriter::int64(int64_t value) { header(kInt64Id, 8, &value); }
void ValueWriter::float32(float value) { header(kFloatId, 4, &value); }
void ValueWriter::float64(double value) { header(kDoubleId, 8, &value); }
void ValueWriter::date(int32_t days) { header(kDateId, 4, &days); }

void ValueWriter::decimal(Type type, const Decimal& value) {
  const size_t width = type == Type::kDecimal4 ? 4 : type == Type::kDecimal8 ? 8 : 16;
  const uint8_t id = type == Type::kDecimal4 ? kDecimal4Id : type == Type::kDecimal8 ? kDecimal8Id : kDecimal16Id;
  uint8_t* p = out_->extend(2 + width);
  p[0] = static_cast<uint8_t>(id << 2);
  p[1] = value.scale;
  std::memcpy(p + 2, value.unscaled.data(), width);
}

void ValueWriter::temporal(Type type, int64_t count) {
  uint8_t id = kTimestampId;
  switch (type) {
    case Type::kTimestampNtzMicros:
      id = kTimestampNtzId;
      break;
    case Type::kTimestampNanos:
      id = kTimestampNanosId;
      break;
    case Type::kTimestampNtzNanos:
      id = kTimestampNtzNanosId;
      break;
    case Type::kTimeNtzMicros:
      id = kTimeNtzId;
      break;
    default:
      break;
  }
  header(id, 8, &count);
}

void ValueWriter::string(std::string_view value) {
  if (value.size() < 64) {
    uint8_t* p = out_->extend(1 + value.size());
    p[0] = static_cast<uint8_t>(value.size() << 2 | kShortStringBasic);
    if (!value.empty()) std::memcpy(p + 1, value.data(), value.size());
    return;
  }
  const auto size = static_cast<uint32_t>(value.size());
  uint8_t* p = out_->extend(5 + value.size());
  p[0] = static_cast<uint8_t>(kStringId << 2);
  put_le(p + 1, size, 4);
  std::memcpy(p + 5, value.data(), value.size());
}

void ValueWriter::binary(std::span<const uint8_t> value) {
  uint8_t* p = out_->extend(5 + value.size());
  p[0] = static_cast<uint8_t>(kBinaryId << 2);
  put_le(p + 1, value.size(), 4);
  if (!value.empty()) std::memcpy(p + 5, value.data(), value.size());
}

void ValueWriter::uuid(const uint8_t* big_endian16) { header(kUuidId, 16, big_endian16); }

void ValueWriter::encoded(std::span<const uint8_t> value) { out_->append(value.data(), value.size()); }

void ValueWriter::encoded(const Value& value) { encoded(value.encoded()); }

void ValueWriter::begin_object() { frames_.push_back({out_->size(), entries_.size(), true}); }
void ValueWriter::begin_array() { frames_.push_back({out_->size(), entries_.size(), false}); }

void ValueWriter::field(uint32_t id, std::string_view name) { entries_.push_back({id, name, out_->size()}); }
void ValueWriter::element() { entries_.push_back({0, {}, out_->size()}); }

void ValueWriter::drop_field() {
  out_->resize(entries_.back().start);
  entries_.pop_back();
}

void ValueWriter::end_object() { end(true); }
void ValueWriter::end_array() { end(false); }

void ValueWriter::end(bool object) {
  const Frame frame = frames_.back();
  frames_.pop_back();
  const size_t count = entries_.size() - frame.first_entry;
  const size_t data_size = out_->size() - frame.start;
  if (data_size > UINT32_MAX)
    throw Error("variant: an object or array of more than 4 GiB cannot be encoded", ErrorKind::kInvalidArgument);
  sorted_.assign(entries_.begin() + static_cast<std::ptrdiff_t>(frame.first_entry), entries_.end());
  entries_.resize(frame.first_entry);
  uint32_t max_id = 0;
  if (object) {
    std::sort(sorted_.begin(), sorted_.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
    for (size_t i = 0; i < count; ++i) {
      if (i > 0 && sorted_[i - 1].name == sorted_[i].name)
        throw Error("variant: object has field '" + std::string(sorted_[i].name) + "' twice");
      max_id = std::max(max_id, sorted_[i].id);
    }
  }
  const bool large = count > 0xFF;
  const uint8_t id_width = object ? width_of(max_id) : 0;
  const uint8_t offset_width = width_of(data_size);
  const size_t count_width = large ? 4 : 1;
  const size_t header_size = 1 + count_width + count * id_width + (count + 1) * offset_width;
  out_->extend(header_size);
  uint8_t* base = out_->data() + frame.start;
  std::memmove(base + header_size, base, data_size);
  uint8_t info = static_cast<uint8_t>(offset_width - 1);
  if (object) {
    info |= static_cast<uint8_t>((id_width - 1) << 2);
    if (large) info |= 1 << 4;
  } else if (large) {
    info |= 1 << 2;
  }
  base[0] = static_cast<uint8_t>(info << 2 | (object ? kObjectBasic : kArrayBasic));
  put_le(base + 1, count, count_width);
  uint8_t* ids = base + 1 + count_width;
  uint8_t* offsets = ids + count * id_width;
  for (size_t i = 0; i < count; ++i) {
    if (object) put_le(ids + i * id_width, sorted_[i].id, id_width);
    put_le(offsets + i * offset_width, sorted_[i].start - frame.start, offset_width);
  }
  put_le(offsets + count * offset_width, data_size, offset_width);
}

}  // namespace parq::variant
