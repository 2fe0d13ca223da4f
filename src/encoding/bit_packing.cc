// Bit packing kernels; see encoding/bit_packing.h. Portable version.
#include "parq/encoding/bit_packing.h"

#include <cstring>

namespace parq::encoding {
namespace {

template <class T>
void unpack_portable(const uint8_t* in, size_t count, int bit_width, T* out) {
  if (bit_width == 0) {
    std::memset(out, 0, count * sizeof(T));
    return;
  }
  const size_t bytes = packed_size(count, bit_width);
  const T mask = bit_width == int(8 * sizeof(T)) ? ~T{0} : (T{1} << bit_width) - 1;
  for (size_t i = 0; i < count; ++i) {
    size_t bit = i * static_cast<size_t>(bit_width);
    size_t byte = bit / 8;
    unsigned shift = bit % 8;
    // Gather up to 9 bytes (a 64-bit value at a bit offset), never past the end.
    unsigned __int128 window = 0;
    size_t need = (shift + bit_width + 7) / 8;
    for (size_t k = 0; k < need && byte + k < bytes; ++k)
      window |= static_cast<unsigned __int128>(in[byte + k]) << (8 * k);
    out[i] = static_cast<T>(window >> shift) & mask;
  }
}

template <class T>
void pack_portable(const T* in, size_t count, int bit_width, uint8_t* out) {
  const size_t bytes = packed_size(count, bit_width);
  std::memset(out, 0, bytes);
  for (size_t i = 0; i < count; ++i) {
    size_t bit = i * static_cast<size_t>(bit_width);
    unsigned __int128 v = static_cast<unsigned __int128>(in[i]) << (bit % 8);
    for (size_t k = bit / 8; v != 0 && k < bytes; ++k, v >>= 8) out[k] |= static_cast<uint8_t>(v);
  }
}

}  // namespace

void unpack_bits(const uint8_t* in, size_t count, int bit_width, uint32_t* out) {
  unpack_portable(in, count, bit_width, out);
}
void unpack_bits(const uint8_t* in, size_t count, int bit_width, uint64_t* out) {
  unpack_portable(in, count, bit_width, out);
}
void pack_bits(const uint32_t* in, size_t count, int bit_width, uint8_t* out) {
  pack_portable(in, count, bit_width, out);
}
void pack_bits(const uint64_t* in, size_t count, int bit_width, uint8_t* out) {
  pack_portable(in, count, bit_width, out);
}

}  // namespace parq::encoding
