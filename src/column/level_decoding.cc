// Level decoding; see level_decoding.h.
#include "level_decoding.h"

#include <algorithm>

#include "parq/encoding/bit_packed.h"
#include "parq/encoding/bit_packing.h"
#include "parq/encoding/rle_hybrid.h"
#include "parq/error.h"

namespace parq {
namespace {

void check_levels(const int16_t* levels, size_t count, int16_t max_level, const std::string& what) {
  int16_t highest = 0;
  for (size_t i = 0; i < count; ++i) highest = std::max(highest, levels[i]);
  if (highest > max_level)
    throw Error(what + ": level " + std::to_string(highest) + " exceeds the maximum " + std::to_string(max_level));
}

void decode_hybrid(const uint8_t* data, size_t size, size_t count, int16_t max_level, int16_t* out,
                   const std::string& what, bool* all_max) {
  encoding::RleBitPackedDecoder decoder(data, size, encoding::bit_width_for(static_cast<uint64_t>(max_level)));
  if (all_max != nullptr) {
    *all_max = count != 0 && decoder.repeats(static_cast<uint32_t>(max_level), count);
    if (*all_max) return;
  }
  size_t got = decoder.decode(out, count);
  if (got != count)
    throw Error(what + ": " + std::to_string(got) + " levels decoded where the page has " + std::to_string(count) +
                " values");
  check_levels(out, count, max_level, what);
}

}  // namespace

size_t decode_v1_levels(format::Encoding encoding, const uint8_t* data, size_t size, size_t count, int16_t max_level,
                        int16_t* out, const std::string& what, bool* all_max) {
  if (all_max != nullptr) *all_max = false;
  if (encoding == format::Encoding::RLE) {
    auto runs = encoding::read_length_prefix({data, size});
    decode_hybrid(runs.data(), runs.size(), count, max_level, out, what, all_max);
    return 4 + runs.size();
  }
  if (encoding == format::Encoding::BIT_PACKED) {
    int width = encoding::bit_width_for(static_cast<uint64_t>(max_level));
    size_t bytes = encoding::packed_size(count, width);
    if (bytes > size) throw Error(what + ": BIT_PACKED levels run past the end of the page");
    encoding::BitPackedDecoder decoder(data, bytes, width);
    if (decoder.decode(out, count) != count) throw Error(what + ": too few BIT_PACKED levels");
    check_levels(out, count, max_level, what);
    return bytes;
  }
  throw Error(what + ": unsupported level encoding " + format::to_string(encoding));
}

void decode_v2_levels(const uint8_t* data, size_t size, size_t count, int16_t max_level, int16_t* out,
                      const std::string& what, bool* all_max) {
  decode_hybrid(data, size, count, max_level, out, what, all_max);
}

}  // namespace parq
