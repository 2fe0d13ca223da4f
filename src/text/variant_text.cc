// VARIANT values as JSON text; see text/variant_text.h.
#include "parq/text/variant_text.h"

#include <algorithm>

#include "parq/text/json_text.h"
#include "parq/text/value_text.h"

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

}  // namespace parq::text
