// UTF-8 encoding of one code point, for the parsers that decode escapes
// (JSON's \u, XML's character references) and the statistics builder.
#pragma once

#include <cstdint>
#include <string>

namespace parq {

// Appends code point `cp` (at most 0x10FFFF) as UTF-8.
void append_utf8(std::string& out, uint32_t cp);

}  // namespace parq
