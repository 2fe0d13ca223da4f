// keep_records; see record_selection.h.
//
// Two passes: the levels are compacted while a keep flag is noted for each
// dense value (the flags of the defined entries, for a leaf without
// repetition, by the compaction kernels); then the values are compacted by
// those flags: fixed widths by the kernels (encoding/compact_kernels.h),
// byte arrays a run of kept values at a time (a filter that keeps most rows
// keeps long runs).
#include "record_selection.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "../encoding/compact_kernels.h"
#include "parq/error.h"

namespace parq {
namespace {

using encoding::compact1;
using encoding::compact_levels;
using encoding::compact_width;
using encoding::count_kept;
using encoding::kCompactSlack;

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
  if (records <= 0 || count_kept(keep, static_cast<size_t>(records)) == static_cast<size_t>(records)) return;

  const int64_t entries = batch.num_entries;
  const bool has_def = !batch.def.empty();
  const bool has_rep = column.max_repetition_level > 0;
  const int16_t max_def = column.max_definition_level;
  LeafValues& values = batch.values;
  const size_t count = static_cast<size_t>(values.count);

  // Pass 1: levels, and a flag per dense value.
  std::vector<uint8_t> value_keep;
  const uint8_t* vkeep = keep;  // without levels, values are records
  size_t written = 0;
  if (has_rep) {
    value_keep.resize(count);
    int16_t* def = has_def ? batch.def.data_as<int16_t>() : nullptr;
    int16_t* rep = batch.rep.data_as<int16_t>();
    int64_t record = -1;
    uint8_t k = 0;
    size_t w = 0, j = 0;
    for (int64_t i = 0; i < entries; ++i) {
      if (rep[i] == 0) {
        if (++record >= records) throw Error("keep_records: more records in the batch than counted");
        k = keep[record] != 0;
      }
      const bool defined = !has_def || def[i] == max_def;
      if (has_def) def[w] = def[i];
      rep[w] = rep[i];
      w += k;
      if (defined) {
        if (j >= count) throw Error("keep_records: more defined entries than values");
        value_keep[j++] = k;
      }
    }
    written = w;
    vkeep = value_keep.data();
  } else if (has_def) {
    // A chunk at a time: its defined entries' flags, then its levels
    // compacted in place (writes stay at or below the chunk).
    value_keep.resize(count + kCompactSlack);
    int16_t* def = batch.def.data_as<int16_t>();
    constexpr int64_t kChunk = 4096;
    std::array<uint8_t, kChunk> defined;
    size_t v = 0;
    for (int64_t at = 0; at < entries; at += kChunk) {
      const auto n = static_cast<size_t>(std::min(kChunk, entries - at));
      for (size_t i = 0; i < n; ++i) defined[i] = def[at + static_cast<int64_t>(i)] == max_def;
      if (count_kept(defined.data(), n) > count - v) throw Error("keep_records: more defined entries than values");
      v += compact1(keep + at, defined.data(), n, value_keep.data() + v);
      written += compact_levels(def + at, keep + at, n, def + written);
    }
    vkeep = value_keep.data();
  } else {
    written = count_kept(keep, static_cast<size_t>(entries));
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
      kept_values = compact_width(values.fixed.span().data(), width, vkeep, count, out.data());
      out.resize(kept_values * width);
      values.fixed = std::move(out);
    } else {
      kept_values = compact_width(values.fixed.data(), width, vkeep, count, values.fixed.data());
      values.fixed.resize(kept_values * width);
    }
  }
  values.count = static_cast<int64_t>(kept_values);
}

}  // namespace parq
