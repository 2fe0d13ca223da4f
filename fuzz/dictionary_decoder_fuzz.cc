// libFuzzer target for the dictionary decoder. The first byte sizes the
// dictionary (0..63 entries: every register set of the small-dictionary
// permutes and beyond) and picks the value type; the rest is a data page's
// value section (bit width byte, then runs). Every produced value must be a
// dictionary entry, and values must come out the same at every SIMD level
// the machine has as by the scalar loop; bad indices must throw
// parq::Error, at every level alike.
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "parq/encoding/dictionary_decoder.h"
#include "parq/error.h"
#include "parq/util/cpu.h"

using namespace parq::encoding;

namespace {

// Every value the page gives at the current SIMD level, with skips between
// reads; `failed` tells whether it ended in an error.
template <class T>
std::vector<T> gather_all(const uint8_t* data, size_t size, size_t entries, bool& failed) {
  std::vector<T> dict(entries);
  for (size_t i = 0; i < entries; ++i) dict[i] = static_cast<T>(i * 7 + 3);
  std::vector<T> all;
  failed = false;
  try {
    DictionaryDecoder dec(data, size);
    std::vector<T> out(1000);
    size_t total = 0;
    for (;;) {
      size_t got = dec.decode(std::span<const T>(dict), out.data(), 1 + total % 999);
      for (size_t i = 0; i < got; ++i) {
        const auto v = static_cast<int64_t>(out[i]);
        if (v < 3 || (v - 3) % 7 != 0 || static_cast<size_t>((v - 3) / 7) >= entries) std::abort();
      }
      all.insert(all.end(), out.begin(), out.begin() + static_cast<std::ptrdiff_t>(got));
      total += got;
      if (got == 0 || total > (1u << 20)) break;
      dec.skip(total % 5);
    }
  } catch (const parq::Error&) {
    failed = true;
  }
  return all;
}

template <class T>
void check_levels(const uint8_t* data, size_t size, size_t entries) {
  using parq::SimdLevel;
  parq::set_simd_level(SimdLevel::kScalar);
  bool scalar_failed;
  const std::vector<T> expected = gather_all<T>(data, size, entries, scalar_failed);
  for (SimdLevel level : {SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    if (level > parq::detected_simd_level()) continue;
    parq::set_simd_level(level);
    bool failed;
    if (gather_all<T>(data, size, entries, failed) != expected || failed != scalar_failed) std::abort();
  }
  parq::set_simd_level(parq::detected_simd_level());
}

// Byte arrays: the dictionary's shape follows its size, so that every path
// of the byte-array gathers is reached (entries of up to 8, 16 and 32 bytes
// through slots, one-byte flags, entries past 32 bytes); every value must
// be an entry, the same at every level, and errors alike.
ByteArrayBatch string_dictionary(size_t entries) {
  ByteArrayBatch dict;
  for (size_t i = 0; i < entries; ++i) {
    switch (entries % 5) {
      case 0:
        dict.append(std::string(i % 7, static_cast<char>('a' + i % 26)));
        break;
      case 1:
        dict.append(std::string(1, static_cast<char>(i)));
        break;
      case 2:
        dict.append(std::string(9 + i % 8, static_cast<char>(i)));
        break;
      case 3:
        dict.append(std::string(17 + i % 16, static_cast<char>(i)));
        break;
      default:
        dict.append(std::string(30 + i % 9, static_cast<char>(i)));
        break;
    }
  }
  return dict;
}

std::vector<std::string> strings_at_level(const ByteArrayDictionaryTable& table, const uint8_t* data, size_t size,
                                          bool& failed) {
  std::vector<std::string> all;
  failed = false;
  try {
    DictionaryDecoder dec(data, size);
    ByteArrayBatch out;
    while (dec.decode(table, out, 100) == 100 && out.size() < (1u << 16)) {
    }
    for (size_t i = 0; i < out.size(); ++i) all.emplace_back(out.value(i));
  } catch (const parq::Error&) {
    failed = true;
  }
  return all;
}

void check_strings(const uint8_t* data, size_t size, size_t entries) {
  using parq::SimdLevel;
  const ByteArrayBatch dict = string_dictionary(entries);
  const ByteArrayDictionaryTable table(dict);
  std::set<std::string_view> known;
  for (size_t i = 0; i < dict.size(); ++i) known.insert(dict.value(i));
  parq::set_simd_level(SimdLevel::kScalar);
  bool scalar_failed;
  const std::vector<std::string> expected = strings_at_level(table, data, size, scalar_failed);
  for (const std::string& v : expected)
    if (!known.contains(v)) std::abort();
  for (SimdLevel level : {SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    if (level > parq::detected_simd_level()) continue;
    parq::set_simd_level(level);
    bool failed;
    if (strings_at_level(table, data, size, failed) != expected || failed != scalar_failed) std::abort();
  }
  parq::set_simd_level(parq::detected_simd_level());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const size_t entries = data[0] >> 2;
  const int kind = data[0] & 3;
  if (kind == 0) check_levels<int32_t>(data + 1, size - 1, entries);
  if (kind == 1) check_levels<int64_t>(data + 1, size - 1, entries);
  if (kind == 2) check_levels<double>(data + 1, size - 1, entries);
  if (kind == 3) check_strings(data + 1, size - 1, entries);
  return 0;
}
