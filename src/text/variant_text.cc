// VARIANT values as JSON text; see text/variant_text.h.
#include "parq/text/variant_text.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#include "parq/error.h"
#include "parq/text/json_text.h"
#include "parq/text/value_text.h"
#include "parq/variant/variant_writer.h"
#include "text_scalars.h"

namespace parq::text {

void append_variant_json(std::string& out, const variant::Value& v) {
  using variant::Type;
  switch (v.type()) {
    case Type::kNull:
      out += "null";
      return;
    case Type::kBoolean:
      out += v.boolean() ? "true" : "false";
      return;
    case Type::kInt8:
    case Type::kInt16:
    case Type::kInt32:
    case Type::kInt64:
      append_integer(out, v.integer());
      return;
    case Type::kDouble:
    case Type::kFloat:
      append_double(out, v.real());
      return;
    case Type::kDecimal4:
    case Type::kDecimal8:
    case Type::kDecimal16: {
      const variant::Decimal d = v.decimal();
      uint8_t big_endian[16];
      std::reverse_copy(d.unscaled.begin(), d.unscaled.end(), big_endian);
      append_decimal_be(out, big_endian, sizeof big_endian, d.scale);
      return;
    }
    case Type::kDate:
      append_date(out, static_cast<int32_t>(v.integer()));
      return;
    case Type::kTimestampMicros:
      append_timestamp(out, v.integer(), TimeUnit::kMicros, true);
      return;
    case Type::kTimestampNtzMicros:
      append_timestamp(out, v.integer(), TimeUnit::kMicros, false);
      return;
    case Type::kTimestampNanos:
      append_timestamp(out, v.integer(), TimeUnit::kNanos, true);
      return;
    case Type::kTimestampNtzNanos:
      append_timestamp(out, v.integer(), TimeUnit::kNanos, false);
      return;
    case Type::kTimeNtzMicros:
      append_time(out, v.integer(), TimeUnit::kMicros);
      return;
    case Type::kString:
      append_json_string(out, v.string());
      return;
    case Type::kBinary: {
      const auto b = v.binary();
      append_base64(out, {reinterpret_cast<const char*>(b.data()), b.size()});
      return;
    }
    case Type::kUuid: {
      const auto u = v.uuid();
      append_uuid(out, u.data());
      return;
    }
    case Type::kObject:
      out += '{';
      for (size_t i = 0; i < v.size(); ++i) {
        if (i != 0) out += ',';
        append_json_string(out, v.field_name(i));
        out += ':';
        append_variant_json(out, v.field_value(i));
      }
      out += '}';
      return;
    case Type::kArray:
      out += '[';
      for (size_t i = 0; i < v.size(); ++i) {
        if (i != 0) out += ',';
        append_variant_json(out, v.element(i));
      }
      out += ']';
      return;
  }
}

namespace {

void collect_keys(const TextRow& row, size_t at, std::vector<std::string_view>& keys) {
  const TextNode& n = row.nodes[at];
  size_t child = at + 1;
  for (uint32_t i = 0; i < n.size; ++i) {
    if (n.kind == NodeKind::kObject) keys.push_back(row.nodes[child].key);
    collect_keys(row, child, keys);
    child += row.nodes[child].span + 1;
  }
}

// An integer's text too wide for int64 as a decimal16 of scale 0, if it has
// at most 38 digits.
bool wide_integer(std::string_view text, variant::Decimal& out) {
  const bool negative = !text.empty() && text[0] == '-';
  const std::string_view digits = text.substr(negative ? 1 : 0);
  if (digits.empty() || digits.size() > 38) return false;
  unsigned __int128 v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  if (negative) v = 0 - v;
  for (size_t b = 0; b < 16; ++b) out.unscaled[b] = static_cast<uint8_t>(v >> (8 * b));
  out.scale = 0;
  return true;
}

class JsonValueWriter {
 public:
  JsonValueWriter(const TextRow& row, const std::vector<std::string_view>& keys, Buffer& out)
      : row_(row), keys_(keys), writer_(out) {}

  void write(size_t at) {
    const TextNode& n = row_.nodes[at];
    switch (n.kind) {
      case NodeKind::kNull:
        writer_.null();
        return;
      case NodeKind::kBool:
        writer_.boolean(n.boolean);
        return;
      case NodeKind::kText:
        if (n.quoted) {
          writer_.string(n.text);
          return;
        }
        [[fallthrough]];
      case NodeKind::kNumber:
        number(n.text);
        return;
      case NodeKind::kArray: {
        writer_.begin_array();
        size_t child = at + 1;
        for (uint32_t i = 0; i < n.size; ++i) {
          writer_.element();
          write(child);
          child += row_.nodes[child].span + 1;
        }
        writer_.end_array();
        return;
      }
      case NodeKind::kObject: {
        writer_.begin_object();
        size_t child = at + 1;
        for (uint32_t i = 0; i < n.size; ++i) {
          const std::string_view key = row_.nodes[child].key;
          const auto id = std::lower_bound(keys_.begin(), keys_.end(), key) - keys_.begin();
          writer_.field(static_cast<uint32_t>(id), key);
          write(child);
          child += row_.nodes[child].span + 1;
        }
        writer_.end_object();
        return;
      }
    }
  }

 private:
  void number(std::string_view text) {
    if (const auto v = parse_int64(text)) {
      if (*v >= INT8_MIN && *v <= INT8_MAX) {
        writer_.int8(static_cast<int8_t>(*v));
      } else if (*v >= INT16_MIN && *v <= INT16_MAX) {
        writer_.int16(static_cast<int16_t>(*v));
      } else if (*v >= INT32_MIN && *v <= INT32_MAX) {
        writer_.int32(static_cast<int32_t>(*v));
      } else {
        writer_.int64(*v);
      }
      return;
    }
    variant::Decimal wide;
    if (wide_integer(text, wide)) {
      writer_.decimal(variant::Type::kDecimal16, wide);
      return;
    }
    const auto d = parse_double(text);
    if (!d) throw Error("'" + std::string(text.substr(0, 64)) + "' is not a number");
    writer_.float64(*d);
  }

  const TextRow& row_;
  const std::vector<std::string_view>& keys_;
  variant::ValueWriter writer_;
};

}  // namespace

void JsonVariantEncoder::encode(const TextRow& row, size_t at, Buffer& metadata, Buffer& value) {
  keys_.clear();
  collect_keys(row, at, keys_);
  std::sort(keys_.begin(), keys_.end());
  keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
  variant::write_metadata(keys_, metadata);
  JsonValueWriter(row, keys_, value).write(at);
}

}  // namespace parq::text
