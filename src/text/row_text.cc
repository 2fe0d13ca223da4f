// Rows of a RecordBatch as canonical JSON (FORMAT.md): the per-batch plan of
// RowJsonWriter and the recursive renderer over it; see parq/text/row_text.h.
#include "parq/text/row_text.h"

#include <cstring>
#include <limits>
#include <string_view>

#include "parq/error.h"
#include "parq/text/json_text.h"
#include "parq/text/variant_text.h"
#include "parq/variant/shredding.h"

namespace parq::text {
namespace {

using format::Type;

// Stands in for the data pointer of an empty buffer, so that a zero-length
// value never points into null.
constexpr uint8_t kNoBytes[1] = {0};

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

[[noreturn]] void throw_malformed(const Array& array, const std::string& what) {
  throw Error("array '" + array.name + "': " + what);
}

uint64_t bitmap_slots(const Buffer& bitmap) { return uint64_t{bitmap.size()} * 8; }

// Checks `slots` + 1 offsets that never decrease from a non-negative start,
// and returns the last one: the number of slots they address in the values
// or the child. Linear, but so is rendering, and it makes every later read
// safe without a check per value.
int64_t check_offsets(const Array& array, int64_t slots) {
  if (slots == 0) return 0;  // prototypes of zero rows may carry no offsets
  if (array.offsets.size() / sizeof(int32_t) < static_cast<uint64_t>(slots) + 1) {
    throw_malformed(array, "offsets hold fewer than length + 1 entries");
  }
  const int32_t* offsets = array.offsets_data();
  if (offsets[0] < 0) throw_malformed(array, "first offset is negative");
  for (int64_t i = 0; i < slots; ++i) {
    if (offsets[i + 1] < offsets[i]) throw_malformed(array, "offsets decrease at slot " + std::to_string(i));
  }
  return offsets[slots];
}

void check_leaf_values(const Array& array, int64_t slots) {
  const uint64_t n = static_cast<uint64_t>(slots);
  switch (array.type.physical) {
    case Type::BOOLEAN:
      if (bitmap_slots(array.values) < n) throw_malformed(array, "values hold fewer bits than slots");
      return;
    case Type::BYTE_ARRAY:
      if (static_cast<uint64_t>(check_offsets(array, slots)) > array.values.size()) {
        throw_malformed(array, "offsets point past the values");
      }
      return;
    default: {
      const auto width = static_cast<uint64_t>(array.value_width());
      if (width != 0 && array.values.size() / width < n) throw_malformed(array, "values are shorter than the slots");
      return;
    }
  }
}

// Rewrites the quoted JSON string at out[start..] as its content: the
// unescaped text is never longer than its escaped form, so it is rewritten in
// place. Only the escapes append_json_string writes need handling, but any
// \uXXXX outside the surrogates is decoded.
void unquote_json_string(std::string& out, size_t start) {
  char* const begin = out.data() + start;
  const char* in = begin + 1;
  const char* const end = out.data() + out.size() - 1;  // the closing quote
  char* o = begin;
  while (in < end) {
    const auto* slash = static_cast<const char*>(std::memchr(in, '\\', static_cast<size_t>(end - in)));
    const char* const run_end = slash ? slash : end;
    std::memmove(o, in, static_cast<size_t>(run_end - in));
    o += run_end - in;
    if (!slash) break;
    const char c = slash[1];
    in = slash + 2;
    switch (c) {
      case 'b':
        *o++ = '\b';
        break;
      case 'f':
        *o++ = '\f';
        break;
      case 'n':
        *o++ = '\n';
        break;
      case 'r':
        *o++ = '\r';
        break;
      case 't':
        *o++ = '\t';
        break;
      case 'u': {
        uint32_t cp = 0;
        for (int k = 0; k < 4; ++k) {
          const char h = in[k];
          cp = cp * 16 + static_cast<uint32_t>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
        }
        in += 4;
        if (cp < 0x80) {
          *o++ = static_cast<char>(cp);
        } else if (cp < 0x800) {
          *o++ = static_cast<char>(0xC0 | cp >> 6);
          *o++ = static_cast<char>(0x80 | (cp & 0x3F));
        } else {
          *o++ = static_cast<char>(0xE0 | cp >> 12);
          *o++ = static_cast<char>(0x80 | (cp >> 6 & 0x3F));
          *o++ = static_cast<char>(0x80 | (cp & 0x3F));
        }
        break;
      }
      default:
        *o++ = c;
        break;  // `"` and `\`
    }
  }
  out.resize(static_cast<size_t>(o - out.data()));
}

}  // namespace

RowJsonWriter::RowJsonWriter(const RecordBatch& batch, const RowTextOptions& options)
    : batch_(&batch), options_(options), num_columns_(batch.columns.size()), num_rows_(batch.num_rows) {
  if (batch.num_rows < 0) throw Error("record batch has a negative row count");
  nodes_.resize(1);
  nodes_[0].kind = ArrayKind::kStruct;
  build_children(0, batch.columns, batch.num_rows);
}

void RowJsonWriter::build_children(uint32_t index, const std::vector<Array>& children, int64_t length) {
  if (nodes_.size() + children.size() > std::numeric_limits<uint32_t>::max()) throw Error("schema has too many fields");
  const auto first = static_cast<uint32_t>(nodes_.size());
  nodes_[index].first_child = first;
  nodes_[index].num_children = static_cast<uint32_t>(children.size());
  nodes_.resize(first + children.size());
  for (uint32_t c = 0; c < children.size(); ++c) build(first + c, children[c], length, c == 0);
}

void RowJsonWriter::build(uint32_t index, const Array& array, int64_t length, bool first_field) {
  if (array.length < length) throw_malformed(array, "is shorter than its parent");
  if (!array.validity.empty() && bitmap_slots(array.validity) < static_cast<uint64_t>(length)) {
    throw_malformed(array, "validity holds fewer bits than slots");
  }
  // The key is written before the value so that a struct field costs one
  // append; the first field's key opens the object.
  const size_t key_begin = keys_.size();
  keys_.push_back(first_field ? '{' : ',');
  append_json_string(keys_, array.name);
  keys_.push_back(':');
  {
    Node& node = nodes_[index];
    node.kind = array.kind;
    node.key_begin = static_cast<uint32_t>(key_begin);
    node.key_size = static_cast<uint32_t>(keys_.size() - key_begin);
    node.validity = array.validity.empty() ? nullptr : array.validity.data();
    node.values = array.values.empty() ? kNoBytes : array.values.data();
  }
  if (options_.variants_as_json && variant::is_variant(array)) {
    // A group read unshredded (or rebuilt by the reader) is rendered as it
    // is; a shredded one is rebuilt here. unshred() checks what it reads.
    const Array* whole = &array;
    if (variant::holds_whole_values(array)) {
      check_leaf_values(array.children[0], length);
      check_leaf_values(array.children[1], length);
    } else {
      whole = &unshredded_.emplace_back(variant::unshred(array));
    }
    const Array& metadata = whole->children[0];
    const Array& value = whole->children[1];
    Node& node = nodes_[index];
    node.variant = true;
    node.metadata_offsets = metadata.offsets_data();
    node.metadata_values = metadata.values.empty() ? kNoBytes : metadata.values.data();
    node.offsets = value.offsets_data();
    node.values = value.values.empty() ? kNoBytes : value.values.data();
    return;
  }
  switch (array.kind) {
    case ArrayKind::kLeaf: {
      check_leaf_values(array, length);
      const ValueFormat format = value_format_of(array.type);
      Node& node = nodes_[index];
      node.value_kind = format.kind;
      node.width = array.value_width();
      node.scale = format.scale;
      node.unit = format.unit;
      node.adjusted_to_utc = format.adjusted_to_utc;
      if (array.type.physical == Type::BYTE_ARRAY) node.offsets = array.offsets_data();
      return;
    }
    case ArrayKind::kStruct:
      return build_children(index, array.children, length);
    case ArrayKind::kList:
    case ArrayKind::kMap: {
      // A map with only keys is one whose schema has no value field.
      const size_t n = array.children.size();
      if (array.kind == ArrayKind::kList ? n != 1 : n != 1 && n != 2) {
        throw_malformed(array, "has " + std::to_string(array.children.size()) + " children");
      }
      const int64_t elements = check_offsets(array, length);
      nodes_[index].offsets = length == 0 ? nullptr : array.offsets_data();
      return build_children(index, array.children, elements);
    }
  }
  throw_malformed(array, "has an unknown kind");
}

void RowJsonWriter::append_row(std::string& out, int64_t row) const {
  if (row < 0 || row >= num_rows_) {
    throw Error("row " + std::to_string(row) + " is outside the batch's " + std::to_string(num_rows_) + " rows",
                ErrorKind::kInvalidArgument);
  }
  append_struct(out, nodes_[0], row);
}

void RowJsonWriter::append_rows(std::string& out, int64_t begin, int64_t end) const {
  // Checked once up front, so that a bad range writes nothing.
  if (begin < 0 || end < begin || end > num_rows_) {
    throw Error("rows [" + std::to_string(begin) + ", " + std::to_string(end) + ") are outside the batch's " +
                    std::to_string(num_rows_) + " rows",
                ErrorKind::kInvalidArgument);
  }
  for (int64_t row = begin; row < end; ++row) {
    append_struct(out, nodes_[0], row);
    out.push_back('\n');
  }
}

void RowJsonWriter::throw_bad_cell(size_t column, int64_t row) const {
  if (column >= num_columns_)
    throw Error("column " + std::to_string(column) + " is outside the batch", ErrorKind::kInvalidArgument);
  throw Error("row " + std::to_string(row) + " is outside the batch's " + std::to_string(num_rows_) + " rows",
              ErrorKind::kInvalidArgument);
}

void RowJsonWriter::append_value(std::string& out, size_t column, int64_t row) const {
  append_node(out, column_node(column, row), row);
}

void RowJsonWriter::append_text(std::string& out, size_t column, int64_t row) const {
  const Node& node = column_node(column, row);
  if (!node.is_valid(row)) return;
  const size_t start = out.size();
  append_node(out, node, row);
  if (out[start] != '"') return;
  if (node.variant || (node.kind == ArrayKind::kLeaf && node.value_kind == ValueKind::kString)) {
    unquote_json_string(out, start);
  } else {
    // Dates, decimals, base64 and the like never hold an escape.
    out.erase(start, 1);
    out.pop_back();
  }
}

void RowJsonWriter::append_node(std::string& out, const Node& node, int64_t i) const {
  if (!node.is_valid(i)) {
    out.append("null", 4);
    return;
  }
  switch (node.kind) {
    case ArrayKind::kLeaf:
      return append_leaf(out, node, i);
    case ArrayKind::kStruct:
      if (node.variant) return append_variant(out, node, i);
      return append_struct(out, node, i);
    case ArrayKind::kList:
      return append_list(out, node, i);
    case ArrayKind::kMap:
      return append_map(out, node, i);
  }
}

void RowJsonWriter::append_struct(std::string& out, const Node& node, int64_t i) const {
  if (node.num_children == 0) {
    out.append("{}", 2);
    return;
  }
  const Node* child = &nodes_[node.first_child];
  for (uint32_t c = 0; c < node.num_children; ++c, ++child) {
    out.append(keys_.data() + child->key_begin, child->key_size);
    append_node(out, *child, i);
  }
  out.push_back('}');
}

void RowJsonWriter::append_variant(std::string& out, const Node& node, int64_t i) const {
  auto bytes = [i](const int32_t* offsets, const uint8_t* values) {
    return std::span<const uint8_t>(values + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
  };
  const variant::Metadata metadata = variant::Metadata::parse(bytes(node.metadata_offsets, node.metadata_values));
  append_variant_json(out, variant::Value::parse(metadata, bytes(node.offsets, node.values)));
}

void RowJsonWriter::append_list(std::string& out, const Node& node, int64_t i) const {
  const Node& element = nodes_[node.first_child];
  out.push_back('[');
  for (int64_t e = node.offsets[i]; e < node.offsets[i + 1]; ++e) {
    if (e != node.offsets[i]) out.push_back(',');
    append_node(out, element, e);
  }
  out.push_back(']');
}

void RowJsonWriter::append_map(std::string& out, const Node& node, int64_t i) const {
  const Node& key = nodes_[node.first_child];
  const Node* value = node.num_children == 2 ? &nodes_[node.first_child + 1] : nullptr;
  out.push_back('[');
  for (int64_t e = node.offsets[i]; e < node.offsets[i + 1]; ++e) {
    out.append(e == node.offsets[i] ? "{\"key\":" : ",{\"key\":");
    append_node(out, key, e);
    out.append(",\"value\":", 9);
    if (value) {
      append_node(out, *value, e);
    } else {
      out.append("null", 4);
    }
    out.push_back('}');
  }
  out.push_back(']');
}

void RowJsonWriter::append_leaf(std::string& out, const Node& node, int64_t i) const {
  const uint8_t* const fixed = node.values + i * node.width;
  auto binary = [&] {
    if (node.offsets == nullptr) return std::string_view(reinterpret_cast<const char*>(fixed), node.width);
    return std::string_view(reinterpret_cast<const char*>(node.values) + node.offsets[i],
                            static_cast<size_t>(node.offsets[i + 1] - node.offsets[i]));
  };
  switch (node.value_kind) {
    case ValueKind::kBoolean:
      if (node.values[i >> 3] >> (i & 7) & 1) {
        out.append("true", 4);
      } else {
        out.append("false", 5);
      }
      return;
    case ValueKind::kInt32:
      return append_integer(out, load<int32_t>(fixed));
    case ValueKind::kUInt32:
      return append_unsigned(out, load<uint32_t>(fixed));
    case ValueKind::kInt64:
      return append_integer(out, load<int64_t>(fixed));
    case ValueKind::kUInt64:
      return append_unsigned(out, load<uint64_t>(fixed));
    case ValueKind::kFloat:
      return append_double(out, load<float>(fixed));
    case ValueKind::kDouble:
      return append_double(out, load<double>(fixed));
    case ValueKind::kFloat16:
      return append_double(out, float16_to_double(load<uint16_t>(fixed)));
    case ValueKind::kInt96Timestamp:
      return append_int96_timestamp(out, fixed);
    case ValueKind::kDecimal32:
      return append_decimal(out, load<int32_t>(fixed), node.scale);
    case ValueKind::kDecimal64:
      return append_decimal(out, load<int64_t>(fixed), node.scale);
    case ValueKind::kDecimalBytes: {
      const std::string_view bytes = binary();
      return append_decimal_be(out, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), node.scale);
    }
    case ValueKind::kDate:
      return append_date(out, load<int32_t>(fixed));
    case ValueKind::kTime32:
      return append_time(out, load<int32_t>(fixed), node.unit);
    case ValueKind::kTime64:
      return append_time(out, load<int64_t>(fixed), node.unit);
    case ValueKind::kTimestamp32:
      return append_timestamp(out, load<int32_t>(fixed), node.unit, node.adjusted_to_utc);
    case ValueKind::kTimestamp64:
      return append_timestamp(out, load<int64_t>(fixed), node.unit, node.adjusted_to_utc);
    case ValueKind::kString:
      return append_json_string(out, binary());
    case ValueKind::kUuid:
      return append_uuid(out, fixed);
    case ValueKind::kInterval:
      return append_interval(out, fixed);
    case ValueKind::kBase64:
      return append_base64(out, binary());
  }
}

void append_utf8_text(std::string& out, std::string_view bytes) {
  const size_t start = out.size();
  append_json_string(out, bytes);
  unquote_json_string(out, start);
}

void append_row_json(std::string& out, const RecordBatch& batch, int64_t row) {
  RowJsonWriter(batch).append_row(out, row);
}

void append_rows_jsonl(std::string& out, const RecordBatch& batch, int64_t begin, int64_t end) {
  RowJsonWriter(batch).append_rows(out, begin, end);
}

}  // namespace parq::text
