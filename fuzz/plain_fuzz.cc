// libFuzzer target for the PLAIN decoders. The first byte picks the physical
// type (and a FIXED_LEN_BYTE_ARRAY width), the second the value count; the
// rest is the page. Whatever decodes is encoded again and must give back the
// bytes it came from (a round-trip property).
#include <cstdlib>
#include <cstring>
#include <vector>

#include "parq/encoding/plain.h"
#include "parq/error.h"

namespace {

using namespace parq;
using namespace parq::encoding;

template <class T>
void fixed(const uint8_t* data, size_t size, size_t n) {
  PlainDecoder<T> dec;
  dec.reset(data, size, n);
  std::vector<T> out(n);
  size_t got = dec.decode(out.data(), n / 2);
  got += dec.decode(out.data() + got, n);
  if (got != n) std::abort();
  PlainEncoder<T> enc;
  enc.put(out.data(), n);
  Buffer back;
  enc.flush(back);
  if (n != 0 && std::memcmp(back.data(), data, n * sizeof(T)) != 0) std::abort();
}

void boolean(const uint8_t* data, size_t size, size_t n) {
  PlainBooleanDecoder dec(data, size, n);
  std::vector<uint8_t> out(n);
  size_t got = dec.decode(out.data(), n / 3);
  got += dec.decode(out.data() + got, n);
  if (got != n) std::abort();
  PlainBooleanEncoder enc;
  enc.put(out.data(), n);
  Buffer back;
  enc.flush(back);
  for (size_t i = 0; i < n; ++i)
    if (((back.data()[i / 8] ^ data[i / 8]) >> (i % 8)) & 1) std::abort();
}

void byte_array(const uint8_t* data, size_t size, size_t n) {
  PlainByteArrayDecoder dec(data, size, n);
  ByteArrayBatch batch;
  size_t got = 0;
  while (size_t k = dec.decode(batch, 5)) got += k;
  if (got != n) std::abort();
  PlainByteArrayEncoder enc;
  enc.put(batch);
  Buffer back;
  enc.flush(back);
  if (back.size() > size || (back.size() != 0 && std::memcmp(back.data(), data, back.size()) != 0)) std::abort();
  dec.reset(data, size, n);
  if (dec.skip(n) != n) std::abort();
}

void flba(const uint8_t* data, size_t size, size_t n, size_t width) {
  PlainFixedLenByteArrayDecoder dec(width);
  dec.reset(data, size, n);
  std::vector<uint8_t> out(n * width);
  dec.skip(1);
  dec.decode(out.data(), n);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  uint8_t selector = data[0];
  size_t n = data[1] * 4u + (selector >> 4);
  const uint8_t* page = data + 2;
  size_t page_size = size - 2;
  try {
    switch (selector % 8) {
      case 0:
        boolean(page, page_size, n);
        break;
      case 1:
        fixed<int32_t>(page, page_size, n);
        break;
      case 2:
        fixed<int64_t>(page, page_size, n);
        break;
      case 3:
        fixed<Int96>(page, page_size, n);
        break;
      case 4:
        fixed<float>(page, page_size, n);
        break;
      case 5:
        fixed<double>(page, page_size, n);
        break;
      case 6:
        byte_array(page, page_size, n);
        break;
      case 7:
        flba(page, page_size, n, 1 + (selector >> 4));
        break;
    }
  } catch (const Error&) {
  }
  return 0;
}
