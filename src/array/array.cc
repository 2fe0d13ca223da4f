// Array helpers.
#include "parq/array/array.h"

namespace parq {

int32_t Array::value_width() const {
  switch (type.physical) {
    case format::Type::INT32:
    case format::Type::FLOAT: return 4;
    case format::Type::INT64:
    case format::Type::DOUBLE: return 8;
    case format::Type::INT96: return 12;
    case format::Type::FIXED_LEN_BYTE_ARRAY: return type.type_length;
    case format::Type::BOOLEAN:
    case format::Type::BYTE_ARRAY: return 0;
  }
  return 0;
}

}  // namespace parq
