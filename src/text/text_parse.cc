// JSON (one value per line) and CSV records into TextRows; see text_input.h.
#include <cstdint>
#include <cstring>
#include <utility>

#include "parq/error.h"
#include "parq/text/json_text.h"
#include "parq/text/text_input.h"
#include "parq/util/utf8.h"

namespace parq::text {
namespace {

// A strict recursive-descent JSON parser; nesting is bounded so a hostile
// line cannot exhaust the stack.
class JsonParser {
 public:
  JsonParser(std::string_view text, TextRow& row) : s_(text), row_(row) {
    // Unescaped strings are at most as long as the input: reserving once
    // keeps the views into the arena valid.
    row_.arena.reserve(text.size());
  }

  void parse() {
    skip_space();
    value({}, 0);
    skip_space();
    if (pos_ != s_.size()) fail("text after the value");
  }

 private:
  static constexpr int kMaxDepth = 256;

  [[noreturn]] void fail(const std::string& what) const {
    throw Error("invalid JSON at byte " + std::to_string(pos_ + 1) + ": " + what);
  }

  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }

  bool literal(const char* word) {
    const size_t n = std::strlen(word);
    if (s_.compare(pos_, n, word) != 0) return false;
    pos_ += n;
    return true;
  }

  void value(std::string_view key, int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than 256");
    if (pos_ >= s_.size()) fail("a value is missing");
    const size_t at = row_.nodes.size();
    row_.nodes.push_back(TextNode{});
    row_.nodes[at].key = key;
    const char c = s_[pos_];
    if (c == '{') {
      object(at, depth);
    } else if (c == '[') {
      array(at, depth);
    } else if (c == '"') {
      row_.nodes[at].kind = NodeKind::kText;
      row_.nodes[at].quoted = true;
      row_.nodes[at].text = string();
    } else if (literal("true") || literal("false")) {
      row_.nodes[at].kind = NodeKind::kBool;
      row_.nodes[at].boolean = s_[pos_ - 1] == 'e' && s_[pos_ - 2] == 'u';
    } else if (literal("null")) {
      row_.nodes[at].kind = NodeKind::kNull;
    } else {
      row_.nodes[at].kind = NodeKind::kNumber;
      row_.nodes[at].text = number();
    }
    row_.nodes[at].span = static_cast<uint32_t>(row_.nodes.size() - at - 1);
  }

  void object(size_t at, int depth) {
    row_.nodes[at].kind = NodeKind::kObject;
    ++pos_;
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_space();
      if (pos_ >= s_.size() || s_[pos_] != '"') fail("a member name (a string) is expected");
      std::string_view key = string();
      skip_space();
      if (pos_ >= s_.size() || s_[pos_] != ':') fail("':' is expected after a member name");
      ++pos_;
      skip_space();
      value(key, depth + 1);
      ++row_.nodes[at].size;
      skip_space();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        return;
      }
      fail("',' or '}' is expected");
    }
  }

  void array(size_t at, int depth) {
    row_.nodes[at].kind = NodeKind::kArray;
    ++pos_;
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_space();
      value({}, depth + 1);
      ++row_.nodes[at].size;
      skip_space();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        return;
      }
      fail("',' or ']' is expected");
    }
  }

  std::string_view number() {
    const size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    const size_t int_start = pos_;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    if (pos_ == int_start) fail("a value is expected");
    if (pos_ - int_start > 1 && s_[int_start] == '0') fail("a number has a leading zero");
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      const size_t frac = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      if (pos_ == frac) fail("digits are expected after '.'");
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      const size_t exp = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      if (pos_ == exp) fail("digits are expected in the exponent");
    }
    return s_.substr(start, pos_ - start);
  }

  unsigned hex4() {
    if (pos_ + 4 > s_.size()) fail("a \\u escape needs four hex digits");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= static_cast<unsigned>(c - 'A' + 10);
      else
        fail("a \\u escape needs four hex digits");
    }
    return v;
  }

  // A string without escapes is a view of the input; others unescape into
  // the arena.
  std::string_view string() {
    ++pos_;
    const size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != '"' && s_[pos_] != '\\') {
      if (static_cast<unsigned char>(s_[pos_]) < 0x20) fail("a control character inside a string");
      ++pos_;
    }
    if (pos_ >= s_.size()) fail("a string is not closed");
    if (s_[pos_] == '"') return s_.substr(start, pos_++ - start);
    const size_t out = row_.arena.size();
    row_.arena.append(s_.substr(start, pos_ - start));
    while (pos_ < s_.size() && s_[pos_] != '"') {
      const char c = s_[pos_++];
      if (static_cast<unsigned char>(c) < 0x20) fail("a control character inside a string");
      if (c != '\\') {
        row_.arena += c;
        continue;
      }
      if (pos_ >= s_.size()) break;
      const char e = s_[pos_++];
      switch (e) {
        case '"':
          row_.arena += '"';
          break;
        case '\\':
          row_.arena += '\\';
          break;
        case '/':
          row_.arena += '/';
          break;
        case 'b':
          row_.arena += '\b';
          break;
        case 'f':
          row_.arena += '\f';
          break;
        case 'n':
          row_.arena += '\n';
          break;
        case 'r':
          row_.arena += '\r';
          break;
        case 't':
          row_.arena += '\t';
          break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && s_.compare(pos_, 2, "\\u") == 0) {
            pos_ += 2;
            const unsigned low = hex4();
            cp = low >= 0xDC00 && low < 0xE000 ? 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD;
          } else if (cp >= 0xD800 && cp < 0xE000) {
            cp = 0xFFFD;  // a lone surrogate
          }
          append_utf8(row_.arena, cp);
          break;
        }
        default:
          fail(std::string("unknown escape \\") + e);
      }
    }
    if (pos_ >= s_.size()) fail("a string is not closed");
    ++pos_;
    return std::string_view(row_.arena).substr(out);
  }

  std::string_view s_;
  TextRow& row_;
  size_t pos_ = 0;
};

}  // namespace

TextRow::TextRow(const TextRow& other) : nodes(other.nodes), arena(other.arena) {
  rebase(other.arena.data(), other.arena.size());
}

TextRow::TextRow(TextRow&& other) noexcept : nodes(std::move(other.nodes)) {
  const char* from = other.arena.data();
  const size_t size = other.arena.size();
  arena = std::move(other.arena);
  rebase(from, size);
  other.clear();
}

TextRow& TextRow::operator=(const TextRow& other) {
  if (this != &other) *this = TextRow(other);
  return *this;
}

TextRow& TextRow::operator=(TextRow&& other) noexcept {
  if (this == &other) return *this;
  nodes = std::move(other.nodes);
  const char* from = other.arena.data();
  const size_t size = other.arena.size();
  arena = std::move(other.arena);
  rebase(from, size);
  other.clear();
  return *this;
}

void TextRow::rebase(const char* from, size_t size) noexcept {
  if (from == arena.data() || size == 0) return;
  // Integer addresses: the views may point into unrelated objects, which
  // built-in pointer comparison does not order.
  const auto begin = reinterpret_cast<uintptr_t>(from);
  const auto move_view = [&](std::string_view& v) {
    const auto at = reinterpret_cast<uintptr_t>(v.data());
    if (v.data() != nullptr && at >= begin && at + v.size() <= begin + size)
      v = std::string_view(arena.data() + (at - begin), v.size());
  };
  for (TextNode& n : nodes) {
    move_view(n.text);
    move_view(n.key);
  }
}

void parse_json(std::string_view text, TextRow& row) {
  row.clear();
  JsonParser(text, row).parse();
}

bool CsvReader::next(std::vector<std::string_view>& fields) {
  fields.clear();
  unquoted_.clear();
  if (pos_ >= data_.size()) return false;
  line_ = next_line_;
  for (;;) {
    if (pos_ < data_.size() && data_[pos_] == '"') {
      // Quoted: doubled quotes stand for one; line breaks are data.
      size_t p = pos_ + 1;
      std::string value;
      for (;;) {
        size_t q = data_.find('"', p);
        if (q == std::string_view::npos)
          throw Error("CSV line " + std::to_string(line_) + ": a quoted field is not closed",
                      ErrorKind::kInvalidArgument);
        for (size_t i = p; i < q; ++i) next_line_ += data_[i] == '\n';
        value.append(data_.substr(p, q - p));
        if (q + 1 < data_.size() && data_[q + 1] == '"') {
          value += '"';
          p = q + 2;
          continue;
        }
        pos_ = q + 1;
        break;
      }
      unquoted_.push_back(std::move(value));
      fields.push_back(unquoted_.back());
      if (pos_ < data_.size() && data_[pos_] != delimiter_ && data_[pos_] != '\n' && data_[pos_] != '\r')
        throw Error("CSV line " + std::to_string(line_) + ": text after a closing quote");
    } else {
      size_t p = pos_;
      while (p < data_.size() && data_[p] != delimiter_ && data_[p] != '\n' && data_[p] != '\r') ++p;
      fields.push_back(data_.substr(pos_, p - pos_));
      pos_ = p;
    }
    if (pos_ < data_.size() && data_[pos_] == delimiter_) {
      ++pos_;
      continue;
    }
    if (pos_ < data_.size() && data_[pos_] == '\r') ++pos_;
    if (pos_ < data_.size() && data_[pos_] == '\n') ++pos_;
    ++next_line_;
    break;
  }
  return true;
}

}  // namespace parq::text
