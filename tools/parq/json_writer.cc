// JsonWriter; see json_writer.h.
#include "json_writer.h"

#include <charconv>

#include "parq/text/json_text.h"

namespace parq::tool {

void JsonWriter::newline() {
  out_ += '\n';
  out_.append(2 * stack_.size(), ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  if (!stack_.back().empty) out_ += ',';
  stack_.back().empty = false;
  newline();
}

JsonWriter& JsonWriter::open(char bracket, bool is_object) {
  before_value();
  out_ += bracket;
  stack_.push_back({is_object});
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) newline();
  out_ += bracket;
  if (stack_.empty()) out_ += '\n';
  return *this;
}

JsonWriter& JsonWriter::begin_object() { return open('{', true); }
JsonWriter& JsonWriter::end_object() { return close('}'); }
JsonWriter& JsonWriter::begin_array() { return open('[', false); }
JsonWriter& JsonWriter::end_array() { return close(']'); }

JsonWriter& JsonWriter::key(std::string_view name) {
  before_value();
  text::append_json_string(out_, name);
  out_ += ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view s) {
  before_value();
  text::append_json_string(out_, s);
  return *this;
}

JsonWriter& JsonWriter::integer(int64_t v) {
  before_value();
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, r.ptr);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool v) {
  before_value();
  out_ += v ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  before_value();
  out_ += json;
  return *this;
}

JsonWriter& JsonWriter::inline_strings(const std::vector<std::string>& items) {
  before_value();
  out_ += '[';
  for (size_t i = 0; i < items.size(); ++i) {
    if (i != 0) out_ += ", ";
    text::append_json_string(out_, items[i]);
  }
  out_ += ']';
  return *this;
}

JsonWriter& JsonWriter::inline_integers(const std::vector<int64_t>& items) {
  before_value();
  out_ += '[';
  char buf[24];
  for (size_t i = 0; i < items.size(); ++i) {
    if (i != 0) out_ += ", ";
    auto r = std::to_chars(buf, buf + sizeof buf, items[i]);
    out_.append(buf, r.ptr);
  }
  out_ += ']';
  return *this;
}

}  // namespace parq::tool
