// Tests of the JSON building blocks of the canonical JSON Lines form
// (parq/text/json_text.h) against FORMAT.md's rules and examples.
#include "parq/text/json_text.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

namespace parq::text {
namespace {

using namespace std::string_literals;

const std::string kFFFD = "\xEF\xBF\xBD";

std::string json_string(std::string_view bytes) {
  std::string out;
  append_json_string(out, bytes);
  return out;
}

std::string base64(std::string_view bytes) {
  std::string out;
  append_base64(out, bytes);
  return out;
}

std::string number(double v) {
  std::string out;
  append_double(out, v);
  return out;
}

// ---------------------------------------------------------------------------
// Strings

TEST(JsonTextString, PlainAsciiIsQuotedVerbatim) {
  EXPECT_EQ(json_string(""), "\"\"");
  EXPECT_EQ(json_string("abc"), "\"abc\"");
  EXPECT_EQ(json_string("a/b"), "\"a/b\"");    // no escape for '/'
  EXPECT_EQ(json_string("\x7f"), "\"\x7f\"");  // DEL is not in U+0000..U+001F
  const std::string printable = [] {
    std::string s;
    for (char c = 0x20; c < 0x7f; ++c) {
      if (c != '"' && c != '\\') s.push_back(c);
    }
    return s;
  }();
  EXPECT_EQ(json_string(printable), "\"" + printable + "\"");
}

TEST(JsonTextString, EscapesQuoteAndBackslash) {
  EXPECT_EQ(json_string("\""), R"("\"")");
  EXPECT_EQ(json_string("\\"), R"("\\")");
  EXPECT_EQ(json_string("a\"b\\c"), R"("a\"b\\c")");
}

TEST(JsonTextString, EscapesEveryControlCharacter) {
  const char* const expected[32] = {
      R"(\u0000)", R"(\u0001)", R"(\u0002)", R"(\u0003)", R"(\u0004)", R"(\u0005)", R"(\u0006)", R"(\u0007)",
      R"(\b)",     R"(\t)",     R"(\n)",     R"(\u000b)", R"(\f)",     R"(\r)",     R"(\u000e)", R"(\u000f)",
      R"(\u0010)", R"(\u0011)", R"(\u0012)", R"(\u0013)", R"(\u0014)", R"(\u0015)", R"(\u0016)", R"(\u0017)",
      R"(\u0018)", R"(\u0019)", R"(\u001a)", R"(\u001b)", R"(\u001c)", R"(\u001d)", R"(\u001e)", R"(\u001f)"};
  std::string all;
  std::string all_expected = "\"";
  for (int c = 0; c < 32; ++c) {
    const std::string one(1, static_cast<char>(c));
    EXPECT_EQ(json_string(one), "\"" + std::string(expected[c]) + "\"") << "char " << c;
    all += one;
    all_expected += expected[c];
  }
  EXPECT_EQ(json_string(all), all_expected + "\"");
}

TEST(JsonTextString, EscapesAtEveryPositionOfLongRuns) {
  // The 8-byte fast path must notice a special byte wherever it falls.
  for (const char special : {'"', '\\', '\n', '\x01', '\x1f'}) {
    for (size_t pos = 0; pos < 40; ++pos) {
      std::string s(40, 'x');
      s[pos] = special;
      const std::string got = json_string(s);
      ASSERT_EQ(got.size(), special == '\x01' || special == '\x1f' ? 40u + 2 + 5 : 40u + 2 + 1)
          << "special " << int(special) << " at " << pos;
      EXPECT_EQ(got.substr(1, pos), std::string(pos, 'x'));
      EXPECT_EQ(got[pos + 1], '\\');
    }
  }
}

TEST(JsonTextString, ValidUtf8IsCopiedAsIs) {
  for (const std::string& s :
       {"\xC2\x80"s, "\xDF\xBF"s, "\xE0\xA0\x80"s, "\xED\x9F\xBF"s, "\xEE\x80\x80"s, "\xEF\xBF\xBF"s,
        "\xF0\x90\x80\x80"s, "\xF4\x8F\xBF\xBF"s, "h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80"s, kFFFD}) {
    EXPECT_EQ(json_string(s), "\"" + s + "\"");
  }
}

TEST(JsonTextString, InvalidLeadBytesBecomeOneReplacementEach) {
  EXPECT_EQ(json_string("\x80"), "\"" + kFFFD + "\"");
  EXPECT_EQ(json_string("\xBF"), "\"" + kFFFD + "\"");
  EXPECT_EQ(json_string("\xFE"), "\"" + kFFFD + "\"");
  EXPECT_EQ(json_string("\xFF"), "\"" + kFFFD + "\"");
  EXPECT_EQ(json_string("\x80\x80"), "\"" + kFFFD + kFFFD + "\"");
  // F5..FF can start nothing, so their trailing bytes are lone continuations.
  EXPECT_EQ(json_string("\xF5\x80\x80\x80"), "\"" + kFFFD + kFFFD + kFFFD + kFFFD + "\"");
  EXPECT_EQ(json_string("\xF8\x88\x80\x80\x80"), "\"" + kFFFD + kFFFD + kFFFD + kFFFD + kFFFD + "\"");
}

TEST(JsonTextString, OverlongsAreReplacedBytewise) {
  EXPECT_EQ(json_string("\xC0\xAF"), "\"" + kFFFD + kFFFD + "\"");
  EXPECT_EQ(json_string("\xC1\xBF"), "\"" + kFFFD + kFFFD + "\"");
  EXPECT_EQ(json_string("\xE0\x80\xAF"), "\"" + kFFFD + kFFFD + kFFFD + "\"");
  EXPECT_EQ(json_string("\xE0\x9F\xBF"), "\"" + kFFFD + kFFFD + kFFFD + "\"");
  EXPECT_EQ(json_string("\xF0\x80\x80\xAF"), "\"" + kFFFD + kFFFD + kFFFD + kFFFD + "\"");
  EXPECT_EQ(json_string("\xF0\x8F\xBF\xBF"), "\"" + kFFFD + kFFFD + kFFFD + kFFFD + "\"");
}

TEST(JsonTextString, SurrogatesAreReplacedBytewise) {
  EXPECT_EQ(json_string("\xED\xA0\x80"), "\"" + kFFFD + kFFFD + kFFFD + "\"");
  EXPECT_EQ(json_string("\xED\xBF\xBF"), "\"" + kFFFD + kFFFD + kFFFD + "\"");
  // A CESU-8 style surrogate pair is six invalid bytes.
  EXPECT_EQ(json_string("\xED\xA0\xBD\xED\xB8\x80"),
            "\"" + std::string() + kFFFD + kFFFD + kFFFD + kFFFD + kFFFD + kFFFD + "\"");
}

TEST(JsonTextString, CodePointsAbove10FFFFAreReplacedBytewise) {
  EXPECT_EQ(json_string("\xF4\x90\x80\x80"), "\"" + kFFFD + kFFFD + kFFFD + kFFFD + "\"");
  EXPECT_EQ(json_string("\xF4\xBF\xBF\xBF"), "\"" + kFFFD + kFFFD + kFFFD + kFFFD + "\"");
}

TEST(JsonTextString, TruncatedSequencesBecomeOneReplacement) {
  EXPECT_EQ(json_string("\xC3"), "\"" + kFFFD + "\"");
  EXPECT_EQ(json_string("\xE2\x82"), "\"" + kFFFD + "\"");
  EXPECT_EQ(json_string("\xF0\x9F"), "\"" + kFFFD + "\"");
  EXPECT_EQ(json_string("\xF0\x9F\x98"), "\"" + kFFFD + "\"");
  EXPECT_EQ(json_string("\xE2\x82"
                        "A"),
            "\"" + kFFFD + "A\"");
  EXPECT_EQ(json_string("\xF0\x9F\x98"
                        "A"),
            "\"" + kFFFD + "A\"");
  EXPECT_EQ(json_string("\xF0\x9F\x98\n"), "\"" + kFFFD + "\\n\"");
  // A truncated sequence followed by a new valid one.
  EXPECT_EQ(json_string("\xE2\x82\xC3\xA9"), "\"" + kFFFD + "\xC3\xA9\"");
}

TEST(JsonTextString, UnicodeStandardMaximalSubpartExample) {
  // Unicode 15, section 3.9, Table 3-8.
  EXPECT_EQ(json_string("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"),
            "\"a" + kFFFD + kFFFD + kFFFD + "b" + kFFFD + "c" + kFFFD + kFFFD + "d\"");
}

TEST(JsonTextString, InvalidBytesInsideLongAsciiRuns) {
  std::string s = std::string(13, 'a') + "\xFF" + std::string(17, 'b') + "\xE2\x82\xAC" + "c";
  EXPECT_EQ(json_string(s), "\"" + std::string(13, 'a') + kFFFD + std::string(17, 'b') + "\xE2\x82\xAC" + "c\"");
}

// Reference implementation, written from the definitions rather than for
// speed: a maximal subpart is the longest prefix of some well-formed
// sequence, found by lookup among the encodings of every scalar value.
class Utf8Reference {
 public:
  Utf8Reference() {
    for (uint32_t cp = 0x80; cp <= 0x10FFFF; ++cp) {
      if (cp >= 0xD800 && cp <= 0xDFFF) continue;
      const std::string e = encode(cp);
      complete_.insert(pack(e));
      for (size_t len = 1; len < e.size(); ++len) prefixes_.insert(pack(e.substr(0, len)));
    }
  }

  static std::string encode(uint32_t cp) {
    std::string e;
    if (cp < 0x80) {
      e.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      e.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      e.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      e.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      e.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      e.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      e.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      e.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      e.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      e.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
    return e;
  }

  std::string render(std::string_view s) const {
    std::string out = "\"";
    size_t i = 0;
    while (i < s.size()) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c < 0x80) {
        out += escape(c);
        ++i;
        continue;
      }
      size_t complete = 0;
      size_t prefix = 1;
      for (size_t len = 1; len <= 4 && i + len <= s.size(); ++len) {
        const uint64_t key = pack(s.substr(i, len));
        if (complete_.count(key)) complete = len;
        if (prefixes_.count(key)) prefix = len;
      }
      if (complete) {
        out += s.substr(i, complete);
        i += complete;
      } else {
        out += kFFFD;
        i += prefix;
      }
    }
    return out + "\"";
  }

 private:
  static std::string escape(unsigned char c) {
    switch (c) {
      case '"':
        return "\\\"";
      case '\\':
        return "\\\\";
      case '\b':
        return "\\b";
      case '\f':
        return "\\f";
      case '\n':
        return "\\n";
      case '\r':
        return "\\r";
      case '\t':
        return "\\t";
      default:
        break;
    }
    if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      return buf;
    }
    return std::string(1, static_cast<char>(c));
  }

  static uint64_t pack(std::string_view s) {
    uint64_t key = s.size();
    for (const char c : s) key = (key << 8) | static_cast<unsigned char>(c);
    return key;
  }

  std::unordered_set<uint64_t> complete_;
  std::unordered_set<uint64_t> prefixes_;
};

TEST(JsonTextString, MatchesReferenceOnRandomBytes) {
  const Utf8Reference reference;
  std::mt19937_64 rng(20240611);
  const std::vector<std::string> pieces = {"\x80", "\xBF", "\xC0", "\xC1", "\xC2", "\xDF", "\xE0", "\xE1",
                                           "\xEC", "\xED", "\xEE", "\xEF", "\xF0", "\xF1", "\xF3", "\xF4",
                                           "\xF5", "\xFF", "\x9F", "\xA0", "\x8F", "\x90", "\"",   "\\",
                                           "\n",   "\x01", "a",    "b",    "0",    " ",    "\x7F"};
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::string s;
    const size_t length = rng() % 40;
    while (s.size() < length) {
      switch (rng() % 3) {
        case 0:
          s += pieces[rng() % pieces.size()];
          break;
        case 1:
          s.push_back(static_cast<char>(rng() & 0xFF));
          break;
        default: {
          uint32_t cp = static_cast<uint32_t>(rng() % 0x110000);
          if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0x20AC;
          std::string e = Utf8Reference::encode(cp);
          if (rng() % 4 == 0) e.pop_back();  // sometimes truncated
          s += e;
        }
      }
    }
    ASSERT_EQ(json_string(s), reference.render(s)) << "iteration " << iteration;
  }
}

TEST(JsonTextString, AppendsWithoutTouchingExistingText) {
  std::string out = "{\"k\":";
  append_json_string(out, "v\n");
  EXPECT_EQ(out, "{\"k\":\"v\\n\"");
}

// ---------------------------------------------------------------------------
// Base64

TEST(JsonTextBase64, Rfc4648TestVectors) {
  EXPECT_EQ(base64(""), "\"\"");
  EXPECT_EQ(base64("f"), "\"Zg==\"");
  EXPECT_EQ(base64("fo"), "\"Zm8=\"");
  EXPECT_EQ(base64("foo"), "\"Zm9v\"");
  EXPECT_EQ(base64("foob"), "\"Zm9vYg==\"");
  EXPECT_EQ(base64("fooba"), "\"Zm9vYmE=\"");
  EXPECT_EQ(base64("foobar"), "\"Zm9vYmFy\"");
}

TEST(JsonTextBase64, GoldenValuesAndFullAlphabet) {
  // alltypes_plain.parquet.jsonl: date_string_col "03/01/09", string_col "0".
  EXPECT_EQ(base64("03/01/09"), "\"MDMvMDEvMDk=\"");
  EXPECT_EQ(base64("0"), "\"MA==\"");
  EXPECT_EQ(base64("unknown string 1"), "\"dW5rbm93biBzdHJpbmcgMQ==\"");
  // 0x00 0x10 0x83 ... enumerates all 64 sextets in order.
  std::string bytes;
  for (int i = 0; i < 64; i += 4) {
    const uint32_t v = (uint32_t(i) << 18) | (uint32_t(i + 1) << 12) | (uint32_t(i + 2) << 6) | uint32_t(i + 3);
    bytes.push_back(static_cast<char>(v >> 16));
    bytes.push_back(static_cast<char>(v >> 8));
    bytes.push_back(static_cast<char>(v));
  }
  EXPECT_EQ(base64(bytes), "\"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/\"");
  EXPECT_EQ(base64("\xFF\xFF\xFF"), "\"////\"");
  EXPECT_EQ(base64(std::string("\0\0", 2)), "\"AAA=\"");
}

TEST(JsonTextBase64, AppendsAfterExistingText) {
  std::string out = "x";
  append_base64(out, "foob");
  EXPECT_EQ(out, "x\"Zm9vYg==\"");
}

// ---------------------------------------------------------------------------
// Numbers

TEST(JsonTextDouble, FormatExamples) {
  EXPECT_EQ(number(0), "0");
  EXPECT_EQ(number(1.5), "1.5");
  EXPECT_EQ(number(100), "100");
  EXPECT_EQ(number(10000), "10000");
  EXPECT_EQ(number(0.001), "0.001");
  EXPECT_EQ(number(1e5), "1e5");
  EXPECT_EQ(number(1e-4), "1e-4");
  EXPECT_EQ(number(1.5e-7), "1.5e-7");
  EXPECT_EQ(number(1e21), "1e21");
  EXPECT_EQ(number(5e-324), "5e-324");
  EXPECT_EQ(number(std::ldexp(1.0, 70)), "1180591620717411303424");
}

TEST(JsonTextDouble, SpecialValues) {
  EXPECT_EQ(number(-0.0), "-0.0");
  EXPECT_EQ(number(std::numeric_limits<double>::quiet_NaN()), "\"NaN\"");
  EXPECT_EQ(number(-std::numeric_limits<double>::quiet_NaN()), "\"NaN\"");
  EXPECT_EQ(number(std::numeric_limits<double>::signaling_NaN()), "\"NaN\"");
  EXPECT_EQ(number(std::numeric_limits<double>::infinity()), "\"Infinity\"");
  EXPECT_EQ(number(-std::numeric_limits<double>::infinity()), "\"-Infinity\"");
}

TEST(JsonTextDouble, ShortestRoundTrip) {
  EXPECT_EQ(number(0.1), "0.1");
  EXPECT_EQ(number(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(number(2.0 / 3), "0.6666666666666666");
  EXPECT_EQ(number(-1.0 / 3), "-0.3333333333333333");
  EXPECT_EQ(number(1e300), "1e300");
  EXPECT_EQ(number(-1e300), "-1e300");
  EXPECT_EQ(number(1e-5), "1e-5");
  EXPECT_EQ(number(1e-300), "1e-300");
  EXPECT_EQ(number(1.7976931348623157e308), "1.7976931348623157e308");
  EXPECT_EQ(number(-2.5), "-2.5");
  EXPECT_EQ(number(10.1), "10.1");
  EXPECT_EQ(number(123456.789), "123456.789");
  EXPECT_EQ(number(1e15), "1e15");
  // Fixed notation is shorter than 1.2345678901234568e+20, and among the
  // equally short fixed texts to_chars picks the exact one.
  EXPECT_EQ(number(123456789012345680000.0), "123456789012345683968");
  // The float 1.1f widened, as in alltypes_plain.parquet.jsonl.
  EXPECT_EQ(number(static_cast<double>(1.1f)), "1.100000023841858");
}

TEST(JsonTextDouble, Subnormals) {
  EXPECT_EQ(number(std::numeric_limits<double>::denorm_min()), "5e-324");
  EXPECT_EQ(number(-std::numeric_limits<double>::denorm_min()), "-5e-324");
  EXPECT_EQ(number(1e-320), "1e-320");
  EXPECT_EQ(number(2.225073858507201e-308), "2.225073858507201e-308");  // largest subnormal
  EXPECT_EQ(number(std::numeric_limits<double>::min()), "2.2250738585072014e-308");
}

TEST(JsonTextDouble, RoundTripsThroughStrtod) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    const double v = std::bit_cast<double>(rng());
    if (!std::isfinite(v) || v == 0) continue;
    const std::string text = number(v);
    ASSERT_EQ(text.find("e+"), std::string::npos) << text;
    ASSERT_EQ(text.find("e0"), std::string::npos) << text;
    ASSERT_EQ(text.find("e-0"), std::string::npos) << text;
    ASSERT_EQ(std::strtod(text.c_str(), nullptr), v) << text;
  }
}

TEST(JsonTextFloat16, NormalSubnormalAndSpecialValues) {
  EXPECT_EQ(float16_to_double(0x0000), 0.0);
  EXPECT_TRUE(std::signbit(float16_to_double(0x8000)));
  EXPECT_EQ(float16_to_double(0x8000), 0.0);
  EXPECT_EQ(float16_to_double(0x3C00), 1.0);
  EXPECT_EQ(float16_to_double(0xC000), -2.0);
  EXPECT_EQ(float16_to_double(0x3555), 0.333251953125);
  EXPECT_EQ(float16_to_double(0x4927), 10.3046875);  // byte_stream_split_extended golden
  EXPECT_EQ(float16_to_double(0x7BFF), 65504.0);
  EXPECT_EQ(float16_to_double(0xFBFF), -65504.0);
  EXPECT_EQ(float16_to_double(0x0400), std::ldexp(1.0, -14));         // smallest normal
  EXPECT_EQ(float16_to_double(0x03FF), 1023 * std::ldexp(1.0, -24));  // largest subnormal
  EXPECT_EQ(float16_to_double(0x0001), std::ldexp(1.0, -24));         // smallest subnormal
  EXPECT_EQ(float16_to_double(0x8001), -std::ldexp(1.0, -24));
  EXPECT_EQ(float16_to_double(0x7C00), std::numeric_limits<double>::infinity());
  EXPECT_EQ(float16_to_double(0xFC00), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(float16_to_double(0x7E00)));
  EXPECT_TRUE(std::isnan(float16_to_double(0x7C01)));
  EXPECT_TRUE(std::isnan(float16_to_double(0xFFFF)));
}

TEST(JsonTextFloat16, AllFiniteValuesMatchLdexp) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const int exponent = (bits >> 10) & 0x1F;
    if (exponent == 0x1F) continue;
    const int mantissa = bits & 0x3FF;
    double expected = exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, exponent - 25);
    if (bits & 0x8000) expected = -expected;
    ASSERT_EQ(float16_to_double(static_cast<uint16_t>(bits)), expected) << bits;
  }
}

TEST(JsonTextFloat16, GoldenRendering) {
  // float16_nonzeros_and_nans.parquet.jsonl: 1, -2, "NaN", 0, -1, -0.0, 2.
  EXPECT_EQ(number(float16_to_double(0x3C00)), "1");
  EXPECT_EQ(number(float16_to_double(0xC000)), "-2");
  EXPECT_EQ(number(float16_to_double(0x7E00)), "\"NaN\"");
  EXPECT_EQ(number(float16_to_double(0x0000)), "0");
  EXPECT_EQ(number(float16_to_double(0xBC00)), "-1");
  EXPECT_EQ(number(float16_to_double(0x8000)), "-0.0");
  EXPECT_EQ(number(float16_to_double(0x4000)), "2");
  EXPECT_EQ(number(float16_to_double(0x0001)), "5.960464477539063e-8");
}

}  // namespace
}  // namespace parq::text
