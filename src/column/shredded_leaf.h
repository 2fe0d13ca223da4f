// ShreddedLeaf: one leaf column's part of some rows as the record shredder
// (record/shredder.h) hands it to the column writer: levels and the leaf
// slots behind them. It lives in the column layer, the writer's input, so
// that the record layer depends on the column layer and not the reverse.
#pragma once

#include <cstdint>
#include <vector>

#include "parq/array/array.h"
#include "parq/util/buffer.h"

namespace parq {

struct SlotRange {
  int64_t begin = 0;
  int64_t end = 0;
};

// One leaf's part of some rows.
struct ShreddedLeaf {
  int column = 0;
  const Array* array = nullptr;  // the leaf array the slots index
  Buffer def;                    // int16 per entry; empty when the column has no definition levels
  Buffer rep;                    // int16 per entry; empty when it has no repetition levels
  int64_t num_entries = 0;
  // The leaf slots behind the entries, in order: every slot in a range is one
  // entry (a null slot too); entries outside them are nulls or empty lists
  // further up.
  std::vector<SlotRange> ranges;
  int64_t num_values = 0;  // non-null slots in `ranges`

  const int16_t* def_levels() const { return def.data_as<int16_t>(); }
  const int16_t* rep_levels() const { return rep.data_as<int16_t>(); }
  void clear() {
    def.clear();
    rep.clear();
    num_entries = 0;
    ranges.clear();
    num_values = 0;
  }
};

}  // namespace parq
