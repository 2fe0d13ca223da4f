// keep_records; see record_selection.h.
#include "record_selection.h"

#include <cstring>

#include "parq/error.h"

namespace parq {

void keep_records(LeafBatch& batch, const ColumnDescriptor& column, const uint8_t* keep, int64_t records) {
  const int64_t entries = batch.num_entries;
  const bool has_def = !batch.def.empty();
  const bool has_rep = column.max_repetition_level > 0;
  const int16_t max_def = column.max_definition_level;
  const int16_t* def = has_def ? batch.def_levels() : nullptr;
  const int16_t* rep = has_rep ? batch.rep_levels() : nullptr;
  LeafValues& values = batch.values;
  const bool bytes = column.type.physical == format::Type::BYTE_ARRAY;
  size_t width = 0;
  switch (column.type.physical) {
    case format::Type::BOOLEAN:
      width = 1;
      break;
    case format::Type::INT32:
    case format::Type::FLOAT:
      width = 4;
      break;
    case format::Type::INT64:
    case format::Type::DOUBLE:
      width = 8;
      break;
    case format::Type::INT96:
      width = 12;
      break;
    case format::Type::FIXED_LEN_BYTE_ARRAY:
      width = static_cast<size_t>(column.type.type_length);
      break;
    case format::Type::BYTE_ARRAY:
      break;
  }
  bool all = true;
  for (int64_t r = 0; r < records && all; ++r) all = keep[r] != 0;
  if (all) return;

  int16_t* def_out = has_def ? batch.def.data_as<int16_t>() : nullptr;
  int16_t* rep_out = has_rep ? batch.rep.data_as<int16_t>() : nullptr;
  uint8_t* fixed = width > 0 && !values.fixed.empty() ? values.fixed.data() : nullptr;
  encoding::ByteArrayBatch kept_bytes;

  int64_t record = -1, written = 0, value = 0, value_out = 0;
  bool keeping = false;
  for (int64_t i = 0; i < entries; ++i) {
    if (!has_rep || rep[i] == 0) {
      ++record;
      if (record >= records) throw Error("keep_records: more records in the batch than counted");
      keeping = keep[record] != 0;
    }
    const bool defined = !has_def || def[i] == max_def;
    if (keeping) {
      if (has_def) def_out[written] = def[i];
      if (has_rep) rep_out[written] = rep[i];
      ++written;
      if (defined) {
        if (bytes) {
          kept_bytes.append(values.bytes.value(static_cast<size_t>(value)));
        } else if (fixed != nullptr && value_out != value) {
          std::memmove(fixed + value_out * width, fixed + value * width, width);
        }
        ++value_out;
      }
    }
    value += defined;
  }
  if (has_def) batch.def.resize(static_cast<size_t>(written) * sizeof(int16_t));
  if (has_rep) batch.rep.resize(static_cast<size_t>(written) * sizeof(int16_t));
  batch.num_entries = written;
  if (bytes) {
    values.bytes = std::move(kept_bytes);
  } else if (fixed != nullptr) {
    values.fixed.resize(static_cast<size_t>(value_out) * width);
  }
  values.count = value_out;
}

}  // namespace parq
