// DECIMAL values as exact quoted decimal strings (FORMAT.md), from int64 or
// from big-endian two's complement bytes of any length; see
// parq/text/value_text.h.
#include <charconv>
#include <cstring>
#include <memory>
#include <string>

#include "parq/error.h"
#include "parq/text/value_text.h"

namespace parq::text {
namespace {

void check_scale(int32_t scale) {
  if (scale > kMaxDecimalScale || scale < -kMaxDecimalScale) {
    throw Error("DECIMAL scale " + std::to_string(scale) + " is outside -" + std::to_string(kMaxDecimalScale) + ".." +
                std::to_string(kMaxDecimalScale));
  }
}

// Writes the magnitude's decimal `digits` (no leading zeros, "0" for zero)
// with the point `scale` places from the right, quoted.
void append_scaled(std::string& out, bool negative, std::string_view digits, int32_t scale) {
  check_scale(scale);
  out.push_back('"');
  if (negative) out.push_back('-');
  const auto n = static_cast<int64_t>(digits.size());
  if (scale <= 0) {
    out.append(digits);
    if (digits != "0") out.append(static_cast<size_t>(-int64_t{scale}), '0');
  } else if (n > scale) {
    out.append(digits.substr(0, static_cast<size_t>(n - scale)));
    out.push_back('.');
    out.append(digits.substr(static_cast<size_t>(n - scale)));
  } else {
    out.append("0.");
    out.append(static_cast<size_t>(scale - n), '0');
    out.append(digits);
  }
  out.push_back('"');
}

// Space that lives on the stack when small and on the heap otherwise, so the
// common widths (up to 32-byte decimals) never allocate.
template <typename T, size_t kLocal>
class Scratch {
 public:
  explicit Scratch(size_t n)
      : heap_(n > kLocal ? std::make_unique<T[]>(n) : nullptr), data_(heap_ ? heap_.get() : local_) {}
  T* data() { return data_; }

 private:
  T local_[kLocal];
  std::unique_ptr<T[]> heap_;
  T* data_;
};

// Drops leading bytes that only repeat the sign (00 before a byte < 0x80, FF
// before one >= 0x80): they do not change the value.
void strip_sign_bytes(const uint8_t*& p, size_t& n) {
  const uint8_t fill = (p[0] & 0x80) ? 0xFF : 0x00;
  while (n > 1 && p[0] == fill && ((p[1] ^ fill) & 0x80) == 0) {
    ++p;
    --n;
  }
}

int64_t load_be_signed(const uint8_t* p, size_t n) {  // n in 1..8
  uint64_t v = (p[0] & 0x80) ? ~uint64_t{0} : 0;      // sign-extend
  for (size_t i = 0; i < n; ++i) v = (v << 8) | p[i];
  return static_cast<int64_t>(v);
}

// Magnitude of the two's complement value in big-endian 32-bit words
// (`count` = ceil(n / 4) of them), negated when the sign bit is set.
void load_magnitude(const uint8_t* p, size_t n, uint32_t* words, size_t count) {
  const bool negative = (p[0] & 0x80) != 0;
  const size_t pad = count * 4 - n;
  uint32_t word = negative ? ~uint32_t{0} : 0;
  for (size_t i = 0; i < count * 4; ++i) {
    const uint8_t byte = i < pad ? (negative ? 0xFF : 0x00) : p[i - pad];
    word = (word << 8) | byte;
    if (i % 4 == 3) words[i / 4] = word;
  }
  if (!negative) return;
  uint64_t carry = 1;
  for (size_t i = count; i-- > 0;) {
    const uint64_t sum = uint64_t{static_cast<uint32_t>(~words[i])} + carry;
    words[i] = static_cast<uint32_t>(sum);
    carry = sum >> 32;
  }
}

// Decimal digits of the big-endian words (destroyed), written backwards so
// that they end at `end`; returns where they start. Schoolbook division by
// 10^9 gives nine digits per pass over the words.
char* write_digits_backwards(uint32_t* words, size_t count, char* end) {
  char* p = end;
  size_t first = 0;  // index of the first non-zero word
  while (first < count && words[first] == 0) ++first;
  while (first < count) {
    uint64_t remainder = 0;
    for (size_t i = first; i < count; ++i) {
      const uint64_t current = (remainder << 32) | words[i];
      words[i] = static_cast<uint32_t>(current / 1'000'000'000);
      remainder = current % 1'000'000'000;
    }
    while (first < count && words[first] == 0) ++first;
    for (int k = 0; k < 9; ++k) {
      *--p = static_cast<char>('0' + remainder % 10);
      remainder /= 10;
    }
  }
  while (p < end && *p == '0') ++p;
  if (p == end) *--p = '0';
  return p;
}

// Up to 16 bytes (Spark's DECIMAL(38)): the magnitude fits 128 bits and one
// division by 10^19 splits it into two 64-bit halves, each printable directly.
void append_decimal_128(std::string& out, const uint8_t* p, size_t n, int32_t scale) {
  const bool negative = (p[0] & 0x80) != 0;
  unsigned __int128 v = negative ? ~static_cast<unsigned __int128>(0) : 0;  // sign-extend
  for (size_t i = 0; i < n; ++i) v = (v << 8) | p[i];
  const unsigned __int128 magnitude = negative ? 0 - v : v;
  constexpr uint64_t kTen19 = 10'000'000'000'000'000'000ULL;
  // 2^127 / 10^19 < 2^64, so the high part fits 64 bits.
  const auto high = static_cast<uint64_t>(magnitude / kTen19);
  auto low = static_cast<uint64_t>(magnitude % kTen19);
  char buf[40];
  char* end = buf;
  if (high == 0) {
    end = std::to_chars(buf, buf + sizeof buf, low).ptr;
  } else {
    end = std::to_chars(buf, buf + sizeof buf, high).ptr;
    for (int i = 18; i >= 0; --i, low /= 10) end[i] = static_cast<char>('0' + low % 10);
    end += 19;
  }
  append_scaled(out, negative, std::string_view(buf, static_cast<size_t>(end - buf)), scale);
}

}  // namespace

void append_decimal(std::string& out, int64_t unscaled, int32_t scale) {
  const bool negative = unscaled < 0;
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(unscaled) : static_cast<uint64_t>(unscaled);
  char buf[24];
  char* const end = std::to_chars(buf, buf + sizeof buf, magnitude).ptr;
  append_scaled(out, negative, std::string_view(buf, static_cast<size_t>(end - buf)), scale);
}

void append_decimal_be(std::string& out, const uint8_t* big_endian_twos_complement, size_t n, int32_t scale) {
  // No bytes is the empty two's-complement number: zero, as DuckDB, arrow-rs,
  // Polars and hyparquet read it (hyparquet-writer stores 0 that way).
  if (n == 0) return append_decimal(out, 0, scale);
  const uint8_t* p = big_endian_twos_complement;
  strip_sign_bytes(p, n);
  if (n <= 8) return append_decimal(out, load_be_signed(p, n), scale);
  if (n <= 16) return append_decimal_128(out, p, n, scale);
  if (n > kMaxDecimalBytes) {
    throw Error("DECIMAL value of " + std::to_string(n) + " bytes is longer than the " +
                std::to_string(kMaxDecimalBytes) + " supported");
  }
  const size_t count = (n + 3) / 4;
  Scratch<uint32_t, 16> words(count);
  load_magnitude(p, n, words.data(), count);
  // The magnitude is below 2^(32 * count), so it has under 9.64 * count
  // digits; each pass writes 9 of them, count * 32 / 29 + 2 passes suffice.
  const size_t capacity = 9 * (count * 32 / 29 + 2);
  Scratch<char, 9 * (16 * 32 / 29 + 2)> digits(capacity);
  char* const end = digits.data() + capacity;
  const char* start = write_digits_backwards(words.data(), count, end);
  append_scaled(out, (p[0] & 0x80) != 0, std::string_view(start, static_cast<size_t>(end - start)), scale);
}

}  // namespace parq::text
