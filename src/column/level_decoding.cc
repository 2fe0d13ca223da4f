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

size_t decode_page_levels(const format::PageHeader& header, std::span<const uint8_t> bytes, int16_t max_repetition,
                          int16_t max_definition, Buffer& rep, Buffer& def, bool* def_all_max) {
  if (header.type == format::PageType::DATA_PAGE_V2) {
    const auto& h = *header.data_page_header_v2;
    const size_t n = static_cast<size_t>(h.num_values);
    const size_t rep_bytes = static_cast<size_t>(h.repetition_levels_byte_length);
    const size_t def_bytes = static_cast<size_t>(h.definition_levels_byte_length);
    if (rep_bytes > bytes.size() || def_bytes > bytes.size() - rep_bytes)
      throw Error("level lengths (" + std::to_string(rep_bytes + def_bytes) + " bytes) exceed the page");
    if (max_repetition > 0) {
      rep.resize(n * sizeof(int16_t));
      decode_v2_levels(bytes.data(), rep_bytes, n, max_repetition, rep.data_as<int16_t>(), "repetition levels");
    }
    if (max_definition > 0) {
      def.resize(n * sizeof(int16_t));
      decode_v2_levels(bytes.data() + rep_bytes, def_bytes, n, max_definition, def.data_as<int16_t>(),
                       "definition levels", def_all_max);
    }
    return rep_bytes + def_bytes;
  }
  const auto& h = *header.data_page_header;
  const size_t n = static_cast<size_t>(h.num_values);
  size_t pos = 0;
  if (max_repetition > 0) {
    rep.resize(n * sizeof(int16_t));
    pos += decode_v1_levels(h.repetition_level_encoding, bytes.data(), bytes.size(), n, max_repetition,
                            rep.data_as<int16_t>(), "repetition levels");
  }
  if (max_definition > 0) {
    def.resize(n * sizeof(int16_t));
    pos += decode_v1_levels(h.definition_level_encoding, bytes.data() + pos, bytes.size() - pos, n, max_definition,
                            def.data_as<int16_t>(), "definition levels", def_all_max);
  }
  return pos;
}

}  // namespace parq
