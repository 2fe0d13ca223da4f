// libFuzzer target for the delta encodings. The first byte picks the decoder
// (DELTA_BINARY_PACKED int32/int64, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY
// as BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY) and the SIMD level; the rest is the
// stream. Malformed input must raise parq::Error and nothing else. Whatever
// decodes is encoded again and must decode to the same values.
#include <cstdlib>
#include <cstring>
#include <vector>

#include "parq/encoding/delta_binary_packed.h"
#include "parq/encoding/delta_byte_array.h"
#include "parq/encoding/delta_length_byte_array.h"
#include "parq/error.h"
#include "parq/util/cpu.h"

namespace {

using namespace parq::encoding;

constexpr size_t kMaxValues = 1 << 16;

void check(bool ok) {
  if (!ok) std::abort();
}

template <class T>
void fuzz_dbp(const uint8_t* data, size_t size, size_t batch) {
  std::vector<T> values;
  try {
    DeltaBinaryPackedDecoder<T> dec(data, size);
    size_t end = dec.encoded_size();
    check(end <= size);
    size_t n = std::min(dec.total_count(), kMaxValues);
    values.resize(n);
    size_t done = 0;
    while (done < n) {
      size_t got = dec.decode(values.data() + done, std::min(batch, n - done));
      check(got > 0);
      done += got;
      if (done < n) done += dec.skip(0);
    }
  } catch (const parq::Error&) {
    return;
  }
  DeltaBinaryPackedEncoder<T> enc({static_cast<uint32_t>(128 * (1 + batch % 4)), 4});
  enc.put(values.data(), values.size());
  parq::Buffer bytes;
  enc.flush(bytes);
  DeltaBinaryPackedDecoder<T> again(bytes.data(), bytes.size());
  check(again.encoded_size() == bytes.size());
  std::vector<T> back(values.size());
  check(again.decode(back.data(), back.size()) == values.size());
  check(back == values);
}

template <class Decoder, class Encoder>
void fuzz_byte_array(const uint8_t* data, size_t size, size_t batch) {
  ByteArrayBatch values;
  try {
    Decoder dec(data, size);
    while (values.size() < kMaxValues) {
      size_t got = dec.decode(values, batch);
      if (got == 0) break;
      dec.skip(batch % 3 == 0 ? 1 : 0);
    }
  } catch (const parq::Error&) {
    return;
  }
  Encoder enc;
  enc.put(values);
  parq::Buffer bytes;
  enc.flush(bytes);
  Decoder again(bytes.data(), bytes.size());
  ByteArrayBatch back;
  check(again.decode(back, values.size() + 1) == values.size());
  check(back.data_size() == values.data_size());
  check(std::memcmp(back.offsets(), values.offsets(), (values.size() + 1) * sizeof(int32_t)) == 0);
  check(values.data_size() == 0 || std::memcmp(back.data(), values.data(), values.data_size()) == 0);
}

void fuzz_fixed(const uint8_t* data, size_t size, size_t width) {
  std::vector<uint8_t> values;
  try {
    DeltaByteArrayDecoder dec(data, size);
    size_t n = std::min(dec.total_count(), kMaxValues / (width + 1));
    values.resize(n * width);
    check(dec.decode(values.data(), n, width) == n);
  } catch (const parq::Error&) {
    return;
  }
  size_t n = values.size() / width;
  DeltaByteArrayEncoder enc;
  enc.put(values.data(), n, width);
  parq::Buffer bytes;
  enc.flush(bytes);
  DeltaByteArrayDecoder again(bytes.data(), bytes.size());
  std::vector<uint8_t> back(values.size());
  check(again.decode(back.data(), n, width) == n);
  check(back == values);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t selector = data[0];
  parq::set_simd_level(static_cast<parq::SimdLevel>((selector >> 3) % 3));
  const size_t batch = 1 + (selector >> 5) * 37;
  ++data;
  --size;
  switch (selector & 7) {
    case 0:
    case 1:
      fuzz_dbp<int32_t>(data, size, batch);
      break;
    case 2:
    case 3:
      fuzz_dbp<int64_t>(data, size, batch);
      break;
    case 4:
      fuzz_byte_array<DeltaLengthByteArrayDecoder, DeltaLengthByteArrayEncoder>(data, size, batch);
      break;
    case 5:
    case 6:
      fuzz_byte_array<DeltaByteArrayDecoder, DeltaByteArrayEncoder>(data, size, batch);
      break;
    default:
      fuzz_fixed(data, size, 1 + (selector >> 5) * 3);
      break;
  }
  return 0;
}
