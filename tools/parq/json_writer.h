// A streaming JSON writer for the tool's machine-readable output: nested
// objects and arrays, indented two spaces, keys and strings escaped as the
// canonical form (text/json_text.h) escapes them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parq::tool {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);

  JsonWriter& string(std::string_view s);
  JsonWriter& integer(int64_t v);
  JsonWriter& boolean(bool v);
  JsonWriter& null();
  // A value already rendered as JSON text.
  JsonWriter& raw(std::string_view json);
  // Arrays of scalars on one line: ["PLAIN", "RLE"].
  JsonWriter& inline_strings(const std::vector<std::string>& items);
  JsonWriter& inline_integers(const std::vector<int64_t>& items);

  // Shorthands for "key": value.
  template <class T>
  JsonWriter& field(std::string_view name, const T& v);

 private:
  void before_value();
  JsonWriter& open(char bracket, bool is_object);
  JsonWriter& close(char bracket);
  void newline();

  struct Level {
    bool is_object;
    bool empty = true;
  };
  std::string& out_;
  std::vector<Level> stack_;
  bool after_key_ = false;
};

template <class T>
JsonWriter& JsonWriter::field(std::string_view name, const T& v) {
  key(name);
  if constexpr (std::is_same_v<T, bool>) {
    return boolean(v);
  } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    return integer(static_cast<int64_t>(v));
  } else {
    return string(v);
  }
}

}  // namespace parq::tool
