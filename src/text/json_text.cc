// JSON strings, base64 strings and numbers in the canonical JSON Lines form
// (FORMAT.md); see parq/text/json_text.h.
#include "parq/text/json_text.h"

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>

namespace parq::text {
namespace {

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

// 0: copied as is; 1: needs a \u00XX escape; otherwise the short escape letter.
constexpr std::array<char, 128> make_escape_table() {
  std::array<char, 128> table{};
  for (int c = 0; c < 0x20; ++c) table[c] = 1;
  table['\b'] = 'b';
  table['\f'] = 'f';
  table['\n'] = 'n';
  table['\r'] = 'r';
  table['\t'] = 't';
  table['"'] = '"';
  table['\\'] = '\\';
  return table;
}
constexpr std::array<char, 128> kEscape = make_escape_table();

constexpr uint64_t kOnes = 0x0101010101010101ULL;
constexpr uint64_t kHighBits = 0x8080808080808080ULL;

constexpr uint64_t has_byte_below(uint64_t x, uint8_t n) {  // exact for n <= 128
  return (x - kOnes * n) & ~x & kHighBits;
}
constexpr uint64_t has_byte_equal(uint64_t x, uint8_t c) { return has_byte_below(x ^ (kOnes * c), 1); }

// True when none of 8 bytes needs attention: all ASCII, none a control
// character, a quote or a backslash. Lets plain text move 8 bytes a step.
bool plain_ascii8(const unsigned char* p) {
  uint64_t x;
  std::memcpy(&x, p, 8);
  return ((x & kHighBits) | has_byte_below(x, 0x20) | has_byte_equal(x, '"') | has_byte_equal(x, '\\')) == 0;
}

struct Utf8Sequence {
  size_t length;  // bytes consumed: the whole character, or the maximal subpart
  bool valid;
};

// Decodes the sequence starting at a byte >= 0x80 by Table 3-7 of the Unicode
// standard. An invalid one is cut at the first byte that cannot continue it,
// which makes `length` the maximal subpart to replace by one U+FFFD.
Utf8Sequence scan_utf8(const unsigned char* p, const unsigned char* end) {
  const unsigned char lead = p[0];
  size_t continuation_bytes;
  unsigned char second_low = 0x80;   // narrower second-byte ranges exclude overlongs,
  unsigned char second_high = 0xBF;  // surrogates and code points above U+10FFFF
  if (lead < 0xC2) {
    return {1, false};
  } else if (lead < 0xE0) {
    continuation_bytes = 1;
  } else if (lead < 0xF0) {
    continuation_bytes = 2;
    if (lead == 0xE0) second_low = 0xA0;
    if (lead == 0xED) second_high = 0x9F;
  } else if (lead < 0xF5) {
    continuation_bytes = 3;
    if (lead == 0xF0) second_low = 0x90;
    if (lead == 0xF4) second_high = 0x8F;
  } else {
    return {1, false};
  }
  const size_t available = static_cast<size_t>(end - p);
  if (available < 2 || p[1] < second_low || p[1] > second_high) return {1, false};
  for (size_t i = 2; i <= continuation_bytes; ++i) {
    if (i >= available || (p[i] & 0xC0) != 0x80) return {i, false};
  }
  return {continuation_bytes + 1, true};
}

void append_escape(std::string& out, unsigned char c) {
  const char letter = kEscape[c];
  if (letter == 1) {
    static constexpr char kHex[] = "0123456789abcdef";
    const char escaped[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
    out.append(escaped, 6);
  } else {
    const char escaped[2] = {'\\', letter};
    out.append(escaped, 2);
  }
}

}  // namespace

void append_json_string(std::string& out, std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const auto* const end = p + bytes.size();
  const auto* run = p;  // start of the bytes still to be copied verbatim
  auto flush = [&](const unsigned char* upto) {
    out.append(reinterpret_cast<const char*>(run), static_cast<size_t>(upto - run));
  };
  out.push_back('"');
  while (p < end) {
    while (end - p >= 8 && plain_ascii8(p)) p += 8;
    if (p == end) break;
    const unsigned char c = *p;
    if (c < 0x80) {
      if (kEscape[c] != 0) {
        flush(p);
        append_escape(out, c);
        run = p + 1;
      }
      ++p;
      continue;
    }
    const Utf8Sequence seq = scan_utf8(p, end);
    if (!seq.valid) {
      flush(p);
      out.append(kReplacementCharacter);
      run = p + seq.length;
    }
    p += seq.length;
  }
  flush(end);
  out.push_back('"');
}

void append_base64(std::string& out, std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const auto* in = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  const size_t start = out.size();
  out.resize(start + 2 + (n + 2) / 3 * 4);
  char* o = out.data() + start;
  *o++ = '"';
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const uint32_t v = (uint32_t{in[i]} << 16) | (uint32_t{in[i + 1]} << 8) | in[i + 2];
    o[0] = kAlphabet[v >> 18];
    o[1] = kAlphabet[(v >> 12) & 63];
    o[2] = kAlphabet[(v >> 6) & 63];
    o[3] = kAlphabet[v & 63];
    o += 4;
  }
  if (i < n) {
    const bool two = i + 1 < n;
    const uint32_t v = (uint32_t{in[i]} << 16) | (two ? uint32_t{in[i + 1]} << 8 : 0);
    o[0] = kAlphabet[v >> 18];
    o[1] = kAlphabet[(v >> 12) & 63];
    o[2] = two ? kAlphabet[(v >> 6) & 63] : '=';
    o[3] = '=';
    o += 4;
  }
  *o = '"';
}

void append_double(std::string& out, double v) {
  if (std::isnan(v)) {
    out.append("\"NaN\"");
    return;
  }
  if (std::isinf(v)) {
    out.append(v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    return;
  }
  if (v == 0 && std::signbit(v)) {  // to_chars writes "-0", which JSON parsers read as 0
    out.append("-0.0");
    return;
  }
  char buf[32];
  char* const end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  const char* e = static_cast<const char*>(std::memchr(buf, 'e', static_cast<size_t>(end - buf)));
  if (e == nullptr) {
    out.append(buf, static_cast<size_t>(end - buf));
    return;
  }
  out.append(buf, static_cast<size_t>(e + 1 - buf));
  const char* exponent = e + 1;
  if (*exponent == '+') {
    ++exponent;
  } else if (*exponent == '-') {
    out.push_back('-');
    ++exponent;
  }
  while (exponent + 1 < end && *exponent == '0') ++exponent;
  out.append(exponent, static_cast<size_t>(end - exponent));
}

double float16_to_double(uint16_t bits) {
  const bool negative = (bits & 0x8000) != 0;
  const int exponent = (bits >> 10) & 0x1F;
  const uint64_t mantissa = bits & 0x3FF;
  double magnitude;
  if (exponent == 0) {
    magnitude = static_cast<double>(mantissa) * 0x1p-24;  // subnormal: exact in double
  } else if (exponent == 0x1F) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    // Rebias the exponent (15 -> 1023) and widen the 10-bit fraction to 52 bits.
    magnitude = std::bit_cast<double>((uint64_t(exponent - 15 + 1023) << 52) | (mantissa << 42));
  }
  return negative ? -magnitude : magnitude;
}

}  // namespace parq::text
