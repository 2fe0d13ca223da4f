// Shared error helpers for the codec adapters.
#pragma once

#include <string>

#include "parq/error.h"

namespace parq::compression {

[[noreturn]] inline void fail_decompress(const char* codec, const std::string& what) {
  throw Error(std::string(codec) + " decompression failed: " + what);
}

[[noreturn]] inline void fail_size(const char* codec, size_t got, size_t expected) {
  throw Error(std::string(codec) + " decompression failed: data decompresses to " + std::to_string(got) +
              " bytes, the page header says " + std::to_string(expected));
}

inline int check_level(const char* codec, int level, int lo, int hi, int fallback) {
  if (level == INT32_MIN) return fallback;
  if (level < lo || level > hi)
    throw Error(std::string(codec) + " level " + std::to_string(level) + " is outside " + std::to_string(lo) + ".." +
                    std::to_string(hi),
                ErrorKind::kInvalidArgument);
  return level;
}

}  // namespace parq::compression
