// libFuzzer target for parq's snappy decoder, differential against
// libsnappy: on any input both accept or both reject, with the same output;
// whatever the library compresses, parq decodes back; and the paired loop
// agrees with the single one.
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

// Whether the stream has a literal whose 4-byte length field is 2^32 - 1:
// libsnappy wraps that length to 0 and reads on, parq rejects it (the one
// difference between them; tests/compression/snappy_decompressor_test.cc).
bool has_wrapping_literal(const uint8_t* data, size_t size) {
  size_t i = 0;
  while (i < size && (data[i] & 0x80)) ++i;  // the preamble
  for (++i; i < size;) {
    const uint8_t tag = data[i++];
    if ((tag & 3) != 0) {
      i += (tag & 3) == 3 ? 4 : (tag & 3);
      continue;
    }
    size_t len = (tag >> 2) + 1;
    if (len > 60) {
      const size_t extra = len - 60;
      if (size - i < extra) return false;
      len = 0;
      for (size_t k = extra; k-- > 0;) len = len << 8 | data[i + k];
      if (extra == 4 && len == 0xFFFFFFFF) return true;
      len += 1;
      i += extra;
    }
    if (size - i < len) return false;
    i += len;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* bytes = reinterpret_cast<const char*>(data);
  size_t library_length = 0;
  const bool library_header = snappy::GetUncompressedLength(bytes, size, &library_length);
  const std::optional<size_t> length = parq::compression::snappy_uncompressed_length({data, size});
  if (library_header != length.has_value()) std::abort();
  if (length && *length != library_length) std::abort();
  const bool decodable = length && *length <= kMaxOutput;
  // Exactly sized buffers, so that ASan sees any write past the end.
  std::unique_ptr<uint8_t[]> ours;
  bool ok = false;
  if (decodable) {
    ours = std::make_unique<uint8_t[]>(*length);
    auto theirs = std::make_unique<char[]>(*length);
    ok = parq_decodes(data, size, ours.get(), *length);
    const bool library_ok = snappy::RawUncompress(bytes, size, theirs.get());
    if (ok != library_ok && !(library_ok && has_wrapping_literal(data, size))) std::abort();
    if (ok && *length != 0 && std::memcmp(ours.get(), theirs.get(), *length) != 0) std::abort();
  }
  std::string compressed;
  snappy::Compress(bytes, size, &compressed);
  const auto* packed = reinterpret_cast<const uint8_t*>(compressed.data());
  auto back = std::make_unique<uint8_t[]>(size);
  if (!parq_decodes(packed, compressed.size(), back.get(), size)) std::abort();
  if (size != 0 && std::memcmp(back.get(), data, size) != 0) std::abort();
  // The reader's paired loop, the input beside its own compression: it
  // decodes both as each decodes alone, and fails where the input fails.
  if (decodable) {
    auto first = std::make_unique<uint8_t[]>(*length);
    auto second = std::make_unique<uint8_t[]>(size);
    bool paired_ok = true;
    try {
      parq::compression::snappy_decompress_pair({{data, size}, first.get(), *length},
                                                {{packed, compressed.size()}, second.get(), size});
    } catch (const parq::Error&) {
      paired_ok = false;
    }
    if (paired_ok != ok) std::abort();
    if (ok && *length != 0 && std::memcmp(first.get(), ours.get(), *length) != 0) std::abort();
    if (ok && size != 0 && std::memcmp(second.get(), data, size) != 0) std::abort();
  }
  return 0;
}
