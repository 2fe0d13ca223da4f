// keep_records; see record_selection.h.
//
// Two passes: the levels are compacted entry by entry while a keep flag is
// noted for each dense value; then the values are compacted by those flags
// in loops without a call per value: fixed widths branch-free (the write
// position advances by the flag), byte arrays a run of kept values at a
// time (a filter that keeps most rows keeps long runs).
#include "record_selection.h"

#include <cstring>
#include <vector>

#include "parq/error.h"

namespace parq {
namespace {

// From `src` to `dst`, which may be the same place (dst never passes src).
template <class T>
size_t compact_typed(const uint8_t* src, uint8_t* dst, const uint8_t* keep, size_t n) {
  const T* in = reinterpret_cast<const T*>(src);
  T* out = reinterpret_cast<T*>(dst);
  size_t w = 0;
  for (size_t j = 0; j < n; ++j) {
    T v;
    std::memcpy(&v, in + j, sizeof(T));
    std::memcpy(out + w, &v, sizeof(T));
    w += keep[j];
  }
  return w;
}

// Keeps the values whose flag is set, from `src` into `dst` (the same
// buffer, or one of room for n values); returns how many.
size_t compact_fixed(const uint8_t* src, uint8_t* dst, size_t width, const uint8_t* keep, size_t n) {
  struct Bytes12 {
    uint8_t b[12];
  };
  struct Bytes16 {
    uint8_t b[16];
  };
  switch (width) {
    case 1:
      return compact_typed<uint8_t>(src, dst, keep, n);
    case 2:
      return compact_typed<uint16_t>(src, dst, keep, n);
    case 4:
      return compact_typed<uint32_t>(src, dst, keep, n);
    case 8:
      return compact_typed<uint64_t>(src, dst, keep, n);
    case 12:
      return compact_typed<Bytes12>(src, dst, keep, n);
    case 16:
      return compact_typed<Bytes16>(src, dst, keep, n);
    default: {
      size_t w = 0;
      for (size_t j = 0; j < n; ++j) {
        if (!keep[j]) continue;
        if (dst != src || w != j) std::memmove(dst + w * width, src + j * width, width);
        ++w;
      }
      return w;
    }
  }
}

// Byte arrays in place, a run of kept values at a time. Offsets are
// rewritten at or before where they are read, and each run's source
// offsets are read before its writes reach them.
void compact_byte_arrays(encoding::ByteArrayBatch& values, const uint8_t* keep, size_t n) {
  int32_t* off = values.offsets_buffer().data_as<int32_t>();
  uint8_t* data = values.data_buffer().data();
  size_t w = 0;
  int32_t out = 0;
  size_t j = 0;
  while (j < n) {
    if (!keep[j]) {
      ++j;
      continue;
    }
    const size_t start = j;
    while (j < n && keep[j]) ++j;
    const int32_t base = off[start];
    const int32_t length = off[j] - base;
    if (out != base) std::memmove(data + out, data + base, static_cast<size_t>(length));
    for (size_t k = start; k < j; ++k) off[w + 1 + (k - start)] = out + (off[k + 1] - base);
    w += j - start;
    out += length;
  }
  off[0] = 0;
  values.offsets_buffer().resize((w + 1) * sizeof(int32_t));
  values.data_buffer().resize(static_cast<size_t>(out));
}

}  // namespace

void keep_records(LeafBatch& batch, const ColumnDescriptor& column, const uint8_t* keep, int64_t records) {
  bool all = true;
  for (int64_t r = 0; r < records && all; ++r) all = keep[r] != 0;
  if (all) return;

  const int64_t entries = batch.num_entries;
  const bool has_def = !batch.def.empty();
  const bool has_rep = column.max_repetition_level > 0;
  const int16_t max_def = column.max_definition_level;
  LeafValues& values = batch.values;
  const size_t count = static_cast<size_t>(values.count);

  // Pass 1: levels, and a flag per dense value.
  std::vector<uint8_t> value_keep;
  const uint8_t* vkeep = keep;  // without levels, values are records
  size_t written = static_cast<size_t>(entries);
  if (has_def || has_rep) {
    value_keep.resize(count);
    int16_t* def = has_def ? batch.def.data_as<int16_t>() : nullptr;
    int16_t* rep = has_rep ? batch.rep.data_as<int16_t>() : nullptr;
    int64_t record = -1;
    uint8_t k = 0;
    size_t w = 0, j = 0;
    for (int64_t i = 0; i < entries; ++i) {
      if (!has_rep) {
        k = keep[i];
      } else if (rep[i] == 0) {
        if (++record >= records) throw Error("keep_records: more records in the batch than counted");
        k = keep[record];
      }
      const bool defined = !has_def || def[i] == max_def;
      if (has_def) def[w] = def[i];
      if (has_rep) rep[w] = rep[i];
      w += k;
      if (defined) {
        if (j >= count) throw Error("keep_records: more defined entries than values");
        value_keep[j++] = k;
      }
    }
    written = w;
    vkeep = value_keep.data();
  } else {
    written = 0;
    for (int64_t i = 0; i < entries; ++i) written += keep[i];
  }
  if (has_def) batch.def.resize(written * sizeof(int16_t));
  if (has_rep) batch.rep.resize(written * sizeof(int16_t));
  batch.num_entries = static_cast<int64_t>(written);

  // Pass 2: values.
  size_t kept_values = 0;
  if (column.type.physical == format::Type::BYTE_ARRAY) {
    compact_byte_arrays(values.bytes, vkeep, count);
    kept_values = values.bytes.size();
  } else if (count > 0) {
    const auto width = static_cast<size_t>(plain_width(column.type.physical, column.type.type_length));
    if (values.fixed.is_view()) {
      // A view of the page: compact into fresh memory in one pass rather
      // than copying the page's values first and compacting them after.
      Buffer out(count * width);
      kept_values = compact_fixed(values.fixed.span().data(), out.data(), width, vkeep, count);
      out.resize(kept_values * width);
      values.fixed = std::move(out);
    } else {
      kept_values = compact_fixed(values.fixed.data(), values.fixed.data(), width, vkeep, count);
      values.fixed.resize(kept_values * width);
    }
  }
  values.count = static_cast<int64_t>(kept_values);
}

}  // namespace parq
