// libFuzzer target for the RLE/bit-packing hybrid and BIT_PACKED. The first
// byte picks the bit width (low 6 bits, widths above 32 must be rejected) and
// the decode path; the rest is decoded as runs into every output type, with
// skips. Then the decoded values are encoded again and must decode to the
// same values (a round-trip property).
#include <cstdlib>
#include <vector>

#include "parq/encoding/bit_packed.h"
#include "parq/encoding/rle_hybrid.h"
#include "parq/error.h"

using namespace parq::encoding;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const int width = data[0] & 63;
  const bool small_batches = data[0] & 64;
  ++data, --size;
  std::vector<uint32_t> values;
  try {
    RleBitPackedDecoder dec(data, size, width);
    uint32_t buf[300];
    for (;;) {
      size_t want = small_batches ? 1 + values.size() % 37 : 300;
      size_t got = dec.decode(buf, want);
      values.insert(values.end(), buf, buf + got);
      if (got < want || values.size() > (1u << 20)) break;
    }
    RleBitPackedDecoder again(data, size, width);
    int16_t levels[64];
    uint8_t bools[64];
    for (size_t total = 0;
         total < (1u << 20) && again.skip(13) == 13 && again.decode(levels, 64) == 64 && again.decode(bools, 64) == 64;
         total += 141) {
    }
  } catch (const parq::Error&) {
  }
  if (width > 32) return 0;
  RleBitPackedEncoder enc(width);
  enc.put(values.data(), values.size());
  parq::Buffer encoded;
  enc.flush_with_length_prefix(encoded);
  auto runs = read_length_prefix(encoded.span());
  RleBitPackedDecoder dec(runs.data(), runs.size(), width);
  std::vector<uint32_t> back(values.size() + 8);
  if (dec.decode(back.data(), back.size()) < values.size()) std::abort();
  for (size_t i = 0; i < values.size(); ++i)
    if (back[i] != values[i]) std::abort();

  try {
    BitPackedDecoder bp(data, size, width);
    uint32_t buf[100];
    bp.skip(3);
    // Width 0 never runs out of values: bound the loop.
    for (size_t total = 0; total < (1u << 20) && bp.decode(buf, 100) == 100; total += 100) {
    }
  } catch (const parq::Error&) {
  }
  return 0;
}
