// take(): rows of arrays by index; see take.h.
#include "parq/array/take.h"

#include <cstring>
#include <vector>

#include "parq/error.h"

namespace parq {
namespace {

bool bit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7) & 1) != 0; }
void set_bit(uint8_t* bits, int64_t i) { bits[i >> 3] = static_cast<uint8_t>(bits[i >> 3] | (1u << (i & 7))); }

// Validity of the taken slots (empty when none is null) and their null count.
void take_validity(const Array& in, std::span<const int64_t> rows, Array& out) {
  out.null_count = 0;
  if (in.validity.empty() || in.null_count == 0 || rows.empty()) return;
  const auto n = static_cast<int64_t>(rows.size());
  out.validity.resize(static_cast<size_t>((n + 7) / 8));
  std::memset(out.validity.data(), 0, out.validity.size());
  for (int64_t i = 0; i < n; ++i) {
    if (bit(in.validity.data(), rows[static_cast<size_t>(i)]))
      set_bit(out.validity.data(), i);
    else
      ++out.null_count;
  }
  if (out.null_count == 0) out.validity.clear();
}

Array take_checked(const Array& in, std::span<const int64_t> rows) {
  Array out;
  out.kind = in.kind;
  out.name = in.name;
  out.type = in.type;
  out.length = static_cast<int64_t>(rows.size());
  take_validity(in, rows, out);
  const size_t n = rows.size();
  switch (in.kind) {
    case ArrayKind::kLeaf: {
      if (in.type.physical == format::Type::BOOLEAN) {
        out.values.resize((n + 7) / 8);
        if (!out.values.empty()) std::memset(out.values.data(), 0, out.values.size());
        for (size_t i = 0; i < n; ++i)
          if (bit(in.values.data(), rows[i])) set_bit(out.values.data(), static_cast<int64_t>(i));
      } else if (in.type.physical == format::Type::BYTE_ARRAY) {
        const int32_t* off = in.offsets_data();
        uint64_t total = 0;
        for (int64_t r : rows) total += static_cast<uint64_t>(off[r + 1] - off[r]);
        if (total > INT32_MAX)
          throw Error("column " + in.name + ": the taken values pass 2 GiB of bytes", ErrorKind::kLimit);
        out.offsets.resize((n + 1) * 4);
        out.values.resize(total);
        int32_t* o = out.offsets.data_as<int32_t>();
        int32_t pos = 0;
        for (size_t i = 0; i < n; ++i) {
          o[i] = pos;
          const int32_t len = off[rows[i] + 1] - off[rows[i]];
          if (len > 0) std::memcpy(out.values.data() + pos, in.values.data() + off[rows[i]], static_cast<size_t>(len));
          pos += len;
        }
        o[n] = pos;
      } else {
        const auto w = static_cast<size_t>(in.value_width());
        out.values.resize(n * w);
        uint8_t* dst = out.values.data();
        const uint8_t* src = in.values.data();
        switch (w) {
          case 4:
            for (size_t i = 0; i < n; ++i) std::memcpy(dst + i * 4, src + rows[i] * 4, 4);
            break;
          case 8:
            for (size_t i = 0; i < n; ++i) std::memcpy(dst + i * 8, src + rows[i] * 8, 8);
            break;
          default:
            for (size_t i = 0; i < n; ++i) std::memcpy(dst + i * w, src + static_cast<size_t>(rows[i]) * w, w);
        }
      }
      break;
    }
    case ArrayKind::kStruct:
      for (const Array& child : in.children) out.children.push_back(take_checked(child, rows));
      break;
    case ArrayKind::kList:
    case ArrayKind::kMap: {
      const int32_t* off = in.offsets_data();
      std::vector<int64_t> elements;
      out.offsets.resize((n + 1) * 4);
      int32_t* o = out.offsets.data_as<int32_t>();
      for (size_t i = 0; i < n; ++i) {
        if (elements.size() > INT32_MAX)
          throw Error("column " + in.name + ": the taken lists pass 2^31 elements", ErrorKind::kLimit);
        o[i] = static_cast<int32_t>(elements.size());
        for (int32_t e = off[rows[i]]; e < off[rows[i] + 1]; ++e) elements.push_back(e);
      }
      if (elements.size() > INT32_MAX)
        throw Error("column " + in.name + ": the taken lists pass 2^31 elements", ErrorKind::kLimit);
      o[n] = static_cast<int32_t>(elements.size());
      for (const Array& child : in.children) out.children.push_back(take_checked(child, elements));
      break;
    }
  }
  return out;
}

}  // namespace

Array take(const Array& array, std::span<const int64_t> rows) {
  for (int64_t r : rows)
    if (r < 0 || r >= array.length)
      throw Error("take: row " + std::to_string(r) + " is outside the array's " + std::to_string(array.length),
                  ErrorKind::kInvalidArgument);
  return take_checked(array, rows);
}

RecordBatch take(const RecordBatch& batch, std::span<const int64_t> rows) {
  RecordBatch out;
  out.num_rows = static_cast<int64_t>(rows.size());
  for (const Array& a : batch.columns) out.columns.push_back(take(a, rows));
  return out;
}

}  // namespace parq
