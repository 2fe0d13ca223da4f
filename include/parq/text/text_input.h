// Reading rows of text (CSV, JSON Lines) into Parquet batches: the input
// side of `parq convert`.
//
// Both formats parse into the same small document model (TextNode), so one
// inference and one builder serve both:
//   - a CSV record is an object whose members are the header's names and
//     whose values are the fields as text (empty fields are null);
//   - a JSON line is parsed strictly (RFC 8259) into nodes.
// Scalars given as text (CSV fields, JSON strings) are classified: integer,
// float, boolean (true/false), date (YYYY-MM-DD), timestamp
// (YYYY-MM-DD[T ]HH:MM:SS[.fraction][Z|+HH:MM]), or string.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parq/array/array.h"
#include "parq/schema/field.h"
#include "parq/schema/schema.h"

namespace parq::text {

enum class NodeKind : uint8_t { kNull, kBool, kNumber, kText, kArray, kObject };

// One value of a parsed row. Children of arrays and objects follow their
// parent in the row's node list; `size` counts the direct children and `span`
// the nodes below, so a child is skipped by jumping span + 1 nodes.
struct TextNode {
  NodeKind kind = NodeKind::kNull;
  bool boolean = false;
  bool quoted = false;    // text came from a JSON string (not a CSV field or a JSON number)
  std::string_view text;  // numbers, texts: the token (strings unescaped)
  std::string_view key;   // members of objects
  uint32_t size = 0;
  uint32_t span = 0;
};

// A parsed row. Its nodes' views point either into `arena` (strings that
// needed unescaping) or into text the caller keeps alive (the parsed line,
// CSV fields). Copies and moves re-point the views into the new row's own
// arena: a short arena lives inside the string object, so a plain member-wise
// move would leave them pointing into the moved-from row.
struct TextRow {
  std::vector<TextNode> nodes;  // nodes[0] is the row's object
  std::string arena;            // unescaped strings

  TextRow() = default;
  TextRow(const TextRow& other);
  TextRow(TextRow&& other) noexcept;
  TextRow& operator=(const TextRow& other);
  TextRow& operator=(TextRow&& other) noexcept;
  ~TextRow() = default;

  void clear() {
    nodes.clear();
    arena.clear();
  }

 private:
  // Views that pointed into [from, from + size) now point at the same
  // offsets of `arena`.
  void rebase(const char* from, size_t size) noexcept;
};

// Parses one JSON text into `row` (which must be an object for a row).
// Throws parq::Error naming the byte offset of a syntax error.
void parse_json(std::string_view text, TextRow& row);

// RFC 4180 CSV: fields separated by `delimiter`, optionally quoted (doubled
// quotes inside), quoted fields may hold line breaks, CRLF or LF ends.
class CsvReader {
 public:
  explicit CsvReader(std::string_view data, char delimiter = ',') : data_(data), delimiter_(delimiter) {}
  // The next record's fields (unquoted), false at the end. Throws
  // parq::Error for an unterminated quote, naming the line.
  bool next(std::vector<std::string_view>& fields);
  int64_t line() const { return line_; }  // 1-based line where the last record started
  size_t position() const { return pos_; }

 private:
  std::string_view data_;
  char delimiter_;
  size_t pos_ = 0;
  int64_t line_ = 0;
  int64_t next_line_ = 1;
  std::deque<std::string> unquoted_;  // fields that needed unescaping (a deque: views stay valid)
};

// How a column's values are stored, as inferred or as a schema gives it.
struct TextType {
  enum Kind : uint8_t {
    kUnknown,  // only nulls seen
    kBool,
    kInt64,
    kInt32,
    kDouble,
    kFloat,
    kDecimal,  // INT32/INT64 (by precision) or FLBA; `precision`, `scale`
    kDate,
    kTimestamp,  // `unit` 0 millis, 1 micros, 2 nanos; `utc`
    kString,
    kStruct,
    kList,
    kMap,      // children: key, value; from --schema only (objects infer as structs)
    kBinary,   // BYTE_ARRAY without annotation: a variant's parts
    kVariant,  // children: metadata, value (kBinary); any JSON value; from --schema only
  };
  Kind kind = kUnknown;
  std::string name;
  bool required = false;
  int unit = 1;
  bool utc = false;
  int32_t precision = 0;
  int32_t scale = 0;
  std::vector<TextType> children;  // struct fields, the list's element, or a map's key and value
};

// Merges row after row into a type (the root is a struct of the columns).
class TypeInference {
 public:
  void add(const TextRow& row);
  // The columns; kUnknown (all null) becomes kString.
  TextType result() const;

 private:
  TextType root_{TextType::kStruct};
};

// The schema of a type tree (three-level lists named "element").
Schema schema_of(const TextType& root);
// The type tree of a schema, for --schema; throws parq::Error for a field
// type convert cannot fill from text (INT96, INTERVAL, maps without values,
// ...).
TextType type_of(const Schema& schema);

// Appends rows to column builders and hands out batches of the schema's
// layout. A value that does not fit its column (text in an integer column,
// an object where a number belongs) throws parq::Error naming the column.
class BatchBuilder {
 public:
  explicit BatchBuilder(const TextType& root);
  ~BatchBuilder();
  void add(const TextRow& row);
  int64_t num_rows() const;
  // The rows added so far; the builder starts empty again.
  RecordBatch finish();

 private:
  struct Column;
  std::vector<std::unique_ptr<Column>> columns_;
  int64_t rows_ = 0;
};

}  // namespace parq::text
