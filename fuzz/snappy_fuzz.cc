// libFuzzer target for parq's snappy decoder, differential against
// libsnappy: on any input both accept or both reject, with the same output;
// and whatever the library compresses, parq decodes back.
#include <snappy.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "../src/compression/snappy_decompressor.h"
#include "parq/error.h"

namespace {

constexpr size_t kMaxOutput = 1 << 20;

bool parq_decodes(const uint8_t* data, size_t size, uint8_t* out, size_t n) {
  try {
    parq::compression::snappy_decompress({data, size}, out, n);
    return true;
  } catch (const parq::Error&) {
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* bytes = reinterpret_cast<const char*>(data);
  size_t library_length = 0;
  const bool library_header = snappy::GetUncompressedLength(bytes, size, &library_length);
  const std::optional<size_t> length = parq::compression::snappy_uncompressed_length({data, size});
  if (library_header != length.has_value()) std::abort();
  if (length && *length != library_length) std::abort();
  if (length && *length <= kMaxOutput) {
    // Exactly sized buffers, so that ASan sees any write past the end.
    auto ours = std::make_unique<uint8_t[]>(*length);
    auto theirs = std::make_unique<char[]>(*length);
    const bool ok = parq_decodes(data, size, ours.get(), *length);
    if (ok != snappy::RawUncompress(bytes, size, theirs.get())) std::abort();
    if (ok && *length != 0 && std::memcmp(ours.get(), theirs.get(), *length) != 0) std::abort();
  }
  std::string compressed;
  snappy::Compress(bytes, size, &compressed);
  auto back = std::make_unique<uint8_t[]>(size);
  if (!parq_decodes(reinterpret_cast<const uint8_t*>(compressed.data()), compressed.size(), back.get(), size))
    std::abort();
  if (size != 0 && std::memcmp(back.get(), data, size) != 0) std::abort();
  return 0;
}
