// libFuzzer target for the dictionary decoder. The first byte sizes the
// dictionary (0..255 entries) and picks the value type; the rest is a data
// page's value section (bit width byte, then runs). Every produced value must
// be a dictionary entry; bad indices must throw parq::Error.
#include <cstdlib>
#include <string>
#include <vector>

#include "parq/encoding/dictionary_decoder.h"
#include "parq/error.h"

using namespace parq::encoding;

namespace {

template <class T>
void gather_all(const uint8_t* data, size_t size, size_t entries) {
  std::vector<T> dict(entries);
  for (size_t i = 0; i < entries; ++i) dict[i] = static_cast<T>(i);
  DictionaryDecoder dec(data, size);
  std::vector<T> out(1000);
  size_t total = 0;
  for (;;) {
    size_t got = dec.decode(std::span<const T>(dict), out.data(), 1 + total % 999);
    for (size_t i = 0; i < got; ++i)
      if (!(out[i] >= 0 && static_cast<size_t>(out[i]) < entries)) std::abort();
    total += got;
    if (got == 0 || total > (1u << 20)) break;
    dec.skip(total % 5);
  }
}

void gather_strings(const uint8_t* data, size_t size, size_t entries) {
  ByteArrayBatch dict;
  for (size_t i = 0; i < entries; ++i) dict.append(std::string(i % 7, 'a'));
  DictionaryDecoder dec(data, size);
  ByteArrayBatch out;
  while (dec.decode(dict, dict.lengths(), out, 100) == 100 && out.size() < (1u << 20)) {
  }
  for (size_t i = 0; i < out.size(); ++i)
    if (out.value(i).size() > 6) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const size_t entries = data[0] >> 2;
  const int kind = data[0] & 3;
  try {
    if (kind == 0) gather_all<int32_t>(data + 1, size - 1, entries);
    if (kind == 1) gather_all<int64_t>(data + 1, size - 1, entries);
    if (kind == 2) gather_all<double>(data + 1, size - 1, entries);
    if (kind == 3) gather_strings(data + 1, size - 1, entries);
  } catch (const parq::Error&) {
  }
  return 0;
}
