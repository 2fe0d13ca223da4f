// Lowercase hexadecimal of bytes, two digits a byte, no separators: the
// form digests take in S3 signatures and FILE reference checksums; and
// the digits' values, for keys and escapes given in hex.
//
// Private to the library (src/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace parq {

inline std::string lower_hex(const uint8_t* p, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[p[i] >> 4];
    out[2 * i + 1] = kDigits[p[i] & 15];
  }
  return out;
}

// The value of a hexadecimal digit (either case), or -1.
inline int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace parq
