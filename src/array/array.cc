// Array helpers.
#include "parq/array/array.h"

namespace parq {

int32_t Array::value_width() const {
  switch (type.physical) {
    case format::Type::INT32:
    case format::Type::FLOAT:
      return 4;
    case format::Type::INT64:
    case format::Type::DOUBLE:
      return 8;
    case format::Type::INT96:
      return 12;
    case format::Type::FIXED_LEN_BYTE_ARRAY:
      return type.type_length;
    case format::Type::BOOLEAN:
    case format::Type::BYTE_ARRAY:
      return 0;
  }
  return 0;
}

Array view_of(const Array& a, const std::shared_ptr<const void>& owner) {
  // Buffer::view tells views by a non-null owner: a borrowed view gets one
  // that points at a static and owns nothing.
  static const int kBorrowed = 0;
  const std::shared_ptr<const void> keeper =
      owner ? owner : std::shared_ptr<const void>(std::shared_ptr<const void>(), &kBorrowed);
  auto view = [&](const Buffer& b) { return b.empty() ? Buffer() : Buffer::view(keeper, b.data(), b.size()); };
  Array out;
  out.kind = a.kind;
  out.name = a.name;
  out.type = a.type;
  out.length = a.length;
  out.null_count = a.null_count;
  out.validity = view(a.validity);
  out.offsets = view(a.offsets);
  out.values = view(a.values);
  out.children.reserve(a.children.size());
  for (const Array& c : a.children) out.children.push_back(view_of(c, keeper));
  return out;
}

}  // namespace parq
