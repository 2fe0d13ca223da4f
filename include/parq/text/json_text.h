// JSON building blocks for the canonical JSON Lines form of Parquet values
// (/work/shared/golden/FORMAT.md): strings, base64 strings and numbers.
//
// Every function appends to `out` and allocates nothing beyond what the append
// itself needs, because `parq cat` calls them once per value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace parq::text {

// Appends `bytes` as a quoted JSON string. `"` and `\` are escaped, U+0000..
// U+001F become \b \f \n \r \t or lowercase \u00XX, everything else is copied
// as is; bytes that are not valid UTF-8 become U+FFFD, one per maximal subpart
// (Unicode 15, section 3.9, "U+FFFD Substitution of Maximal Subparts").
void append_json_string(std::string& out, std::string_view bytes);

// Appends `bytes` as standard base64 (RFC 4648 alphabet, `=` padding), quoted.
void append_base64(std::string& out, std::string_view bytes);

// Appends `v` as a JSON number: std::to_chars's shortest round-trip text with
// the exponent's `+` and leading zeros dropped (1e21, 1e-5), `-0.0` for
// negative zero, and the quoted strings "NaN", "Infinity", "-Infinity".
void append_double(std::string& out, double v);

// The value of an IEEE 754 binary16 number (FLOAT16 columns), exactly.
double float16_to_double(uint16_t bits);

}  // namespace parq::text
