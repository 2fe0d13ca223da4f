// The message notation parser; see schema_text.h.
#include "parq/schema/schema_text.h"

#include <cctype>
#include <string>
#include <vector>

#include "parq/error.h"
#include "parq/schema/logical_type.h"

namespace parq {
namespace {

using format::ConvertedType;
using format::LogicalType;

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  Schema parse() {
    expect_word("message");
    std::vector<format::SchemaElement> elements(1);
    elements[0].name = word("the message name");
    expect('{');
    elements[0].num_children = fields(elements);
    expect('}');
    skip();
    if (pos_ != s_.size()) fail("text after the message");
    return Schema::from_elements(elements);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    int line = 1;
    for (size_t i = 0; i < pos_ && i < s_.size(); ++i) line += s_[i] == '\n';
    throw Error("schema text, line " + std::to_string(line) + ": " + what, ErrorKind::kInvalidArgument);
  }

  void skip() {
    for (;;) {
      while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (s_.compare(pos_, 2, "//") != 0) return;
      while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
    }
  }

  bool peek(char c) {
    skip();
    return pos_ < s_.size() && s_[pos_] == c;
  }

  void expect(char c) {
    if (!peek(c)) fail(std::string("'") + c + "' is expected");
    ++pos_;
  }

  std::string word(const char* what) {
    skip();
    const size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' ||
                                s_[pos_] == '-' || s_[pos_] == '.' || s_[pos_] == ':'))
      ++pos_;
    if (pos_ == start) fail(std::string(what) + " is expected");
    return std::string(s_.substr(start, pos_ - start));
  }

  int32_t number(const char* what) {
    const std::string w = word(what);
    try {
      size_t used = 0;
      const int v = std::stoi(w, &used);
      if (used == w.size()) return v;
    } catch (...) {
    }
    fail(std::string(what) + " must be a number, not '" + w + "'");
  }

  // Up to the next ',' or ')' outside brackets and quotes: CRS parameters
  // are PROJJSON objects.
  std::string parameter() {
    skip();
    const size_t start = pos_;
    int depth = 0;
    bool quoted = false;
    for (; pos_ < s_.size(); ++pos_) {
      const char c = s_[pos_];
      if (quoted) {
        if (c == '\\')
          ++pos_;
        else if (c == '"')
          quoted = false;
        continue;
      }
      if (c == '"')
        quoted = true;
      else if (c == '{' || c == '[' || c == '(')
        ++depth;
      else if ((c == '}' || c == ']' || c == ')') && depth > 0)
        --depth;
      else if ((c == ',' || c == ')') && depth == 0)
        break;
    }
    if (pos_ == start) fail("a parameter is expected");
    std::string p(s_.substr(start, pos_ - start));
    while (!p.empty() && std::isspace(static_cast<unsigned char>(p.back()))) p.pop_back();
    return p;
  }

  void expect_word(const char* w) {
    if (word(w) != w) fail(std::string("'") + w + "' is expected");
  }

  static std::string upper(std::string w) {
    for (char& c : w) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return w;
  }

  format::TimeUnit unit(const std::string& w) {
    format::TimeUnit u;
    const std::string up = upper(w);
    if (up == "MILLIS")
      u.MILLIS.emplace();
    else if (up == "MICROS")
      u.MICROS.emplace();
    else if (up == "NANOS")
      u.NANOS.emplace();
    else
      fail("time unit '" + w + "' is not MILLIS, MICROS or NANOS");
    return u;
  }

  bool boolean(const std::string& w) {
    if (w == "true") return true;
    if (w == "false") return false;
    fail("'" + w + "' is not true or false");
  }

  // After '(': the annotation and its ')'.
  void annotation(format::SchemaElement& e) {
    const std::string name = upper(word("an annotation"));
    LogicalType l;
    auto params = [&](size_t n) {
      std::vector<std::string> out;
      expect('(');
      for (size_t i = 0; i < n; ++i) {
        if (i) expect(',');
        out.push_back(parameter());
      }
      expect(')');
      return out;
    };
    if (name == "STRING")
      l.STRING.emplace();
    else if (name == "ENUM")
      l.ENUM.emplace();
    else if (name == "JSON")
      l.JSON.emplace();
    else if (name == "BSON")
      l.BSON.emplace();
    else if (name == "UUID")
      l.UUID.emplace();
    else if (name == "DATE")
      l.DATE.emplace();
    else if (name == "FLOAT16")
      l.FLOAT16.emplace();
    else if (name == "LIST")
      l.LIST.emplace();
    else if (name == "MAP")
      l.MAP.emplace();
    else if (name == "UNKNOWN")
      l.UNKNOWN.emplace();
    else if (name == "FILE")
      l.FILE.emplace();
    else if (name == "VARIANT") {
      l.VARIANT.emplace();
      if (peek('(')) l.VARIANT->specification_version = static_cast<int8_t>(std::stoi(params(1)[0]));
    } else if (name == "GEOMETRY") {
      l.GEOMETRY.emplace();
      if (peek('(')) l.GEOMETRY->crs = params(1)[0];
    } else if (name == "GEOGRAPHY") {
      l.GEOGRAPHY.emplace();
      if (peek('(')) {
        auto p = params(2);
        l.GEOGRAPHY->crs = p[0];
        static const char* kAlgorithms[] = {"SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER", "KARNEY"};
        for (int i = 0; i < 5; ++i)
          if (upper(p[1]) == kAlgorithms[i])
            l.GEOGRAPHY->algorithm = static_cast<format::EdgeInterpolationAlgorithm>(i);
        if (!l.GEOGRAPHY->algorithm) fail("unknown edge interpolation '" + p[1] + "'");
      }
    } else if (name == "DECIMAL") {
      auto p = params(2);
      l.DECIMAL = format::DecimalType{std::stoi(p[1]), std::stoi(p[0])};
      e.precision = l.DECIMAL->precision;
      e.scale = l.DECIMAL->scale;
    } else if (name == "INTEGER") {
      auto p = params(2);
      l.INTEGER = format::IntType{static_cast<int8_t>(std::stoi(p[0])), boolean(p[1])};
    } else if (name == "TIME" || name == "TIMESTAMP") {
      auto p = params(2);
      if (name == "TIME")
        l.TIME = format::TimeType{boolean(p[1]), unit(p[0])};
      else
        l.TIMESTAMP = format::TimestampType{boolean(p[1]), unit(p[0])};
    } else {
      static const std::pair<const char*, ConvertedType> kLegacy[] = {
          {"UTF8", ConvertedType::UTF8},
          {"MAP_KEY_VALUE", ConvertedType::MAP_KEY_VALUE},
          {"INTERVAL", ConvertedType::INTERVAL},
          {"TIME_MILLIS", ConvertedType::TIME_MILLIS},
          {"TIME_MICROS", ConvertedType::TIME_MICROS},
          {"TIMESTAMP_MILLIS", ConvertedType::TIMESTAMP_MILLIS},
          {"TIMESTAMP_MICROS", ConvertedType::TIMESTAMP_MICROS},
          {"UINT_8", ConvertedType::UINT_8},
          {"UINT_16", ConvertedType::UINT_16},
          {"UINT_32", ConvertedType::UINT_32},
          {"UINT_64", ConvertedType::UINT_64},
          {"INT_8", ConvertedType::INT_8},
          {"INT_16", ConvertedType::INT_16},
          {"INT_32", ConvertedType::INT_32},
          {"INT_64", ConvertedType::INT_64},
      };
      for (const auto& [legacy, converted] : kLegacy)
        if (name == legacy) {
          e.converted_type = converted;
          expect(')');
          return;
        }
      fail("unknown annotation '" + name + "'");
    }
    e.logical_type = l;
    if (name == "LIST") e.converted_type = ConvertedType::LIST;
    if (name == "MAP") e.converted_type = ConvertedType::MAP;
    if (name == "STRING") e.converted_type = ConvertedType::UTF8;
    if (name == "DECIMAL") e.converted_type = ConvertedType::DECIMAL;
    if (name == "DATE") e.converted_type = ConvertedType::DATE;
    expect(')');
  }

  std::optional<format::Type> physical(const std::string& w) {
    static const std::pair<const char*, format::Type> kTypes[] = {
        {"boolean", format::Type::BOOLEAN},   {"int32", format::Type::INT32},
        {"int64", format::Type::INT64},       {"int96", format::Type::INT96},
        {"float", format::Type::FLOAT},       {"double", format::Type::DOUBLE},
        {"binary", format::Type::BYTE_ARRAY}, {"fixed_len_byte_array", format::Type::FIXED_LEN_BYTE_ARRAY},
    };
    for (const auto& [name, t] : kTypes)
      if (w == name) return t;
    return std::nullopt;
  }

  // Fields up to the closing '}'; returns how many.
  int32_t fields(std::vector<format::SchemaElement>& out) {
    int32_t n = 0;
    while (!peek('}')) {
      field(out);
      ++n;
    }
    return n;
  }

  void field(std::vector<format::SchemaElement>& out) {
    format::SchemaElement e;
    const std::string rep = word("a repetition (required, optional or repeated)");
    if (rep == "required")
      e.repetition_type = format::FieldRepetitionType::REQUIRED;
    else if (rep == "optional")
      e.repetition_type = format::FieldRepetitionType::OPTIONAL;
    else if (rep == "repeated")
      e.repetition_type = format::FieldRepetitionType::REPEATED;
    else
      fail("'" + rep + "' is not required, optional or repeated");
    const std::string kind = word("a type or 'group'");
    if (kind != "group") {
      auto t = physical(kind);
      if (!t) fail("unknown type '" + kind + "'");
      e.type = *t;
      if (*t == format::Type::FIXED_LEN_BYTE_ARRAY) {
        expect('(');
        e.type_length = number("the fixed length");
        expect(')');
      }
    }
    e.name = word("a field name");
    if (peek('(')) {
      ++pos_;
      annotation(e);
    }
    if (peek('=')) {
      ++pos_;
      e.field_id = number("the field id");
    }
    const size_t at = out.size();
    out.push_back(std::move(e));
    if (kind == "group") {
      expect('{');
      out[at].num_children = fields(out);
      expect('}');
      if (peek(';')) ++pos_;
    } else {
      expect(';');
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

Schema parse_schema_text(std::string_view text) {
  try {
    return Parser(text).parse();
  } catch (const std::logic_error&) {  // std::stoi on a parameter
    throw Error("schema text: an annotation parameter is not a number", ErrorKind::kInvalidArgument);
  }
}

ValueType parse_leaf_type(std::string_view text) {
  std::string_view t = text;
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  std::string type(t);
  if (type == "string") type = "binary (STRING)";
  if (type == "date") type = "int32 (DATE)";
  // The type is the one leaf of a message: a name goes between the
  // physical type and its annotation.
  const size_t annotation = type.find(" (");
  const std::string leaf =
      annotation == std::string::npos ? type + " v" : type.substr(0, annotation) + " v" + type.substr(annotation);
  try {
    const Schema schema = parse_schema_text("message m { optional " + leaf + "; }");
    if (schema.num_columns() != 1) throw Error("not one leaf type", ErrorKind::kInvalidArgument);
    return schema.column(0).type;
  } catch (const Error& e) {
    throw Error(ErrorKind::kInvalidArgument, {},
                "'" + std::string(text) + "' is not a column type (as in the schema notation: int64, " +
                    "binary (STRING), int32 (DATE), ...): " + e.detail());
  }
}

}  // namespace parq
