// Decoding standard base64 (RFC 4648 alphabet, `=` padding required): the
// form Java's Base64.getEncoder() gives wrapped keys and key ids, so text
// written by parquet-java must decode here byte for byte. Encoding is
// text::append_base64.
//
// Private to the library (src/).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parq {

// The bytes `text` encodes; nullopt when it is not canonical padded base64
// (a length not a multiple of 4, a character outside the alphabet, padding
// anywhere but the end).
inline std::optional<std::string> base64_decode(std::string_view text) {
  static constexpr auto kValues = [] {
    std::array<int8_t, 256> v{};
    v.fill(-1);
    constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < alphabet.size(); ++i) v[static_cast<uint8_t>(alphabet[i])] = static_cast<int8_t>(i);
    return v;
  }();
  if (text.size() % 4 != 0) return std::nullopt;
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding = text[text.size() - 2] == '=' ? 2 : 1;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  uint32_t acc = 0;
  int held = 0;
  for (size_t i = 0; i + padding < text.size(); ++i) {
    const int8_t v = kValues[static_cast<uint8_t>(text[i])];
    if (v < 0) return std::nullopt;
    acc = acc << 6 | static_cast<uint32_t>(v);
    held += 6;
    if (held >= 8) {
      held -= 8;
      out.push_back(static_cast<char>(acc >> held & 0xff));
    }
  }
  // Bits left over after the last whole byte must be zero in canonical text.
  if (held > 0 && (acc & ((1u << held) - 1)) != 0) return std::nullopt;
  return out;
}

}  // namespace parq
