// libFuzzer target for ALP (encoding/alp.h). The first byte picks FLOAT or
// DOUBLE, a SIMD level and a vector size; the second a count (0: the
// page's own, so that seeds made by the encoder decode whole). The rest is
// decoded as a page (reads and skips mixed): it must decode or throw
// parq::Error, nothing else. The same bytes, read as values, are encoded
// and must decode back bit for bit, whole and after skips, at every level.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "parq/encoding/alp.h"
#include "parq/error.h"
#include "parq/util/cpu.h"

namespace {

using namespace parq;
using namespace parq::encoding;

template <class T>
void decode_page(const uint8_t* data, size_t size, size_t n) {
  AlpDecoder<T> dec;
  try {
    dec.reset(data, size, n);
    std::vector<T> out(std::min<size_t>(n, 1 << 16));
    size_t step = 1;
    bool read = true;
    while (dec.remaining() != 0) {
      const size_t want = std::min(step, out.size());
      const size_t got = read ? dec.decode(out.data(), want) : dec.skip(want);
      if (got == 0 || got > want) std::abort();
      step = step * 3 + 1;
      read = !read;
    }
  } catch (const Error&) {
  }
}

template <class T>
void round_trip(const uint8_t* data, size_t size, int log) {
  const size_t n = size / sizeof(T);
  std::vector<T> values(n);
  if (n != 0) std::memcpy(values.data(), data, n * sizeof(T));
  AlpEncoder<T> enc(log);
  // In two pieces, so that put() both fills a pending vector and packs
  // whole ones straight from the input.
  enc.put(values.data(), n / 3);
  enc.put(values.data() + n / 3, n - n / 3);
  const size_t estimate = enc.estimated_size();
  Buffer page;
  enc.flush(page);
  // Exact once every vector is packed (pending values count as raw).
  if (n % (size_t{1} << log) == 0 && page.size() != estimate) std::abort();
  AlpDecoder<T> dec;
  dec.reset(page.data(), page.size(), n);
  std::vector<T> back(n);
  if (dec.decode(back.data(), n) != n) std::abort();
  if (n != 0 && std::memcmp(back.data(), values.data(), n * sizeof(T)) != 0) std::abort();
  const size_t skip = n / 2 + 1;
  dec.reset(page.data(), page.size(), n);
  dec.skip(skip);
  if (skip < n && (dec.decode(back.data(), n) != n - skip ||
                   std::memcmp(back.data(), values.data() + skip, (n - skip) * sizeof(T)) != 0))
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const uint8_t selector = data[0];
  const uint8_t* rest = data + 2;
  const size_t rest_size = size - 2;
  size_t n = data[1] * 16u;
  if (data[1] == 0 && rest_size >= kAlpHeaderSize) {
    uint32_t count;
    std::memcpy(&count, rest + 3, 4);
    n = std::min<size_t>(count, 1 << 20);
  }
  set_simd_level(static_cast<SimdLevel>(std::min<int>((selector >> 1) % 3, static_cast<int>(detected_simd_level()))));
  const int log = 3 + (selector >> 3) % 13;
  if (selector & 1) {
    decode_page<double>(rest, rest_size, n);
    round_trip<double>(rest, rest_size, log);
  } else {
    decode_page<float>(rest, rest_size, n);
    round_trip<float>(rest, rest_size, log);
  }
  return 0;
}
