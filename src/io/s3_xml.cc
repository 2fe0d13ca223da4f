// The bounded S3 XML reader; see s3_xml.h.
#include "s3_xml.h"

#include <functional>

#include "http_parse.h"
#include "parq/error.h"
#include "parq/util/utf8.h"

namespace parq::io::s3 {
namespace {

constexpr size_t kMaxDocument = size_t{64} << 20;
constexpr size_t kMaxDepth = 32;
constexpr size_t kMaxText = size_t{64} << 10;
constexpr size_t kMaxName = 256;

[[noreturn]] void fail(const std::string& what) { throw Error(ErrorKind::kCorrupt, {}, "malformed XML: " + what); }

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == ':' || static_cast<unsigned char>(c) >= 0x80;
}

// Calls `on_end(path, text)` as each element ends: `path` the names from the
// root (namespace prefixes dropped), `text` the element's own text since its
// last child (all of it for a leaf).
using EndHandler = std::function<void(const std::vector<std::string>& path, const std::string& text)>;

class Reader {
 public:
  Reader(std::string_view doc, EndHandler on_end) : doc_(doc), on_end_(std::move(on_end)) {
    if (doc.size() > kMaxDocument) fail("document of " + std::to_string(doc.size()) + " bytes is too large");
  }

  void run() {
    bool seen_root = false;
    while (pos_ < doc_.size()) {
      if (doc_[pos_] != '<') {
        text();
        continue;
      }
      if (starts("<?")) {
        skip_past("?>");
      } else if (starts("<!--")) {
        skip_past("-->");
      } else if (starts("<![CDATA[")) {
        if (path_.empty()) fail("CDATA outside the root element");
        size_t start = pos_ + 9;
        size_t end = doc_.find("]]>", start);
        if (end == std::string_view::npos) fail("unterminated CDATA");
        add_text(doc_.substr(start, end - start));
        pos_ = end + 3;
      } else if (starts("<!")) {
        fail("DTDs and declarations are not accepted");
      } else if (starts("</")) {
        pos_ += 2;
        std::string name = read_name();
        skip_space();
        expect('>');
        if (path_.empty() || path_.back() != name) fail("closing tag </" + name + "> does not match");
        on_end_(path_, text_);
        path_.pop_back();
        text_.clear();
      } else {
        ++pos_;
        if (path_.empty() && seen_root) fail("a second root element");
        std::string name = read_name();
        bool empty = skip_attributes();
        if (path_.size() >= kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth));
        seen_root = true;
        path_.push_back(std::move(name));
        text_.clear();
        if (empty) {
          on_end_(path_, text_);
          path_.pop_back();
        }
      }
    }
    if (!path_.empty()) fail("the document ends inside <" + path_.back() + ">");
    if (!seen_root) fail("no root element");
  }

 private:
  bool starts(std::string_view s) const { return doc_.substr(pos_, s.size()) == s; }
  void skip_past(std::string_view s) {
    size_t end = doc_.find(s, pos_);
    if (end == std::string_view::npos) fail("unterminated " + std::string(doc_.substr(pos_, 2)));
    pos_ = end + s.size();
  }
  void skip_space() {
    while (pos_ < doc_.size() && (doc_[pos_] == ' ' || doc_[pos_] == '\t' || doc_[pos_] == '\r' || doc_[pos_] == '\n'))
      ++pos_;
  }
  void expect(char c) {
    if (pos_ >= doc_.size() || doc_[pos_] != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string read_name() {
    size_t start = pos_;
    while (pos_ < doc_.size() && is_name_char(doc_[pos_])) ++pos_;
    if (pos_ == start) fail("expected an element name");
    if (pos_ - start > kMaxName) fail("element name too long");
    std::string_view name = doc_.substr(start, pos_ - start);
    size_t colon = name.rfind(':');
    if (colon != std::string_view::npos) name.remove_prefix(colon + 1);
    return std::string(name);
  }
  // Skips to the end of a start tag; true for an empty element ("/>").
  bool skip_attributes() {
    while (true) {
      skip_space();
      if (pos_ >= doc_.size()) fail("unterminated start tag");
      char c = doc_[pos_];
      if (c == '>') {
        ++pos_;
        return false;
      }
      if (c == '/') {
        ++pos_;
        expect('>');
        return true;
      }
      read_name();
      skip_space();
      expect('=');
      skip_space();
      if (pos_ >= doc_.size() || (doc_[pos_] != '"' && doc_[pos_] != '\'')) fail("unquoted attribute value");
      char quote = doc_[pos_++];
      size_t end = doc_.find(quote, pos_);
      if (end == std::string_view::npos) fail("unterminated attribute value");
      pos_ = end + 1;
    }
  }
  void add_text(std::string_view s) {
    if (text_.size() + s.size() > kMaxText) fail("text longer than " + std::to_string(kMaxText) + " bytes");
    text_.append(s);
  }
  void text() {
    size_t end = doc_.find('<', pos_);
    if (end == std::string_view::npos) end = doc_.size();
    std::string_view raw = doc_.substr(pos_, end - pos_);
    pos_ = end;
    if (path_.empty()) {
      for (char c : raw)
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') fail("text outside the root element");
      return;
    }
    std::string decoded;
    size_t i = 0;
    while (i < raw.size()) {
      size_t amp = raw.find('&', i);
      if (amp == std::string_view::npos) {
        decoded.append(raw.substr(i));
        break;
      }
      decoded.append(raw.substr(i, amp - i));
      size_t semi = raw.find(';', amp);
      if (semi == std::string_view::npos || semi - amp > 12) fail("malformed entity reference");
      std::string_view ent = raw.substr(amp + 1, semi - amp - 1);
      if (ent == "lt") {
        decoded += '<';
      } else if (ent == "gt") {
        decoded += '>';
      } else if (ent == "amp") {
        decoded += '&';
      } else if (ent == "quot") {
        decoded += '"';
      } else if (ent == "apos") {
        decoded += '\'';
      } else if (ent.size() >= 2 && ent[0] == '#') {
        uint32_t cp = 0;
        bool hex = ent[1] == 'x' || ent[1] == 'X';
        std::string_view digits = ent.substr(hex ? 2 : 1);
        if (digits.empty() || digits.size() > 8) fail("malformed character reference");
        for (char c : digits) {
          int d;
          if (c >= '0' && c <= '9') {
            d = c - '0';
          } else if (hex && c >= 'a' && c <= 'f') {
            d = c - 'a' + 10;
          } else if (hex && c >= 'A' && c <= 'F') {
            d = c - 'A' + 10;
          } else {
            fail("malformed character reference");
          }
          cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(d);
          if (cp > 0x10FFFF) fail("character reference out of range");
        }
        if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) fail("character reference out of range");
        append_utf8(decoded, cp);
      } else {
        fail("unknown entity &" + std::string(ent) + ";");
      }
      i = semi + 1;
      if (decoded.size() > kMaxText) break;
    }
    add_text(decoded);
  }

  std::string_view doc_;
  EndHandler on_end_;
  size_t pos_ = 0;
  std::vector<std::string> path_;
  std::string text_;
};

}  // namespace

ListPage parse_list_page(std::string_view xml) {
  ListPage page;
  ListedObject current;
  bool has_key = false, has_size = false, root_checked = false;
  Reader(xml, [&](const std::vector<std::string>& path, const std::string& text) {
    if (!root_checked) {
      if (path[0] != "ListBucketResult") fail("expected <ListBucketResult>, got <" + path[0] + ">");
      root_checked = true;
    }
    if (path.size() == 2) {
      if (path[1] == "IsTruncated") {
        if (text != "true" && text != "false") fail("IsTruncated is neither true nor false");
        page.truncated = text == "true";
      } else if (path[1] == "NextContinuationToken") {
        page.next_continuation_token = text;
      } else if (path[1] == "Contents") {
        if (!has_key || !has_size) fail("an object without Key or Size");
        page.objects.push_back(std::move(current));
        current = {};
        has_key = has_size = false;
      }
    } else if (path.size() == 3 && path[1] == "Contents") {
      if (path[2] == "Key") {
        if (text.empty()) fail("an empty Key");
        current.key = text;
        has_key = true;
      } else if (path[2] == "Size") {
        auto size = http::parse_decimal(text);
        if (!size) fail("Size \"" + text.substr(0, 40) + "\" is not a number");
        current.size = *size;
        has_size = true;
      }
    }
  }).run();
  if (page.truncated && page.next_continuation_token.empty()) fail("a truncated listing without NextContinuationToken");
  return page;
}

std::optional<ErrorDocument> parse_error(std::string_view xml) {
  ErrorDocument doc;
  bool is_error = false;
  try {
    Reader(xml, [&](const std::vector<std::string>& path, const std::string& text) {
      if (path[0] != "Error") return;
      is_error = true;
      if (path.size() == 2 && path[1] == "Code") doc.code = text;
      if (path.size() == 2 && path[1] == "Message") doc.message = text;
    }).run();
  } catch (const Error&) {
    return std::nullopt;
  }
  if (!is_error || doc.code.empty()) return std::nullopt;
  if (doc.message.size() > 512) doc.message.resize(512);
  return doc;
}

}  // namespace parq::io::s3
