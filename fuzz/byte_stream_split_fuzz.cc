// libFuzzer target for the decoders of byte-transposing and varint codecs:
// BYTE_STREAM_SPLIT, group varint (uint32 and uint64) and bitunshuffle. The
// first byte picks the codec and a width, the second a count where one is
// needed; the rest is the input. Decoded values are encoded again and must
// reproduce the input (BYTE_STREAM_SPLIT, bitshuffle) or decode to the same
// values (group varint, whose padding bytes are free).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "parq/encoding/bitshuffle.h"
#include "parq/encoding/byte_stream_split.h"
#include "parq/encoding/group_var_int.h"
#include "parq/error.h"
#include "parq/util/cpu.h"

namespace {

using namespace parq;
using namespace parq::encoding;

void byte_stream_split(const uint8_t* data, size_t size, size_t width, size_t n) {
  ByteStreamSplitDecoder dec(width);
  dec.reset(data, size, std::min(n, size / width));
  size_t count = dec.remaining();
  std::vector<uint8_t> out(count * width);
  size_t got = dec.decode(out.data(), count / 2 + 1);
  got += dec.skip(1);
  dec.decode(out.data(), count);
  (void)got;
  // Whole page: must re-encode to itself.
  ByteStreamSplitDecoder full(width);
  full.reset(data, size, size / width);
  std::vector<uint8_t> values(size);
  full.decode(values.data(), size / width);
  ByteStreamSplitEncoder enc(width);
  enc.put(values.data(), size / width);
  Buffer back;
  enc.flush(back);
  if (back.size() != size || (size != 0 && std::memcmp(back.data(), data, size) != 0)) std::abort();
}

template <class T>
void group_var_int(const uint8_t* data, size_t size, size_t n) {
  std::vector<T> out(n);
  size_t used = group_var_int_decode(data, size, n, out.data());
  if (used > size) std::abort();
  Buffer back;
  group_var_int_encode(out.data(), n, back);
  std::vector<T> again(n);
  if (group_var_int_decode(back.data(), back.size(), n, again.data()) != back.size() || again != out) std::abort();
  GroupVarIntDecoder<T> dec;
  dec.reset(data, size, n);
  dec.skip(n / 3);
  while (dec.decode(again.data(), 7) != 0) {
  }
}

void unshuffle(const uint8_t* data, size_t size, size_t elem_size) {
  size_t n = size / elem_size;
  std::vector<uint8_t> out(n * elem_size), back(n * elem_size);
  bitunshuffle(data, out.data(), n, elem_size);
  bitshuffle(out.data(), back.data(), n, elem_size);
  if (n != 0 && std::memcmp(back.data(), data, n * elem_size) != 0) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  uint8_t selector = data[0];
  size_t n = data[1] * 8u;
  const uint8_t* rest = data + 2;
  size_t rest_size = size - 2;
  // Exercise every kernel level, not only the best one.
  set_simd_level(static_cast<SimdLevel>(std::min<int>((selector >> 6) % 3, static_cast<int>(detected_simd_level()))));
  size_t width = 1 + ((selector >> 2) & 15);
  try {
    switch (selector & 3) {
      case 0:
        byte_stream_split(rest, rest_size, width, n);
        break;
      case 1:
        group_var_int<uint32_t>(rest, rest_size, n / 8 + (selector >> 2));
        break;
      case 2:
        group_var_int<uint64_t>(rest, rest_size, n / 8 + (selector >> 2));
        break;
      case 3:
        unshuffle(rest, rest_size, width);
        break;
    }
  } catch (const Error&) {
  }
  return 0;
}
