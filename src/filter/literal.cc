// Binding literals to a column's storage, and the order of a column's
// values; see literal.h.
#include "parq/filter/literal.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "../text/text_scalars.h"
#include "parq/error.h"

namespace parq::filter {
namespace {

using format::Type;
using Int128 = __int128;

[[noreturn]] void misfit(const ColumnDescriptor& column, const Literal& literal, const std::string& why) {
  throw Error("filter: column " + column.dotted_path() + ": " + literal.to_string() + " " + why,
              ErrorKind::kInvalidArgument);
}

// A decimal number text as digits x 10^exponent, exactly.
struct DecimalText {
  bool negative = false;
  std::string digits;  // no leading zeros; empty for zero
  int64_t exponent = 0;
};

bool parse_decimal_text(std::string_view s, DecimalText& out) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) out.negative = s[i++] == '-';
  bool any = false, point = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      any = true;
      if (!(out.digits.empty() && c == '0')) out.digits += c;
      if (point) --out.exponent;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (!any) return false;
  if (i < s.size()) {
    if (s[i] != 'e' && s[i] != 'E') return false;
    ++i;
    bool neg = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    if (i >= s.size()) return false;
    int64_t e = 0;
    for (; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      if (e < 100000) e = e * 10 + (s[i] - '0');
    }
    out.exponent += neg ? -e : e;
  }
  // Trailing zeros of the digits move into the exponent.
  while (!out.digits.empty() && out.digits.back() == '0') {
    out.digits.pop_back();
    ++out.exponent;
  }
  if (out.digits.empty()) out.negative = false;
  return true;
}

// The number times 10^scale as an integer of at most `max_digits` digits;
// false when it has a fraction left or more digits.
bool scaled_integer(const DecimalText& d, int64_t scale, int max_digits, Int128& out) {
  out = 0;
  max_digits = std::min(max_digits, 38);  // what a 128-bit integer holds; wider decimals take no longer literals
  if (d.digits.empty()) return true;
  const int64_t shift = d.exponent + scale;
  if (shift < 0) return false;  // digits after the point remain
  if (static_cast<int64_t>(d.digits.size()) + shift > max_digits) return false;
  for (char c : d.digits) out = out * 10 + (c - '0');
  for (int64_t k = 0; k < shift; ++k) out *= 10;
  if (d.negative) out = -out;
  return true;
}

int time_unit_index(const format::TimeUnit& unit) { return unit.MILLIS ? 0 : unit.MICROS ? 1 : 2; }

float half_to_float(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float v;
  if (exp == 0)
    v = std::ldexp(static_cast<float>(mant), -24);
  else if (exp == 31)
    v = mant ? std::nanf("") : INFINITY;
  else
    v = std::ldexp(static_cast<float>(mant | 0x400), static_cast<int>(exp) - 25);
  return sign ? -v : v;
}

std::string big_endian(Int128 v, size_t width) {
  std::string out(width, '\0');
  for (size_t i = 0; i < width; ++i) {
    out[width - 1 - i] = static_cast<char>(static_cast<uint8_t>(v & 0xff));
    v >>= 8;  // arithmetic: keeps the sign bytes
  }
  return out;
}

// The fewest big-endian two's complement bytes that hold v.
std::string minimal_big_endian(Int128 v) {
  size_t width = 1;
  while (width < 16) {
    const Int128 low = -(Int128{1} << (8 * width - 1)), high = (Int128{1} << (8 * width - 1)) - 1;
    if (v >= low && v <= high) break;
    ++width;
  }
  return big_endian(v, width);
}

int64_t pow10_i64(int n) {
  int64_t v = 1;
  while (n-- > 0) v *= 10;
  return v;
}

// "HH:MM:SS[.fraction]" in nanoseconds of the day.
bool parse_time_of_day(std::string_view s, int64_t& nanos, int& digits) {
  auto two = [&](size_t at, int& v) {
    if (at + 2 > s.size() || s[at] < '0' || s[at] > '9' || s[at + 1] < '0' || s[at + 1] > '9') return false;
    v = (s[at] - '0') * 10 + (s[at + 1] - '0');
    return true;
  };
  int h, m, sec = 0;
  if (!two(0, h) || s.size() < 5 || s[2] != ':' || !two(3, m)) return false;
  size_t at = 5;
  if (at < s.size() && s[at] == ':') {
    if (!two(6, sec)) return false;
    at = 8;
  }
  if (h > 23 || m > 59 || sec > 59) return false;
  int64_t frac = 0;
  digits = 0;
  if (at < s.size() && s[at] == '.') {
    for (++at; at < s.size() && s[at] >= '0' && s[at] <= '9'; ++at) {
      if (digits == 9) return false;
      frac = frac * 10 + (s[at] - '0');
      ++digits;
    }
    if (digits == 0) return false;
  }
  if (at != s.size()) return false;
  nanos = ((h * 60 + m) * 60 + sec) * int64_t{1000000000} + frac * pow10_i64(9 - digits);
  return true;
}

bool is_unsigned_int(const ColumnDescriptor& c) { return c.type.logical.INTEGER && !c.type.logical.INTEGER->is_signed; }

PhysicalValue bind_integer(const ColumnDescriptor& column, const Literal& literal) {
  if (literal.kind != Literal::Kind::kNumber) misfit(column, literal, "is not a number");
  DecimalText d;
  if (!parse_decimal_text(literal.text, d)) misfit(column, literal, "is not a number");
  const bool is64 = column.type.physical == Type::INT64;
  int bits = is64 ? 64 : 32;
  bool is_signed = true;
  if (column.type.logical.INTEGER) {
    bits = column.type.logical.INTEGER->bit_width;
    is_signed = column.type.logical.INTEGER->is_signed;
  }
  Int128 v;
  if (!scaled_integer(d, 0, 30, v)) misfit(column, literal, "is not a whole number that fits");
  const Int128 low = is_signed ? -(Int128{1} << (bits - 1)) : 0;
  const Int128 high = is_signed ? (Int128{1} << (bits - 1)) - 1 : (Int128{1} << bits) - 1;
  if (v < low || v > high)
    misfit(column, literal,
           "is outside the column's range (INTEGER(" + std::to_string(bits) + ", " + (is_signed ? "true" : "false") +
               "))");
  PhysicalValue out;
  out.integer = is64 ? static_cast<int64_t>(static_cast<uint64_t>(v)) : static_cast<int32_t>(static_cast<uint32_t>(v));
  return out;
}

PhysicalValue bind_decimal(const ColumnDescriptor& column, const Literal& literal) {
  const auto& dec = *column.type.logical.DECIMAL;
  if (literal.kind != Literal::Kind::kNumber) misfit(column, literal, "is not a number");
  DecimalText d;
  if (!parse_decimal_text(literal.text, d)) misfit(column, literal, "is not a number");
  Int128 v;
  if (!scaled_integer(d, dec.scale, dec.precision, v))
    misfit(column, literal,
           "does not fit DECIMAL(" + std::to_string(dec.precision) + "," + std::to_string(dec.scale) + ")");
  PhysicalValue out;
  switch (column.type.physical) {
    case Type::INT32:
    case Type::INT64:
      out.integer = static_cast<int64_t>(v);
      break;
    case Type::FIXED_LEN_BYTE_ARRAY:
      out.bytes = big_endian(v, static_cast<size_t>(column.type.type_length));
      break;
    default:
      out.bytes = minimal_big_endian(v);
      break;
  }
  return out;
}

PhysicalValue bind_real(const ColumnDescriptor& column, const Literal& literal) {
  if (literal.kind != Literal::Kind::kNumber) misfit(column, literal, "is not a number");
  double v;
  if (literal.text == "NaN") {
    v = std::nan("");
  } else if (literal.text == "Infinity") {
    v = INFINITY;
  } else if (literal.text == "-Infinity") {
    v = -INFINITY;
  } else {
    DecimalText d;
    if (!parse_decimal_text(literal.text, d)) misfit(column, literal, "is not a number");
    v = std::strtod(literal.text.c_str(), nullptr);
  }
  PhysicalValue out;
  // FLOAT and FLOAT16 columns compare with the literal cast to float, as
  // DuckDB casts it.
  out.real = column.type.physical == Type::DOUBLE ? v : static_cast<double>(static_cast<float>(v));
  return out;
}

PhysicalValue bind_bytes(const ColumnDescriptor& column, const Literal& literal) {
  if (literal.kind != Literal::Kind::kString && literal.kind != Literal::Kind::kBinary)
    misfit(column, literal, "is not a string or binary value");
  PhysicalValue out;
  if (column.type.logical.UUID && literal.kind == Literal::Kind::kString) {
    std::string hex;
    for (char c : literal.text)
      if (c != '-') hex += c;
    if (hex.size() != 32) misfit(column, literal, "is not a UUID");
    for (size_t i = 0; i < 32; i += 2) {
      auto nib = [&](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        misfit(column, literal, "is not a UUID");
      };
      out.bytes += static_cast<char>(nib(hex[i]) << 4 | nib(hex[i + 1]));
    }
    return out;
  }
  out.bytes = literal.text;
  if (column.type.physical == Type::FIXED_LEN_BYTE_ARRAY &&
      out.bytes.size() != static_cast<size_t>(column.type.type_length))
    misfit(column, literal,
           "has " + std::to_string(out.bytes.size()) + " bytes where the column's values have " +
               std::to_string(column.type.type_length));
  return out;
}

PhysicalValue bind_date(const ColumnDescriptor& column, const Literal& literal) {
  if (literal.kind != Literal::Kind::kDate && literal.kind != Literal::Kind::kString)
    misfit(column, literal, "is not a date");
  auto days = text::parse_date(literal.text);
  if (!days) misfit(column, literal, "is not a date (YYYY-MM-DD)");
  PhysicalValue out;
  out.integer = *days;
  return out;
}

PhysicalValue bind_time(const ColumnDescriptor& column, const Literal& literal) {
  if (literal.kind != Literal::Kind::kTime && literal.kind != Literal::Kind::kString)
    misfit(column, literal, "is not a time");
  int64_t nanos;
  int digits;
  if (!parse_time_of_day(literal.text, nanos, digits)) misfit(column, literal, "is not a time (HH:MM:SS[.fraction])");
  const int unit = time_unit_index(column.type.logical.TIME->unit);
  const int64_t per = unit == 0 ? 1000000 : unit == 1 ? 1000 : 1;
  if (nanos % per != 0) misfit(column, literal, "is finer than the column's unit");
  PhysicalValue out;
  out.integer = nanos / per;
  return out;
}

// A timestamp literal (date alone: midnight) as nanoseconds since the epoch,
// and whether it named a zone.
Int128 timestamp_nanos(const ColumnDescriptor& column, const Literal& literal, bool& zoned) {
  if (literal.kind != Literal::Kind::kTimestamp && literal.kind != Literal::Kind::kString &&
      literal.kind != Literal::Kind::kDate)
    misfit(column, literal, "is not a timestamp");
  zoned = false;
  if (auto days = text::parse_date(literal.text)) return Int128{*days} * 86400 * 1000000000;
  auto t = text::parse_timestamp(literal.text);
  if (!t) misfit(column, literal, "is not a timestamp (YYYY-MM-DD HH:MM:SS[.fraction][Z|+HH:MM])");
  zoned = t->zoned;
  return Int128{t->seconds} * 1000000000 + t->nanos;
}

PhysicalValue bind_timestamp(const ColumnDescriptor& column, const Literal& literal) {
  bool zoned;
  const Int128 nanos = timestamp_nanos(column, literal, zoned);
  const auto& ts = *column.type.logical.TIMESTAMP;
  if (zoned && !ts.is_adjusted_to_utc)
    misfit(column, literal, "names a time zone, and the column's timestamps are local (not adjusted to UTC)");
  const int unit = time_unit_index(ts.unit);
  const Int128 per = unit == 0 ? 1000000 : unit == 1 ? 1000 : 1;
  if (nanos % per != 0) misfit(column, literal, "is finer than the column's unit");
  const Int128 v = nanos / per;
  if (v < INT64_MIN || v > INT64_MAX) misfit(column, literal, "is outside the range of the column's unit");
  PhysicalValue out;
  out.integer = static_cast<int64_t>(v);
  return out;
}

constexpr int64_t kJulianEpochDay = 2440588;  // 1970-01-01
constexpr int64_t kNanosPerDay = int64_t{86400} * 1000000000;

PhysicalValue bind_int96(const ColumnDescriptor& column, const Literal& literal) {
  bool zoned;
  const Int128 nanos = timestamp_nanos(column, literal, zoned);
  Int128 days = nanos / kNanosPerDay, rem = nanos % kNanosPerDay;
  if (rem < 0) {
    rem += kNanosPerDay;
    --days;
  }
  const Int128 julian = days + kJulianEpochDay;
  if (julian < INT32_MIN || julian > INT32_MAX) misfit(column, literal, "is outside INT96's range");
  PhysicalValue out;
  out.bytes.resize(12);
  const uint64_t n = static_cast<uint64_t>(rem);
  const uint32_t j = static_cast<uint32_t>(static_cast<int32_t>(julian));
  std::memcpy(out.bytes.data(), &n, 8);
  std::memcpy(out.bytes.data() + 8, &j, 4);
  return out;
}

// Standard base64 with padding, as `parq cat` prints binary values.
bool decode_base64(std::string_view text, std::string& out) {
  if (text.size() % 4 != 0) return false;
  auto sextet = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  for (size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const int pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=') : 0;
    int v[4];
    for (int k = 0; k < 4 - pad; ++k)
      if ((v[k] = sextet(text[i + static_cast<size_t>(k)])) < 0) return false;
    if (pad == 1 && text[i + 2] == '=') return false;
    const uint32_t bits = static_cast<uint32_t>(v[0]) << 18 | static_cast<uint32_t>(v[1]) << 12 |
                          (pad < 2 ? static_cast<uint32_t>(v[2]) << 6 : 0) |
                          (pad < 1 ? static_cast<uint32_t>(v[3]) : 0);
    out += static_cast<char>(bits >> 16);
    if (pad < 2) out += static_cast<char>(bits >> 8 & 0xff);
    if (pad < 1) out += static_cast<char>(bits & 0xff);
  }
  return true;
}

}  // namespace

const char* to_string(ValueOrder order) {
  switch (order) {
    case ValueOrder::kBoolean:
      return "boolean";
    case ValueOrder::kInt32:
      return "int32";
    case ValueOrder::kUInt32:
      return "uint32";
    case ValueOrder::kInt64:
      return "int64";
    case ValueOrder::kUInt64:
      return "uint64";
    case ValueOrder::kFloat:
      return "float";
    case ValueOrder::kDouble:
      return "double";
    case ValueOrder::kFloat16:
      return "float16";
    case ValueOrder::kBytes:
      return "bytes";
    case ValueOrder::kSignedBytes:
      return "signed bytes";
    case ValueOrder::kInt96:
      return "int96";
    case ValueOrder::kUnordered:
      return "unordered";
  }
  return "?";
}

ValueOrder value_order(const ColumnDescriptor& column) {
  const auto& logical = column.type.logical;
  switch (column.type.physical) {
    case Type::BOOLEAN:
      return ValueOrder::kBoolean;
    case Type::INT32:
      return is_unsigned_int(column) ? ValueOrder::kUInt32 : ValueOrder::kInt32;
    case Type::INT64:
      return is_unsigned_int(column) ? ValueOrder::kUInt64 : ValueOrder::kInt64;
    case Type::INT96:
      return ValueOrder::kInt96;
    case Type::FLOAT:
      return ValueOrder::kFloat;
    case Type::DOUBLE:
      return ValueOrder::kDouble;
    case Type::BYTE_ARRAY:
      return logical.DECIMAL ? ValueOrder::kSignedBytes : ValueOrder::kBytes;
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (logical.DECIMAL) return ValueOrder::kSignedBytes;
      if (logical.FLOAT16 && column.type.type_length == 2) return ValueOrder::kFloat16;
      if (column.type.converted == format::ConvertedType::INTERVAL) return ValueOrder::kUnordered;
      return ValueOrder::kBytes;
  }
  return ValueOrder::kUnordered;
}

PhysicalValue bind_literal(const ColumnDescriptor& column, const Literal& literal) {
  if (literal.kind == Literal::Kind::kNull) misfit(column, literal, "cannot be bound");
  const auto& logical = column.type.logical;
  if (logical.DECIMAL) return bind_decimal(column, literal);
  if (logical.DATE) return bind_date(column, literal);
  if (logical.TIME) return bind_time(column, literal);
  if (logical.TIMESTAMP) return bind_timestamp(column, literal);
  switch (column.type.physical) {
    case Type::BOOLEAN: {
      if (literal.kind != Literal::Kind::kBoolean) misfit(column, literal, "is not TRUE or FALSE");
      PhysicalValue out;
      out.integer = literal.text == "true";
      return out;
    }
    case Type::INT32:
    case Type::INT64:
      return bind_integer(column, literal);
    case Type::INT96:
      return bind_int96(column, literal);
    case Type::FLOAT:
    case Type::DOUBLE:
      return bind_real(column, literal);
    case Type::BYTE_ARRAY:
      return bind_bytes(column, literal);
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (logical.FLOAT16 && column.type.type_length == 2) return bind_real(column, literal);
      return bind_bytes(column, literal);
  }
  misfit(column, literal, "cannot be bound to the column's type");
}

PhysicalValue physical_value_from_text(const ColumnDescriptor& column, std::string_view text) {
  const auto& logical = column.type.logical;
  Literal literal;
  if (logical.DATE) {
    literal = Literal::date(std::string(text));
  } else if (logical.TIME) {
    literal = Literal::time(std::string(text));
  } else if (logical.TIMESTAMP || column.type.physical == Type::INT96) {
    literal = Literal::timestamp(std::string(text));
  } else if (logical.DECIMAL || logical.FLOAT16 ||
             (column.type.physical != Type::BYTE_ARRAY && column.type.physical != Type::FIXED_LEN_BYTE_ARRAY &&
              column.type.physical != Type::BOOLEAN)) {
    literal = Literal::number(std::string(text));
    if (text == "nan" || text == "NAN") literal.text = "NaN";
    if (text == "inf" || text == "+inf" || text == "infinity") literal.text = "Infinity";
    if (text == "-inf" || text == "-infinity") literal.text = "-Infinity";
  } else if (column.type.physical == Type::BOOLEAN) {
    if (text != "true" && text != "false")
      throw Error("column " + column.dotted_path() + ": '" + std::string(text) + "' is not true or false",
                  ErrorKind::kInvalidArgument);
    literal = Literal::boolean(text == "true");
  } else if (logical.STRING || logical.ENUM || logical.JSON || logical.UUID) {
    literal = Literal::string(std::string(text));
  } else {
    // Other byte arrays print as base64 (FORMAT.md).
    std::string bytes;
    if (!decode_base64(text, bytes))
      throw Error("column " + column.dotted_path() + ": '" + std::string(text) +
                      "' is not base64, as the column's binary values are written",
                  ErrorKind::kInvalidArgument);
    literal = Literal::binary(std::move(bytes));
  }
  return bind_literal(column, literal);
}

std::string plain_bytes(const ColumnDescriptor& column, const PhysicalValue& value) {
  std::string out;
  switch (column.type.physical) {
    case Type::BOOLEAN:
      out.push_back(static_cast<char>(value.integer != 0));
      break;
    case Type::INT32: {
      const int32_t v = static_cast<int32_t>(value.integer);
      out.assign(reinterpret_cast<const char*>(&v), 4);
      break;
    }
    case Type::INT64:
      out.assign(reinterpret_cast<const char*>(&value.integer), 8);
      break;
    case Type::FLOAT: {
      const float v = static_cast<float>(value.real);
      out.assign(reinterpret_cast<const char*>(&v), 4);
      break;
    }
    case Type::DOUBLE:
      out.assign(reinterpret_cast<const char*>(&value.real), 8);
      break;
    default:
      if (value_order(column) == ValueOrder::kFloat16) {
        // The literal is a float; its half-precision bits are what the
        // column stores only when it is exactly representable.
        const float f = static_cast<float>(value.real);
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
        const int exp = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
        uint16_t h;
        if (std::isnan(f)) {
          h = 0x7e00;
        } else if (exp >= 31) {
          h = sign | 0x7c00;
        } else if (exp <= 0) {
          h = sign | static_cast<uint16_t>(std::lround(std::ldexp(std::fabs(f), 24)));
        } else {
          h = sign | static_cast<uint16_t>(exp << 10) | static_cast<uint16_t>((bits >> 13) & 0x3ff);
        }
        out.assign(reinterpret_cast<const char*>(&h), 2);
      } else {
        out = value.bytes;
      }
      break;
  }
  return out;
}

bool from_plain_bytes(const ColumnDescriptor& column, std::string_view plain, PhysicalValue& out) {
  out = PhysicalValue{};
  switch (column.type.physical) {
    case Type::BOOLEAN:
      if (plain.size() != 1) return false;
      out.integer = plain[0] != 0;
      return true;
    case Type::INT32: {
      int32_t v;
      if (plain.size() != 4) return false;
      std::memcpy(&v, plain.data(), 4);
      out.integer = v;
      return true;
    }
    case Type::INT64:
      if (plain.size() != 8) return false;
      std::memcpy(&out.integer, plain.data(), 8);
      return true;
    case Type::FLOAT: {
      float v;
      if (plain.size() != 4) return false;
      std::memcpy(&v, plain.data(), 4);
      out.real = v;
      return true;
    }
    case Type::DOUBLE:
      if (plain.size() != 8) return false;
      std::memcpy(&out.real, plain.data(), 8);
      return true;
    case Type::INT96:
      if (plain.size() != 12) return false;
      out.bytes = std::string(plain);
      return true;
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (plain.size() != static_cast<size_t>(column.type.type_length)) return false;
      if (value_order(column) == ValueOrder::kFloat16) {
        uint16_t h;
        std::memcpy(&h, plain.data(), 2);
        out.real = half_to_float(h);
        return true;
      }
      out.bytes = std::string(plain);
      return true;
    case Type::BYTE_ARRAY:
      out.bytes = std::string(plain);
      return true;
  }
  return false;
}

namespace {

int compare_real(double a, double b) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) return static_cast<int>(na) - static_cast<int>(nb);
  return (a > b) - (a < b);
}

int compare_signed_bytes(std::string_view a, std::string_view b) {
  const bool na = !a.empty() && (static_cast<uint8_t>(a[0]) & 0x80);
  const bool nb = !b.empty() && (static_cast<uint8_t>(b[0]) & 0x80);
  if (na != nb) return na ? -1 : 1;
  // Same sign: extend the shorter with sign bytes, then compare unsigned.
  const size_t n = std::max(a.size(), b.size());
  const uint8_t fill = na ? 0xff : 0x00;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t x = i + a.size() < n ? fill : static_cast<uint8_t>(a[i + a.size() - n]);
    const uint8_t y = i + b.size() < n ? fill : static_cast<uint8_t>(b[i + b.size() - n]);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

Int128 int96_nanos(std::string_view v) {
  int64_t nanos;  // signed, as INT96_TIMESTAMP_ORDER reads it
  int32_t julian;
  std::memcpy(&nanos, v.data(), 8);
  std::memcpy(&julian, v.data() + 8, 4);
  return (Int128{julian} - kJulianEpochDay) * kNanosPerDay + static_cast<Int128>(nanos);
}

}  // namespace

int compare_values(ValueOrder order, const PhysicalValue& a, const PhysicalValue& b) {
  switch (order) {
    case ValueOrder::kBoolean:
    case ValueOrder::kInt64:
      return (a.integer > b.integer) - (a.integer < b.integer);
    case ValueOrder::kInt32: {
      const int32_t x = static_cast<int32_t>(a.integer), y = static_cast<int32_t>(b.integer);
      return (x > y) - (x < y);
    }
    case ValueOrder::kUInt32: {
      const uint32_t x = static_cast<uint32_t>(a.integer), y = static_cast<uint32_t>(b.integer);
      return (x > y) - (x < y);
    }
    case ValueOrder::kUInt64: {
      const uint64_t x = static_cast<uint64_t>(a.integer), y = static_cast<uint64_t>(b.integer);
      return (x > y) - (x < y);
    }
    case ValueOrder::kFloat:
    case ValueOrder::kDouble:
    case ValueOrder::kFloat16:
      return compare_real(a.real, b.real);
    case ValueOrder::kBytes:
    case ValueOrder::kUnordered: {
      const int c = a.bytes.compare(b.bytes);  // char_traits<char> compares as unsigned char
      return (c > 0) - (c < 0);
    }
    case ValueOrder::kSignedBytes:
      return compare_signed_bytes(a.bytes, b.bytes);
    case ValueOrder::kInt96: {
      if (a.bytes.size() != 12 || b.bytes.size() != 12) return a.bytes.compare(b.bytes);
      const Int128 x = int96_nanos(a.bytes), y = int96_nanos(b.bytes);
      return (x > y) - (x < y);
    }
  }
  return 0;
}

}  // namespace parq::filter
