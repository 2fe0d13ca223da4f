// Dictionary encoders: every type round-trips through a minimal reader (the
// dictionary page parsed by hand, the indices through RleBitPackedDecoder),
// the limits stop put() at the exact value, and the hash tables survive keys
// built to collide.
#include "parq/encoding/dictionary_encoder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "encoding/hash_table.h"
#include "parq/error.h"

namespace parq::encoding {
namespace {

// ---- a minimal reader ----------------------------------------------------------

std::vector<uint32_t> read_indices(const Buffer& page, size_t n) {
  EXPECT_GE(page.size(), 1u);
  int width = page.data()[0];
  RleBitPackedDecoder decoder(page.data() + 1, page.size() - 1, width);
  std::vector<uint32_t> out(n);
  EXPECT_EQ(decoder.decode(out.data(), n), n);
  return out;
}

template <class T>
std::vector<T> read_plain(const Buffer& page) {
  EXPECT_EQ(page.size() % sizeof(T), 0u);
  std::vector<T> out(page.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), page.data(), page.size());
  return out;
}

std::vector<std::string> read_plain_byte_arrays(const Buffer& page) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < page.size()) {
    EXPECT_LE(pos + 4, page.size());
    uint32_t len;
    std::memcpy(&len, page.data() + pos, 4);
    pos += 4;
    EXPECT_LE(pos + len, page.size());
    out.emplace_back(reinterpret_cast<const char*>(page.data()) + pos, len);
    pos += len;
  }
  return out;
}

std::vector<std::string> read_plain_fixed(const Buffer& page, int width) {
  std::vector<std::string> out;
  if (width == 0) return out;
  EXPECT_EQ(page.size() % width, 0u);
  for (size_t pos = 0; pos < page.size(); pos += width)
    out.emplace_back(reinterpret_cast<const char*>(page.data()) + pos, width);
  return out;
}

template <class T>
std::string bytes_of(const T& v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}

// Checks the dictionary holds each distinct value once, in order of first
// appearance, and that `indices` map back to the values bit for bit.
// value(i) and entry(i) return the bytes as std::string_view.
template <class Value, class Entry>
void check_mapping(size_t n, Value value, size_t entries, Entry entry, const std::vector<uint32_t>& indices) {
  ASSERT_EQ(indices.size(), n);
  std::unordered_map<std::string_view, uint32_t> first;
  first.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    auto [it, fresh] = first.emplace(value(i), static_cast<uint32_t>(first.size()));
    ASSERT_EQ(indices[i], it->second) << "value " << i;
  }
  ASSERT_EQ(entries, first.size());
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(entry(indices[i]), value(i)) << "value " << i;
}

void check_mapping(const std::vector<std::string>& values, const std::vector<std::string>& dictionary,
                   const std::vector<uint32_t>& indices) {
  check_mapping(
      values.size(), [&](size_t i) { return std::string_view(values[i]); }, dictionary.size(),
      [&](size_t i) { return std::string_view(dictionary[i]); }, indices);
}

template <class T>
std::string_view view_of(const T& v) {
  return {reinterpret_cast<const char*>(&v), sizeof(T)};
}

// ---- value generators ------------------------------------------------------------

uint64_t scramble(uint64_t id) { return (id + 1) * 0x9e3779b97f4a7c15ull ^ (id >> 7); }

template <class T>
T make_value(uint64_t id) {
  uint64_t bits = scramble(id);
  if constexpr (std::is_same_v<T, Int96>) {
    // Distinct ids differ in the low word; the rest is noise.
    return Int96{{static_cast<uint32_t>(id), static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)}};
  } else if constexpr (sizeof(T) == 4) {
    uint32_t b = static_cast<uint32_t>(id * 0x9e3779b1u);  // a bijection on 32 bits
    T v;
    std::memcpy(&v, &b, 4);
    return v;
  } else {
    uint64_t b = id * 0x9e3779b97f4a7c15ull;  // a bijection on 64 bits
    T v;
    std::memcpy(&v, &b, 8);
    return v;
  }
}

enum class Pattern { kAllDistinct, kAllEqual, kLowCardinality, kHighCardinality };

std::vector<uint64_t> make_ids(size_t n, Pattern p, uint32_t seed = 1) {
  std::vector<uint64_t> ids(n);
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < n; ++i) {
    switch (p) {
      case Pattern::kAllDistinct:
        ids[i] = i;
        break;
      case Pattern::kAllEqual:
        ids[i] = 42;
        break;
      case Pattern::kLowCardinality:
        ids[i] = rng() % 7;
        break;
      case Pattern::kHighCardinality:
        ids[i] = rng() % (n / 2 + 1);
        break;
    }
  }
  return ids;
}

const size_t kSizes[] = {0, 1, 7, 8, 9, 127, 128, 129, 1000003};
const Pattern kPatterns[] = {Pattern::kAllDistinct, Pattern::kAllEqual, Pattern::kLowCardinality,
                             Pattern::kHighCardinality};

DictionaryLimits unlimited() { return {SIZE_MAX, SIZE_MAX}; }

// ---- fixed-width types -----------------------------------------------------------

template <class T>
class DictionaryEncoderTyped : public ::testing::Test {};
using FixedTypes = ::testing::Types<int32_t, int64_t, Int96, float, double>;
TYPED_TEST_SUITE(DictionaryEncoderTyped, FixedTypes);

template <class T>
void round_trip(const std::vector<T>& values, DictionaryEncoder<T>& enc) {
  ASSERT_EQ(enc.put(values.data(), values.size()), values.size());
  EXPECT_FALSE(enc.limit_reached());
  EXPECT_EQ(enc.num_buffered_indices(), values.size());
  Buffer page, dict;
  enc.write_indices(page);
  EXPECT_EQ(enc.num_buffered_indices(), 0u);
  enc.write_dictionary_page(dict);
  EXPECT_EQ(dict.size(), enc.dictionary_byte_size());
  std::vector<T> entries = read_plain<T>(dict);
  EXPECT_EQ(entries.size(), enc.num_entries());
  check_mapping(
      values.size(), [&](size_t i) { return view_of(values[i]); }, entries.size(),
      [&](size_t i) { return view_of(entries[i]); }, read_indices(page, values.size()));
}

TYPED_TEST(DictionaryEncoderTyped, RoundTripsEverySizeAndPattern) {
  using T = TypeParam;
  for (size_t n : kSizes) {
    for (Pattern p : kPatterns) {
      SCOPED_TRACE("n=" + std::to_string(n) + " pattern=" + std::to_string(static_cast<int>(p)));
      std::vector<T> values;
      for (uint64_t id : make_ids(n, p)) values.push_back(make_value<T>(id));
      DictionaryEncoder<T> enc(unlimited());
      round_trip(values, enc);
    }
  }
}

TYPED_TEST(DictionaryEncoderTyped, IndicesSpanPagesAgainstOneDictionary) {
  using T = TypeParam;
  DictionaryEncoder<T> enc(unlimited());
  std::vector<uint64_t> ids = make_ids(5000, Pattern::kHighCardinality, 7);
  std::vector<std::string> all;
  std::vector<uint32_t> all_indices;
  for (size_t start = 0; start < ids.size(); start += 1300) {
    std::vector<T> page_values;
    for (size_t i = start; i < std::min(ids.size(), start + 1300); ++i) page_values.push_back(make_value<T>(ids[i]));
    ASSERT_EQ(enc.put(page_values.data(), page_values.size()), page_values.size());
    Buffer page;
    enc.write_indices(page);
    for (uint32_t x : read_indices(page, page_values.size())) all_indices.push_back(x);
    for (const T& x : page_values) all.push_back(bytes_of(x));
  }
  Buffer dict;
  enc.write_dictionary_page(dict);
  std::vector<std::string> d;
  for (const T& x : read_plain<T>(dict)) d.push_back(bytes_of(x));
  check_mapping(all, d, all_indices);
}

TYPED_TEST(DictionaryEncoderTyped, EntryLimitStopsAtTheExactValue) {
  using T = TypeParam;
  DictionaryEncoder<T> enc({SIZE_MAX, 5});
  // 0 1 0 2 3 4 4 | 5 ...: the sixth distinct value is at position 7.
  std::vector<uint64_t> ids = {0, 1, 0, 2, 3, 4, 4, 5, 0, 6};
  std::vector<T> values;
  for (uint64_t id : ids) values.push_back(make_value<T>(id));
  EXPECT_EQ(enc.put(values.data(), values.size()), 7u);
  EXPECT_TRUE(enc.limit_reached());
  EXPECT_EQ(enc.num_entries(), 5u);
  EXPECT_EQ(enc.dictionary_byte_size(), 5 * sizeof(T));
  EXPECT_EQ(enc.num_buffered_indices(), 7u);
  EXPECT_FALSE(enc.fits(sizeof(T)));
  // Known values still go in; the first new one stops the batch at once.
  EXPECT_EQ(enc.put(values.data() + 8, 2), 1u);
  EXPECT_EQ(enc.put(values.data() + 7, 3), 0u);
  std::vector<uint32_t> expect = {0, 1, 0, 2, 3, 4, 4, 0};
  EXPECT_EQ(std::vector<uint32_t>(enc.buffered_indices().begin(), enc.buffered_indices().end()), expect);
}

TYPED_TEST(DictionaryEncoderTyped, ByteLimitStopsAtTheExactValue) {
  using T = TypeParam;
  for (size_t room : {size_t{0}, size_t{1}, size_t{3}}) {
    // Exactly `room` entries fit; one byte short of the next.
    DictionaryEncoder<T> enc({room * sizeof(T) + sizeof(T) - 1, SIZE_MAX});
    std::vector<T> values;
    for (uint64_t id = 0; id < 10; ++id) values.push_back(make_value<T>(id));
    EXPECT_EQ(enc.put(values.data(), values.size()), room);
    EXPECT_EQ(enc.num_entries(), room);
    EXPECT_EQ(enc.dictionary_byte_size(), room * sizeof(T));
    EXPECT_TRUE(enc.limit_reached());
    // At exactly the limit the entry fits.
    DictionaryEncoder<T> exact({(room + 1) * sizeof(T), SIZE_MAX});
    EXPECT_EQ(exact.put(values.data(), values.size()), room + 1);
    EXPECT_EQ(exact.dictionary_byte_size(), exact.limits().max_bytes);
  }
}

TYPED_TEST(DictionaryEncoderTyped, ResetEmptiesTheDictionary) {
  using T = TypeParam;
  DictionaryEncoder<T> enc({3 * sizeof(T), SIZE_MAX});
  std::vector<T> values;
  for (uint64_t id = 0; id < 5; ++id) values.push_back(make_value<T>(id));
  EXPECT_EQ(enc.put(values.data(), 5), 3u);
  enc.reset();
  EXPECT_EQ(enc.num_entries(), 0u);
  EXPECT_EQ(enc.dictionary_byte_size(), 0u);
  EXPECT_EQ(enc.num_buffered_indices(), 0u);
  EXPECT_FALSE(enc.limit_reached());
  EXPECT_EQ(enc.put(values.data() + 2, 3), 3u);
  std::vector<uint32_t> expect = {0, 1, 2};
  EXPECT_EQ(std::vector<uint32_t>(enc.buffered_indices().begin(), enc.buffered_indices().end()), expect);
  Buffer dict;
  enc.write_dictionary_page(dict);
  EXPECT_EQ(dict.size(), 3 * sizeof(T));
  EXPECT_EQ(std::memcmp(dict.data(), values.data() + 2, 3 * sizeof(T)), 0);
}

TYPED_TEST(DictionaryEncoderTyped, MovesKeepTheDictionary) {
  using T = TypeParam;
  DictionaryEncoder<T> a(unlimited());
  T v = make_value<T>(3);
  a.put(&v, 1);
  DictionaryEncoder<T> b(std::move(a));
  EXPECT_EQ(b.num_entries(), 1u);
  T w = make_value<T>(4);
  EXPECT_EQ(b.put(&w, 1), 1u);
  EXPECT_EQ(b.num_entries(), 2u);
}

// ---- the bit width byte ----------------------------------------------------------

TEST(DictionaryEncoder, BitWidthByteFollowsTheEntryCount) {
  const std::pair<size_t, int> cases[] = {{0, 0}, {1, 1},   {2, 1},   {3, 2},     {4, 2},
                                          {5, 3}, {256, 8}, {257, 9}, {65537, 17}};
  for (auto [entries, width] : cases) {
    DictionaryEncoder<int32_t> enc(unlimited());
    std::vector<int32_t> values(entries);
    for (size_t i = 0; i < entries; ++i) values[i] = static_cast<int32_t>(i);
    enc.put(values.data(), entries);
    EXPECT_EQ(enc.index_bit_width(), width) << entries;
    Buffer page;
    enc.write_indices(page);
    ASSERT_GE(page.size(), 1u);
    EXPECT_EQ(page.data()[0], width) << entries;
    // Written widths decode: the page is as a reader sees it.
    std::vector<uint32_t> idx = read_indices(page, entries);
    for (size_t i = 0; i < entries; ++i) ASSERT_EQ(idx[i], i);
  }
}

TEST(DictionaryEncoder, EmptyPageIsTheWidthByteAlone) {
  DictionaryEncoder<int64_t> enc;
  Buffer page, dict;
  enc.write_indices(page);
  enc.write_dictionary_page(dict);
  ASSERT_EQ(page.size(), 1u);
  EXPECT_EQ(page.data()[0], 0);
  EXPECT_EQ(dict.size(), 0u);
  EXPECT_EQ(enc.put(nullptr, 0), 0u);
}

TEST(DictionaryEncoder, DefaultLimitsAreOneMebibyte) {
  DictionaryEncoder<int64_t> enc;
  EXPECT_EQ(enc.limits().max_bytes, size_t{1} << 20);
  EXPECT_EQ(enc.limits().max_entries, size_t{INT32_MAX});
  std::vector<int64_t> values(200000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i);
  EXPECT_EQ(enc.put(values.data(), values.size()), (size_t{1} << 20) / 8);
  DictionaryEncoder<int64_t> capped({SIZE_MAX, SIZE_MAX});
  EXPECT_EQ(capped.limits().max_entries, size_t{INT32_MAX});
}

// ---- floating point by bit pattern -----------------------------------------------

template <class F, class U>
F from_bits(U u) {
  F f;
  std::memcpy(&f, &u, sizeof(F));
  return f;
}

TEST(DictionaryEncoder, FloatsCompareByBitPattern) {
  const float nan_a = from_bits<float>(uint32_t{0x7fc00000});
  const float nan_b = from_bits<float>(uint32_t{0x7fc00001});
  const float nan_neg = from_bits<float>(uint32_t{0xffc00000});
  std::vector<float> values = {
      0.0f, -0.0f, nan_a, nan_b, nan_neg, nan_a, -0.0f, 0.0f, nan_b, 1.0f, std::numeric_limits<float>::infinity()};
  DictionaryEncoder<float> enc;
  ASSERT_EQ(enc.put(values.data(), values.size()), values.size());
  EXPECT_EQ(enc.num_entries(), 7u);
  std::vector<uint32_t> expect = {0, 1, 2, 3, 4, 2, 1, 0, 3, 5, 6};
  EXPECT_EQ(std::vector<uint32_t>(enc.buffered_indices().begin(), enc.buffered_indices().end()), expect);
  Buffer dict;
  enc.write_dictionary_page(dict);
  std::vector<float> d = read_plain<float>(dict);
  EXPECT_TRUE(std::signbit(d[1]) && d[1] == 0.0f);
  EXPECT_FALSE(std::signbit(d[0]));
  EXPECT_EQ(bytes_of(d[3]), bytes_of(nan_b));
}

TEST(DictionaryEncoder, DoublesCompareByBitPattern) {
  const double nan_a = std::numeric_limits<double>::quiet_NaN();
  const double nan_b = from_bits<double>(uint64_t{0x7ff0000000000001});  // signalling
  std::vector<double> values = {-0.0, 0.0, nan_a, nan_b, nan_a, nan_b, -0.0};
  DictionaryEncoder<double> enc;
  ASSERT_EQ(enc.put(values.data(), values.size()), values.size());
  EXPECT_EQ(enc.num_entries(), 4u);
  std::vector<uint32_t> expect = {0, 1, 2, 3, 2, 3, 0};
  EXPECT_EQ(std::vector<uint32_t>(enc.buffered_indices().begin(), enc.buffered_indices().end()), expect);
  Buffer dict;
  enc.write_dictionary_page(dict);
  EXPECT_EQ(bytes_of(read_plain<double>(dict)[3]), bytes_of(nan_b));
}

// ---- collisions --------------------------------------------------------------------

TEST(DictionaryEncoder, KeysWithEqualLowBitsRoundTrip) {
  {
    std::vector<int64_t> values;
    for (int64_t i = 0; i < 20000; ++i) values.push_back(i << 32);
    for (int64_t i = 0; i < 20000; ++i) values.push_back(static_cast<int64_t>(static_cast<uint64_t>(i) << 50));
    for (int64_t i = 0; i < 20000; ++i) values.push_back(i << 32);
    DictionaryEncoder<int64_t> enc(unlimited());
    round_trip(values, enc);
    EXPECT_EQ(enc.num_entries(), 20000u + 16383u);  // i << 50 wraps after 2^14 values; 0 is shared
  }
  {
    std::vector<int32_t> values;
    for (int32_t i = 0; i < 65536; ++i) values.push_back(static_cast<int32_t>(static_cast<uint32_t>(i) << 16));
    DictionaryEncoder<int32_t> enc(unlimited());
    round_trip(values, enc);
    EXPECT_EQ(enc.num_entries(), 65536u);
  }
  {
    std::vector<double> values;
    for (int i = 0; i < 50000; ++i) values.push_back(static_cast<double>(i));  // low mantissa bits all zero
    DictionaryEncoder<double> enc(unlimited());
    round_trip(values, enc);
  }
}

struct ConstantHasher {
  template <class Key>
  uint64_t operator()(const Key&) const {
    return 0x5555;
  }
};

TEST(HashTable, FixedKeysSurviveAConstantHash) {
  FixedKeyTable<uint64_t, ConstantHasher> table;
  std::vector<uint64_t> keys;
  for (uint64_t i = 0; i < 3000; ++i) {
    uint64_t k = i * 1024;
    auto* slot = table.find(k);
    ASSERT_EQ(slot->index_plus_one, 0u);
    keys.push_back(k);
    EXPECT_EQ(table.insert(slot, k, keys.data()), i);
  }
  EXPECT_GE(table.capacity(), 2 * table.size());
  for (uint64_t i = 0; i < 3000; ++i) {
    auto* slot = table.find(i * 1024);
    ASSERT_EQ(slot->index_plus_one, i + 1);
  }
  EXPECT_EQ(table.find(7)->index_plus_one, 0u);
}

TEST(HashTable, HashedIndexTableSeparatesEqualHashes) {
  HashedIndexTable table;
  std::vector<uint64_t> hashes;
  std::vector<std::string> values;
  // Every value has the same hash: only the equality callback tells them
  // apart, and growing must keep them all.
  for (int i = 0; i < 2000; ++i) {
    std::string v = "v" + std::to_string(i);
    HashedIndexTable::Slot* empty = nullptr;
    auto eq = [&](uint32_t e) { return values[e] == v; };
    ASSERT_EQ(table.find(0xabcdef0012345678ull, eq, &empty), UINT32_MAX);
    values.push_back(v);
    hashes.push_back(0xabcdef0012345678ull);
    EXPECT_EQ(table.insert(empty, hashes.back(), hashes.data()), static_cast<uint32_t>(i));
  }
  for (int i = 0; i < 2000; ++i) {
    std::string v = "v" + std::to_string(i);
    HashedIndexTable::Slot* empty = nullptr;
    EXPECT_EQ(table.find(
                  0xabcdef0012345678ull, [&](uint32_t e) { return values[e] == v; }, &empty),
              static_cast<uint32_t>(i));
  }
}

TEST(HashTable, KeysDifferingOnlyInHighOrLowBitsSpread) {
  // A key's slot is the high bits of key * multiplier; keys that differ only
  // in their high bits, or only in their low bits (ids, arithmetic
  // sequences), must spread over a 65536-slot table at least about as well
  // as random slots would (8 collisions expected for 1024 keys), under
  // every multiplier a table may pick.
  for (uint64_t m : kMultipliers) {
    std::set<size_t> high_keys, sequential, stepped;
    for (uint64_t i = 0; i < 1024; ++i) {
      high_keys.insert(FixedKeyTable<uint64_t>::home_of(hashing::hash_key(i << 54), m, 48));
      sequential.insert(FixedKeyTable<uint64_t>::home_of(hashing::hash_key(i), m, 48));
      stepped.insert(FixedKeyTable<uint64_t>::home_of(hashing::hash_key(i * 86400), m, 48));
    }
    EXPECT_GE(high_keys.size(), 1000u) << std::hex << m;
    EXPECT_GE(sequential.size(), 1000u) << std::hex << m;
    EXPECT_GE(stepped.size(), 1000u) << std::hex << m;
  }
}

TEST(HashTable, SmallTablesKeepEveryKeyAtHome) {
  // A hundred random keys: the table picks a multiplier that leaves none
  // away from its home slot, which the encoder's lookup relies on for speed.
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    FixedKeyTable<uint64_t> table;
    std::vector<uint64_t> keys;
    for (int i = 0; i < 100; ++i) {
      uint64_t k = rng();
      auto* slot = table.find(k);
      ASSERT_EQ(slot->index_plus_one, 0u);
      keys.push_back(k);
      table.insert(slot, k, keys.data());
    }
    EXPECT_EQ(table.away_from_home(), 0u) << "trial " << trial;
    for (size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(table.find(keys[i])->index_plus_one, i + 1);
  }
}

TEST(HashTable, EmptySlotsNeverMatchAKeyAtItsHome) {
  // Keys 0 and 1 are the empty slots' keys; the lookup at home skips the
  // emptiness test, so a table without them must still miss them.
  FixedKeyTable<uint32_t> table;
  std::vector<uint32_t> keys;
  for (uint32_t k = 2; k < 40; ++k) {
    keys.push_back(k);
    table.insert(table.find(k), k, keys.data());
  }
  for (uint32_t k : {0u, 1u}) {
    const auto& at_home = table.slots()[table.home(k)];
    EXPECT_FALSE(at_home.key == k && at_home.index_plus_one == 0) << k;
    EXPECT_EQ(table.find(k)->index_plus_one, 0u);
  }
  DictionaryEncoder<int32_t> enc(unlimited());
  std::vector<int32_t> values = {5, 0, 1, 0, 5, 1, 1, 0};
  round_trip(values, enc);
  EXPECT_EQ(enc.num_entries(), 3u);
}

// ---- byte arrays -----------------------------------------------------------------

ByteArrayBatch make_batch(const std::vector<std::string>& values) {
  ByteArrayBatch b;
  for (const auto& v : values) b.append(v);
  return b;
}

std::string make_string(uint64_t id) {
  // Lengths 0..40 and, now and then, a long one; distinct ids give
  // distinct strings (the id is spelled out).
  if (id == 0) return "";
  std::string s = std::to_string(id) + ":";
  size_t len = scramble(id) % 41;
  if (id % 97 == 0) len = 5000 + id % 1000;
  while (s.size() < len) s.push_back(static_cast<char>('a' + (scramble(id + s.size()) % 26)));
  return s;
}

void round_trip_bytes(const std::vector<std::string>& values, ByteArrayDictionaryEncoder& enc) {
  ByteArrayBatch batch = make_batch(values);
  ASSERT_EQ(enc.put(batch), values.size());
  Buffer page, dict;
  enc.write_indices(page);
  enc.write_dictionary_page(dict);
  EXPECT_EQ(dict.size(), enc.dictionary_byte_size());
  std::vector<std::string> d = read_plain_byte_arrays(dict);
  EXPECT_EQ(d.size(), enc.num_entries());
  check_mapping(values, d, read_indices(page, values.size()));
}

TEST(ByteArrayDictionaryEncoder, RoundTripsEverySizeAndPattern) {
  for (size_t n : kSizes) {
    for (Pattern p : kPatterns) {
      SCOPED_TRACE("n=" + std::to_string(n) + " pattern=" + std::to_string(static_cast<int>(p)));
      std::vector<std::string> values;
      for (uint64_t id : make_ids(n, p)) values.push_back(make_string(id));
      ByteArrayDictionaryEncoder enc(unlimited());
      round_trip_bytes(values, enc);
    }
  }
}

TEST(ByteArrayDictionaryEncoder, EmptyAndLongStrings) {
  std::string long_a(1 << 20, 'x');
  std::string long_b = long_a;
  long_b.back() = 'y';
  std::vector<std::string> values = {"", long_a, "", long_b, std::string(1, '\0'), long_a, "", std::string(2, '\0')};
  ByteArrayDictionaryEncoder enc(unlimited());
  round_trip_bytes(values, enc);
  EXPECT_EQ(enc.num_entries(), 5u);
  EXPECT_EQ(enc.dictionary_byte_size(), 5 * 4 + 0 + 2 * long_a.size() + 1 + 2);
}

TEST(ByteArrayDictionaryEncoder, OnlyEmptyStrings) {
  ByteArrayBatch batch = make_batch({"", "", ""});
  ByteArrayDictionaryEncoder enc;
  EXPECT_EQ(enc.put(batch), 3u);
  EXPECT_EQ(enc.num_entries(), 1u);
  EXPECT_EQ(enc.dictionary_byte_size(), 4u);
}

TEST(ByteArrayDictionaryEncoder, ByteLimitStopsAtTheExactValue) {
  // Entries cost 4 + 3 bytes each.
  std::vector<std::string> values = {"aaa", "bbb", "aaa", "ccc", "bbb", "ddd", "aaa"};
  ByteArrayBatch batch = make_batch(values);
  {
    ByteArrayDictionaryEncoder enc({20, SIZE_MAX});
    EXPECT_EQ(enc.put(batch), 3u);  // "ccc" would make 21
    EXPECT_TRUE(enc.limit_reached());
    EXPECT_EQ(enc.dictionary_byte_size(), 14u);
    EXPECT_EQ(enc.num_entries(), 2u);
    // Resuming part-way through the batch: "ccc" still does not fit.
    EXPECT_EQ(enc.put(batch.offsets() + 4, batch.data(), 3), 1u);
  }
  {
    ByteArrayDictionaryEncoder enc({21, SIZE_MAX});
    EXPECT_EQ(enc.put(batch), 5u);  // "ddd" would make 28
    EXPECT_EQ(enc.dictionary_byte_size(), 21u);
  }
  {
    ByteArrayDictionaryEncoder enc({SIZE_MAX, 3});
    EXPECT_EQ(enc.put(batch), 5u);
    EXPECT_EQ(enc.num_entries(), 3u);
    Buffer dict;
    enc.write_dictionary_page(dict);
    EXPECT_EQ(read_plain_byte_arrays(dict), (std::vector<std::string>{"aaa", "bbb", "ccc"}));
  }
}

TEST(ByteArrayDictionaryEncoder, ResumesFromAnOffsetThatIsNotZero) {
  std::vector<std::string> values = {"one", "two", "three", "two", "four"};
  ByteArrayBatch batch = make_batch(values);
  ByteArrayDictionaryEncoder enc;
  EXPECT_EQ(enc.put(batch.offsets(), batch.data(), 2), 2u);
  EXPECT_EQ(enc.put(batch.offsets() + 2, batch.data(), 3), 3u);
  std::vector<uint32_t> expect = {0, 1, 2, 1, 3};
  EXPECT_EQ(std::vector<uint32_t>(enc.buffered_indices().begin(), enc.buffered_indices().end()), expect);
}

TEST(ByteArrayDictionaryEncoder, DecreasingOffsetsThrow) {
  const int32_t offsets[] = {0, 3, 2};
  const uint8_t data[] = {'a', 'b', 'c'};
  ByteArrayDictionaryEncoder enc;
  EXPECT_THROW(enc.put(offsets, data, 2), Error);
  EXPECT_EQ(enc.num_buffered_indices(), 1u);
}

TEST(ByteArrayDictionaryEncoder, ManyStringsSharingPrefixesAndLengths) {
  std::vector<std::string> values;
  for (int i = 0; i < 100000; ++i) {
    std::string s(16, 'k');
    std::memcpy(s.data() + 12, &i, 4);
    values.push_back(s);
  }
  for (int i = 0; i < 100000; i += 3) values.push_back(values[i]);
  ByteArrayDictionaryEncoder enc(unlimited());
  round_trip_bytes(values, enc);
  EXPECT_EQ(enc.num_entries(), 100000u);
}

TEST(ByteArrayDictionaryEncoder, ResetEmptiesTheDictionary) {
  ByteArrayBatch batch = make_batch({"x", "y"});
  ByteArrayDictionaryEncoder enc;
  enc.put(batch);
  enc.reset();
  EXPECT_EQ(enc.num_entries(), 0u);
  EXPECT_EQ(enc.num_buffered_indices(), 0u);
  EXPECT_EQ(enc.put(batch.offsets() + 1, batch.data(), 1), 1u);
  EXPECT_EQ(enc.buffered_indices()[0], 0u);
  Buffer dict;
  enc.write_dictionary_page(dict);
  EXPECT_EQ(read_plain_byte_arrays(dict), std::vector<std::string>{"y"});
}

// ---- fixed-length byte arrays ------------------------------------------------------

void round_trip_fixed(const std::vector<std::string>& values, FixedLenByteArrayDictionaryEncoder& enc) {
  std::string flat;
  for (const auto& v : values) flat += v;
  ASSERT_EQ(enc.put(reinterpret_cast<const uint8_t*>(flat.data()), values.size()), values.size());
  Buffer page, dict;
  enc.write_indices(page);
  enc.write_dictionary_page(dict);
  EXPECT_EQ(dict.size(), enc.dictionary_byte_size());
  std::vector<std::string> d = read_plain_fixed(dict, enc.width());
  if (enc.width() > 0) {
    EXPECT_EQ(d.size(), enc.num_entries());
  } else {
    d.assign(enc.num_entries(), "");
  }
  check_mapping(values, d, read_indices(page, values.size()));
}

std::string make_fixed(uint64_t id, int width) {
  std::string s(width, '\0');
  uint64_t bits = scramble(id);
  for (int i = 0; i < width; ++i) s[i] = static_cast<char>(bits >> (8 * (i % 8)));
  // Distinct ids differ in the last bytes (collide in the leading ones for
  // wide values).
  for (int i = 0; i < std::min(width, 4); ++i) s[width - 1 - i] = static_cast<char>(id >> (8 * i));
  return s;
}

TEST(FixedLenByteArrayDictionaryEncoder, RoundTripsEveryWidthSizeAndPattern) {
  for (int width : {0, 1, 2, 4, 12, 16, 33}) {
    for (size_t n : kSizes) {
      if (width >= 16 && n > 200000) continue;  // the 1M case is covered by the narrower widths
      for (Pattern p : kPatterns) {
        SCOPED_TRACE("width=" + std::to_string(width) + " n=" + std::to_string(n) +
                     " pattern=" + std::to_string(static_cast<int>(p)));
        std::vector<std::string> values;
        for (uint64_t id : make_ids(n, p)) values.push_back(make_fixed(id, width));
        FixedLenByteArrayDictionaryEncoder enc(width, unlimited());
        round_trip_fixed(values, enc);
      }
    }
  }
}

TEST(FixedLenByteArrayDictionaryEncoder, LimitsStopAtTheExactValue) {
  std::vector<std::string> values;
  for (int i = 0; i < 10; ++i) values.push_back(make_fixed(i % 6, 16));
  std::string flat;
  for (const auto& v : values) flat += v;
  const auto* p = reinterpret_cast<const uint8_t*>(flat.data());
  FixedLenByteArrayDictionaryEncoder by_bytes(16, {16 * 4, SIZE_MAX});
  EXPECT_EQ(by_bytes.put(p, 10), 4u);
  EXPECT_EQ(by_bytes.dictionary_byte_size(), 64u);
  FixedLenByteArrayDictionaryEncoder by_entries(16, {SIZE_MAX, 6});
  EXPECT_EQ(by_entries.put(p, 10), 10u);
  EXPECT_FALSE(by_entries.limit_reached());
  FixedLenByteArrayDictionaryEncoder fewer(16, {SIZE_MAX, 5});
  EXPECT_EQ(fewer.put(p, 10), 5u);
  EXPECT_TRUE(fewer.limit_reached());
}

TEST(FixedLenByteArrayDictionaryEncoder, NegativeWidthThrows) {
  EXPECT_THROW(FixedLenByteArrayDictionaryEncoder(-1), Error);
}

}  // namespace
}  // namespace parq::encoding
