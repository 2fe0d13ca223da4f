// Slow paths of the compact protocol reader: error reporting, varints near the
// end of the buffer, and skipping values of unknown fields.
#include "parq/thrift/compact_protocol.h"

namespace parq::thrift {

const char* compact_type_name(CompactType type) {
  switch (type) {
    case CompactType::kStop:
      return "stop";
    case CompactType::kBoolTrue:
    case CompactType::kBoolFalse:
      return "bool";
    case CompactType::kI8:
      return "i8";
    case CompactType::kI16:
      return "i16";
    case CompactType::kI32:
      return "i32";
    case CompactType::kI64:
      return "i64";
    case CompactType::kDouble:
      return "double";
    case CompactType::kBinary:
      return "binary";
    case CompactType::kList:
      return "list";
    case CompactType::kSet:
      return "set";
    case CompactType::kMap:
      return "map";
    case CompactType::kStruct:
      return "struct";
  }
  return "invalid";
}

void CompactReader::fail_at(const uint8_t* at, const std::string& what) const {
  throw Error("thrift: " + what + " at byte offset " +
              std::to_string(base_offset_ + static_cast<uint64_t>(at - begin_)));
}

void CompactReader::fail_truncated(const char* what) const {
  fail_at(pos_, std::string("truncated input: ") + what + " needs more than the " + std::to_string(remaining()) +
                    " bytes left");
}

void CompactReader::fail_out_of_range(int64_t v, const char* what) const {
  fail_at(pos_, std::string("value ") + std::to_string(v) + " out of range for " + what);
}

void CompactReader::fail_varint(const uint8_t* at) const {
  // Either more than 10 bytes, or a 10th byte carrying more than bit 63.
  const uint8_t* p = at;
  int n = 0;
  while (p < end_ && n < 10 && (*p & 0x80)) ++p, ++n;
  fail_at(at, n >= 10 ? "varint longer than 10 bytes" : "varint overflows 64 bits");
}

void CompactReader::fail_bool_byte(uint8_t b) const {
  fail_at(pos_ - 1, "bool byte is " + std::to_string(b) + ", expected 0, 1 or 2");
}

void CompactReader::fail_binary_length(const uint8_t* at, uint64_t len) const {
  if (len > limits_.max_string_bytes)
    fail_at(at, "binary length " + std::to_string(len) + " exceeds the limit of " +
                    std::to_string(limits_.max_string_bytes));
  fail_at(at, "binary length " + std::to_string(len) + " runs past the end (" + std::to_string(remaining()) +
                  " bytes left)");
}

void CompactReader::fail_field_type(uint8_t byte) const {
  fail_at(pos_ - 1, "unknown field type " + std::to_string(byte & 0x0f));
}

void CompactReader::fail_field_id() const { fail_at(pos_ - 1, "field id overflows i16"); }

void CompactReader::fail_depth() const { fail_at(pos_, "nesting deeper than " + std::to_string(limits_.max_depth)); }

void CompactReader::fail_element_type(const uint8_t* at, CompactType t) const {
  fail_at(at, "invalid element type " + std::to_string(static_cast<int>(t)));
}

void CompactReader::fail_count(const uint8_t* at, uint64_t count) const {
  if (count > limits_.max_container_elements)
    fail_at(at, "container of " + std::to_string(count) + " elements exceeds the limit of " +
                    std::to_string(limits_.max_container_elements));
  fail_at(at, "container of " + std::to_string(count) + " elements cannot fit in the " + std::to_string(remaining()) +
                  " bytes left");
}

uint64_t CompactReader::read_varint_slow() {
  const uint8_t* start = pos_;
  uint64_t result = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (pos_ == end_) fail_at(start, "truncated varint");
    uint64_t b = *pos_++;
    result |= (b & 0x7f) << shift;
    if (b < 0x80) {
      if (shift == 63 && b > 1) fail_at(start, "varint overflows 64 bits");
      return result;
    }
  }
  fail_at(start, "varint longer than 10 bytes");
}

void CompactReader::skip(CompactType type) {
  switch (type) {
    case CompactType::kBoolTrue:
    case CompactType::kBoolFalse:
      // In a field header the value is the type itself; as a collection
      // element it is a byte. Field skipping never reaches here for bools
      // because the caller knows the context; see skip_element().
      return;
    case CompactType::kI8:
      need(1, "i8");
      ++pos_;
      return;
    case CompactType::kI16:
    case CompactType::kI32:
    case CompactType::kI64:
      read_varint();
      return;
    case CompactType::kDouble:
      need(8, "double");
      pos_ += 8;
      return;
    case CompactType::kBinary:
      read_binary();
      return;
    case CompactType::kList:
    case CompactType::kSet: {
      enter();
      const uint8_t* at = pos_;
      CollectionHeader h = read_collection_header();
      if (h.element_type == CompactType::kStop && h.size != 0) fail_element_type(at, h.element_type);
      for (uint32_t i = 0; i < h.size; ++i) {
        if (h.element_type == CompactType::kBoolTrue || h.element_type == CompactType::kBoolFalse)
          read_bool_byte();
        else
          skip(h.element_type);
      }
      leave();
      return;
    }
    case CompactType::kMap: {
      enter();
      MapHeader h = read_map_header();
      for (uint32_t i = 0; i < h.size; ++i) {
        for (CompactType t : {h.key_type, h.value_type}) {
          if (t == CompactType::kBoolTrue || t == CompactType::kBoolFalse)
            read_bool_byte();
          else
            skip(t);
        }
      }
      leave();
      return;
    }
    case CompactType::kStruct: {
      enter();
      int16_t last_id = 0;
      for (;;) {
        FieldHeader f = read_field_header(last_id);
        if (f.type == CompactType::kStop) break;
        skip(f.type);
      }
      leave();
      return;
    }
    case CompactType::kStop:
      break;
  }
  fail("cannot skip a value of type " + std::to_string(static_cast<int>(type)));
}

}  // namespace parq::thrift
