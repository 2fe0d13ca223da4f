// VARIANT metadata and values; see variant/variant.h.
#include "parq/variant/variant.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "parq/error.h"

namespace parq::variant {
namespace {

// Deeper nesting than any document needs; it bounds the recursion.
constexpr int kMaxDepth = 128;

[[noreturn]] void corrupt(const std::string& what, size_t offset) {
  throw Error(ErrorKind::kCorrupt, {.offset = static_cast<int64_t>(offset)}, "variant: " + what);
}

uint32_t little_endian(const uint8_t* p, size_t width) {
  uint32_t v = 0;
  for (size_t i = 0; i < width; ++i) v |= static_cast<uint32_t>(p[i]) << (8 * i);
  return v;
}

// Bytes of a primitive's data after the header byte; kPrefixed for the
// length-prefixed ones. An unknown id has no entry.
constexpr size_t kPrefixed = SIZE_MAX;

struct PrimitiveInfo {
  Type type;
  size_t data;
};

std::optional<PrimitiveInfo> primitive(uint8_t id) {
  switch (id) {
    case 0:
      return PrimitiveInfo{Type::kNull, 0};
    case 1:
    case 2:
      return PrimitiveInfo{Type::kBoolean, 0};
    case 3:
      return PrimitiveInfo{Type::kInt8, 1};
    case 4:
      return PrimitiveInfo{Type::kInt16, 2};
    case 5:
      return PrimitiveInfo{Type::kInt32, 4};
    case 6:
      return PrimitiveInfo{Type::kInt64, 8};
    case 7:
      return PrimitiveInfo{Type::kDouble, 8};
    case 8:
      return PrimitiveInfo{Type::kDecimal4, 5};
    case 9:
      return PrimitiveInfo{Type::kDecimal8, 9};
    case 10:
      return PrimitiveInfo{Type::kDecimal16, 17};
    case 11:
      return PrimitiveInfo{Type::kDate, 4};
    case 12:
      return PrimitiveInfo{Type::kTimestampMicros, 8};
    case 13:
      return PrimitiveInfo{Type::kTimestampNtzMicros, 8};
    case 14:
      return PrimitiveInfo{Type::kFloat, 4};
    case 15:
      return PrimitiveInfo{Type::kBinary, kPrefixed};
    case 16:
      return PrimitiveInfo{Type::kString, kPrefixed};
    case 17:
      return PrimitiveInfo{Type::kTimeNtzMicros, 8};
    case 18:
      return PrimitiveInfo{Type::kTimestampNanos, 8};
    case 19:
      return PrimitiveInfo{Type::kTimestampNtzNanos, 8};
    case 20:
      return PrimitiveInfo{Type::kUuid, 16};
    default:
      return std::nullopt;
  }
}

}  // namespace

const char* to_string(Type type) {
  switch (type) {
    case Type::kNull:
      return "null";
    case Type::kBoolean:
      return "boolean";
    case Type::kInt8:
      return "int8";
    case Type::kInt16:
      return "int16";
    case Type::kInt32:
      return "int32";
    case Type::kInt64:
      return "int64";
    case Type::kDouble:
      return "double";
    case Type::kDecimal4:
      return "decimal4";
    case Type::kDecimal8:
      return "decimal8";
    case Type::kDecimal16:
      return "decimal16";
    case Type::kDate:
      return "date";
    case Type::kTimestampMicros:
      return "timestamp";
    case Type::kTimestampNtzMicros:
      return "timestamp_ntz";
    case Type::kFloat:
      return "float";
    case Type::kBinary:
      return "binary";
    case Type::kString:
      return "string";
    case Type::kTimeNtzMicros:
      return "time_ntz";
    case Type::kTimestampNanos:
      return "timestamp_nanos";
    case Type::kTimestampNtzNanos:
      return "timestamp_ntz_nanos";
    case Type::kUuid:
      return "uuid";
    case Type::kObject:
      return "object";
    case Type::kArray:
      return "array";
  }
  return "unknown";
}

Metadata Metadata::parse(std::span<const uint8_t> bytes) {
  if (bytes.empty()) corrupt("metadata is empty", 0);
  const uint8_t header = bytes[0];
  if ((header & 0x0F) != 1) corrupt("metadata version " + std::to_string(header & 0x0F) + " (only 1 is known)", 0);
  const size_t width = static_cast<size_t>((header >> 6) & 3) + 1;
  Metadata m;
  m.sorted_ = (header >> 4) & 1;
  m.offset_width_ = static_cast<uint8_t>(width);
  if (bytes.size() < 1 + width) corrupt("metadata ends inside its dictionary size", 1);
  const uint64_t count = little_endian(bytes.data() + 1, width);
  // The offsets must fit in the bytes before any is read.
  const uint64_t offsets_end = 1 + width + (count + 1) * width;
  if (offsets_end > bytes.size())
    corrupt("metadata claims " + std::to_string(count) + " keys; its " + std::to_string(bytes.size()) +
                " bytes cannot hold their offsets",
            1);
  m.count_ = static_cast<size_t>(count);
  m.offsets_ = bytes.data() + 1 + width;
  m.strings_ = bytes.subspan(static_cast<size_t>(offsets_end));
  if (m.offset(0) != 0) corrupt("metadata's first offset is not 0", 1 + width);
  for (size_t i = 0; i < m.count_; ++i)
    if (m.offset(i + 1) < m.offset(i))
      corrupt("metadata offset " + std::to_string(i + 1) + " goes backwards", 1 + width * (i + 2));
  const uint32_t end = m.offset(m.count_);
  if (end > m.strings_.size())
    corrupt("metadata's keys end at byte " + std::to_string(end) + " of " + std::to_string(m.strings_.size()),
            static_cast<size_t>(offsets_end));
  m.strings_ = m.strings_.first(end);
  m.size_ = static_cast<size_t>(offsets_end) + end;
  // The flag only speeds up look-ups. DuckDB sets it on dictionaries that
  // are not sorted; such a dictionary reads as the unsorted one it is.
  if (m.sorted_)
    for (size_t i = 1; i < m.count_ && m.sorted_; ++i)
      if (!(m.key(i - 1) < m.key(i))) m.sorted_ = false;
  return m;
}

uint32_t Metadata::offset(size_t i) const { return little_endian(offsets_ + i * offset_width_, offset_width_); }

std::string_view Metadata::key(size_t i) const {
  const uint32_t begin = offset(i);
  return {reinterpret_cast<const char*>(strings_.data()) + begin, offset(i + 1) - begin};
}

std::optional<uint32_t> Metadata::find(std::string_view name) const {
  if (sorted_) {
    size_t lo = 0, hi = size();
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      const std::string_view k = key(mid);
      if (k == name) return static_cast<uint32_t>(mid);
      if (k < name) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return std::nullopt;
  }
  for (size_t i = 0; i < size(); ++i)
    if (key(i) == name) return static_cast<uint32_t>(i);
  return std::nullopt;
}

// Values left to visit: one per byte of the outermost value, so that
// values sharing bytes through their offsets cannot multiply the work.
struct Value::Budget {
  size_t left = 0;
};

Value Value::parse(const Metadata& metadata, std::span<const uint8_t> bytes) {
  Budget budget{bytes.size()};
  return parse_at(metadata, bytes, 0, 0, &budget);
}

// Without a budget, the value was validated with its parent: only its own
// header is read.
Value Value::parse_at(const Metadata& metadata, std::span<const uint8_t> bytes, size_t base, int depth,
                      Budget* budget) {
  if (bytes.empty()) corrupt("a value is empty", base);
  if (depth > kMaxDepth) corrupt("values nest deeper than " + std::to_string(kMaxDepth), base);
  if (budget != nullptr) {
    if (budget->left == 0) corrupt("values share bytes (more values than bytes)", base);
    --budget->left;
  }
  Value v;
  v.metadata_ = &metadata;
  const uint8_t header = bytes[0];
  const uint8_t basic = header & 3, info = header >> 2;
  auto need = [&](size_t n, const char* what) {
    if (n > bytes.size())
      corrupt(
          std::string(what) + " needs " + std::to_string(n) + " bytes, " + std::to_string(bytes.size()) + " are left",
          base);
  };
  switch (basic) {
    case 0: {
      const auto p = primitive(info);
      if (!p) corrupt("unknown primitive type " + std::to_string(info), base);
      v.type_ = p->type;
      if (p->data == kPrefixed) {
        need(5, to_string(p->type));
        const uint64_t n = little_endian(bytes.data() + 1, 4);
        need(5 + static_cast<size_t>(n), to_string(p->type));
        v.size_ = 5 + static_cast<size_t>(n);
      } else {
        need(1 + p->data, to_string(p->type));
        v.size_ = 1 + p->data;
        if ((p->type == Type::kDecimal4 || p->type == Type::kDecimal8 || p->type == Type::kDecimal16) && bytes[1] > 38)
          corrupt("decimal scale " + std::to_string(bytes[1]) + " (at most 38)", base + 1);
      }
      break;
    }
    case 1:
      v.type_ = Type::kString;
      need(1 + info, "a short string");
      v.size_ = 1 + info;
      break;
    default: {
      const bool object = basic == 2;
      v.type_ = object ? Type::kObject : Type::kArray;
      v.offset_width_ = static_cast<uint8_t>((info & 3) + 1);
      v.id_width_ = object ? static_cast<uint8_t>(((info >> 2) & 3) + 1) : 0;
      const bool large = object ? (info >> 4) & 1 : (info >> 2) & 1;
      const size_t count_width = large ? 4 : 1;
      need(1 + count_width, to_string(v.type_));
      const uint64_t count = little_endian(bytes.data() + 1, count_width);
      v.ids_at_ = 1 + count_width;
      const uint64_t ids = count * v.id_width_, offsets = (count + 1) * v.offset_width_;
      if (v.ids_at_ + ids + offsets > bytes.size())
        corrupt(std::string(to_string(v.type_)) + " of " + std::to_string(count) + " elements: its " +
                    std::to_string(bytes.size()) + " bytes cannot hold their ids and offsets",
                base);
      v.count_ = static_cast<size_t>(count);
      v.offsets_at_ = v.ids_at_ + static_cast<size_t>(ids);
      v.fields_at_ = v.offsets_at_ + static_cast<size_t>(offsets);
      v.bytes_ = bytes;
      const size_t fields = bytes.size() - v.fields_at_;
      const uint32_t end = v.read_offset(v.count_);
      if (end > fields)
        corrupt(std::string(to_string(v.type_)) + "'s fields end at byte " + std::to_string(end) + " of " +
                    std::to_string(fields),
                base + v.offsets_at_);
      v.size_ = v.fields_at_ + end;
      const std::span<const uint8_t> field_bytes = bytes.subspan(v.fields_at_, end);
      std::string_view previous;
      for (size_t i = 0; budget != nullptr && i < v.count_; ++i) {
        const uint32_t at = v.read_offset(i);
        if (at >= end) corrupt("element " + std::to_string(i) + " starts past the fields' end", base + v.offsets_at_);
        parse_at(metadata, field_bytes.subspan(at), base + v.fields_at_ + at, depth + 1, budget);
        if (object) {
          const uint32_t id = v.read_id(i);
          if (id >= metadata.size())
            corrupt("field id " + std::to_string(id) + " is not in the metadata's " + std::to_string(metadata.size()) +
                        " keys",
                    base + v.ids_at_ + i * v.id_width_);
          const std::string_view name = metadata.key(id);
          if (i > 0 && !(previous < name))
            corrupt("object keys are not unique and sorted ('" + std::string(previous) + "' then '" +
                        std::string(name) + "')",
                    base + v.ids_at_ + i * v.id_width_);
          previous = name;
        }
      }
      break;
    }
  }
  v.bytes_ = bytes.first(v.size_);
  return v;
}

uint32_t Value::read_offset(size_t i) const {
  return little_endian(bytes_.data() + offsets_at_ + i * offset_width_, offset_width_);
}

uint32_t Value::read_id(size_t i) const { return little_endian(bytes_.data() + ids_at_ + i * id_width_, id_width_); }

bool Value::boolean() const { return (bytes_[0] >> 2) == 1; }

int64_t Value::integer() const {
  const uint8_t* p = bytes_.data() + 1;
  switch (type_) {
    case Type::kInt8:
      return static_cast<int8_t>(p[0]);
    case Type::kInt16: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case Type::kInt32:
    case Type::kDate: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}

double Value::real() const {
  if (type_ == Type::kFloat) {
    float f;
    std::memcpy(&f, bytes_.data() + 1, 4);
    return static_cast<double>(f);
  }
  double d;
  std::memcpy(&d, bytes_.data() + 1, 8);
  return d;
}

Decimal Value::decimal() const {
  Decimal d;
  d.scale = bytes_[1];
  const size_t width = type_ == Type::kDecimal4 ? 4 : type_ == Type::kDecimal8 ? 8 : 16;
  std::memcpy(d.unscaled.data(), bytes_.data() + 2, width);
  const uint8_t fill = (bytes_[1 + width] & 0x80) ? 0xFF : 0x00;
  std::fill(d.unscaled.begin() + static_cast<std::ptrdiff_t>(width), d.unscaled.end(), fill);
  return d;
}

std::string_view Value::string() const {
  const size_t skip = (bytes_[0] & 3) == 1 ? 1 : 5;
  return {reinterpret_cast<const char*>(bytes_.data()) + skip, size_ - skip};
}

std::span<const uint8_t> Value::binary() const { return bytes_.subspan(5); }

std::array<uint8_t, 16> Value::uuid() const {
  std::array<uint8_t, 16> out;
  std::memcpy(out.data(), bytes_.data() + 1, 16);
  return out;
}

Value Value::element(size_t i) const {
  return parse_at(*metadata_, bytes_.subspan(fields_at_ + read_offset(i)), 0, 0, nullptr);
}

std::string_view Value::field_name(size_t i) const { return metadata_->key(read_id(i)); }

Value Value::field_value(size_t i) const { return element(i); }

std::optional<Value> Value::field(std::string_view name) const {
  size_t lo = 0, hi = count_;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const std::string_view k = field_name(mid);
    if (k == name) return field_value(mid);
    if (k < name) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}

}  // namespace parq::variant
