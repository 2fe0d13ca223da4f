// Tests of the encoding table and ValueReader: the table lists the pairs of
// the spec, the writer and the reader refuse exactly what it refuses, and
// every pair decodes what the writer encoded, page after page, with reads
// and skips interleaved at page boundaries and inside pages; skipping or
// reading past a page's values, and dictionary misuse, are errors.
#include "column/value_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "column/encoding_table.h"
#include "column/value_writer.h"
#include "parq/error.h"

namespace parq {
namespace {

using format::Encoding;
using format::Type;
using testing::HasSubstr;

constexpr int32_t kFixedWidth = 5;  // of the FIXED_LEN_BYTE_ARRAY columns here

const Type kTypes[] = {Type::BOOLEAN, Type::INT32,  Type::INT64,      Type::INT96,
                       Type::FLOAT,   Type::DOUBLE, Type::BYTE_ARRAY, Type::FIXED_LEN_BYTE_ARRAY};

// Every encoding of parquet.thrift, the retired 1 and ALP included, and a
// value from a newer writer.
std::vector<Encoding> all_encodings() {
  std::vector<Encoding> out;
  for (int e = 0; e <= 10; ++e) out.push_back(static_cast<Encoding>(e));
  out.push_back(static_cast<Encoding>(42));
  return out;
}

bool is_dictionary(Encoding e) { return e == Encoding::PLAIN_DICTIONARY || e == Encoding::RLE_DICTIONARY; }

// The pairs as Encodings.md lists them, written out here independently of
// the table.
bool spec_allows(Type t, Encoding e) {
  switch (e) {
    case Encoding::PLAIN:
      return true;
    case Encoding::PLAIN_DICTIONARY:
    case Encoding::RLE_DICTIONARY:
      return t != Type::BOOLEAN;
    case Encoding::RLE:
      return t == Type::BOOLEAN;
    case Encoding::DELTA_BINARY_PACKED:
      return t == Type::INT32 || t == Type::INT64;
    case Encoding::DELTA_LENGTH_BYTE_ARRAY:
      return t == Type::BYTE_ARRAY;
    case Encoding::DELTA_BYTE_ARRAY:
      return t == Type::BYTE_ARRAY || t == Type::FIXED_LEN_BYTE_ARRAY;
    case Encoding::BYTE_STREAM_SPLIT:
      return t == Type::FLOAT || t == Type::DOUBLE || t == Type::INT32 || t == Type::INT64 ||
             t == Type::FIXED_LEN_BYTE_ARRAY;
    case Encoding::ALP:
      return t == Type::FLOAT || t == Type::DOUBLE;
    default:
      return false;
  }
}

ColumnDescriptor descriptor(Type t) {
  ColumnDescriptor c;
  c.path = {"v"};
  c.type.physical = t;
  if (t == Type::FIXED_LEN_BYTE_ARRAY) c.type.type_length = kFixedWidth;
  return c;
}

size_t width_of(Type t) {
  switch (t) {
    case Type::BOOLEAN:
      return 1;
    case Type::INT32:
    case Type::FLOAT:
      return 4;
    case Type::INT64:
    case Type::DOUBLE:
      return 8;
    case Type::INT96:
      return 12;
    case Type::FIXED_LEN_BYTE_ARRAY:
      return kFixedWidth;
    case Type::BYTE_ARRAY:
      return 0;
  }
  return 0;
}

// Values in physical storage, and each one's bytes for comparisons.
struct Values {
  Type type;
  std::vector<uint8_t> fixed;
  std::vector<int32_t> offsets{0};
  std::string data;
  std::vector<std::string> each;

  DenseValues dense() const {
    DenseValues d;
    d.fixed = fixed.data();
    d.offsets = offsets.data();
    d.data = reinterpret_cast<const uint8_t*>(data.data());
    d.count = static_cast<int64_t>(each.size());
    return d;
  }
};

// n values, most from a few dozen distinct ones (so that dictionaries and
// front compression have something to find), some random; booleans in
// runs and scattered.
Values make_values(Type t, size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Values v{t};
  const size_t w = width_of(t);
  std::vector<std::string> pool;
  for (int i = 0; i < 40; ++i) {
    std::string s;
    if (t == Type::BYTE_ARRAY) {
      s = "prefix-" + std::to_string(i * 7919) + std::string(static_cast<size_t>(i % 5), 'x');
      if (i == 0) s.clear();
    } else {
      for (size_t b = 0; b < w; ++b) s.push_back(static_cast<char>(rng()));
    }
    pool.push_back(s);
  }
  for (size_t i = 0; i < n; ++i) {
    std::string s;
    if (t == Type::BOOLEAN) {
      s.push_back(static_cast<char>(i % 300 < 100 ? 1 : rng() & 1));
    } else if (rng() % 5 != 0) {
      s = pool[rng() % pool.size()];
    } else if (t == Type::BYTE_ARRAY) {
      s = "prefix-" + std::to_string(rng() % 100000);
    } else {
      for (size_t b = 0; b < w; ++b) s.push_back(static_cast<char>(rng()));
    }
    if (t == Type::BYTE_ARRAY) {
      v.data += s;
      v.offsets.push_back(static_cast<int32_t>(v.data.size()));
    } else {
      v.fixed.insert(v.fixed.end(), s.begin(), s.end());
    }
    v.each.push_back(std::move(s));
  }
  return v;
}

// The pages of one column chunk, each in a Buffer of its own (what the page
// reader hands over: padded, and kept alive by a shared owner).
struct Encoded {
  std::vector<std::shared_ptr<Buffer>> pages;
  std::vector<size_t> counts;
  Buffer dictionary;
  size_t dictionary_entries = 0;
};

Encoded encode(Type t, Encoding e, const Values& v, const std::vector<size_t>& page_sizes) {
  auto writer = ValueWriter::make(descriptor(t), e);
  Encoded out;
  const DenseValues dense = v.dense();
  size_t at = 0;
  for (size_t n : page_sizes) {
    EXPECT_EQ(writer->put(dense, at, n), n);
    auto page = std::make_shared<Buffer>();
    writer->flush(*page);
    out.pages.push_back(std::move(page));
    out.counts.push_back(n);
    at += n;
  }
  EXPECT_EQ(at, v.each.size());
  if (writer->is_dictionary()) {
    writer->write_dictionary(out.dictionary);
    out.dictionary_entries = writer->dictionary_entries();
  }
  return out;
}

std::string value_at(Type t, const LeafValues& out, size_t i) {
  if (t == Type::BYTE_ARRAY) return std::string(out.bytes.value(i));
  const size_t w = width_of(t);
  return std::string(reinterpret_cast<const char*>(out.fixed.data()) + i * w, w);
}

std::string name_of(Type t, Encoding e) {
  return std::string(format::to_string(t)) + "/" + std::string(format::to_string(e));
}

struct Pair {
  Type type;
  Encoding encoding;
};

std::vector<Pair> table_pairs() {
  std::vector<Pair> out;
  for (Type t : kTypes)
    for (Encoding e : all_encodings())
      if (encoding_applies(t, e)) out.push_back({t, e});
  return out;
}

std::unique_ptr<ValueReader> reader_for(Type t, const Encoded& encoded) {
  auto reader = std::make_unique<ValueReader>(t, kFixedWidth, "v");
  if (encoded.dictionary_entries > 0)
    reader->set_dictionary(encoded.dictionary.data(), encoded.dictionary.size(), encoded.dictionary_entries);
  return reader;
}

TEST(EncodingTable, ListsThePairsOfTheSpec) {
  size_t allowed = 0;
  for (Type t : kTypes)
    for (Encoding e : all_encodings()) {
      EXPECT_EQ(encoding_applies(t, e), spec_allows(t, e)) << name_of(t, e);
      allowed += spec_allows(t, e);
    }
  EXPECT_EQ(table_pairs().size(), allowed);
  EXPECT_EQ(dictionary_applies(Type::BOOLEAN), false);
  EXPECT_EQ(dictionary_applies(Type::INT96), true);
}

// Both sides walk every (type, encoding): the writer makes a writer and the
// reader takes a page for exactly the pairs of the table.
TEST(EncodingTable, WriterAndReaderRefuseExactlyWhatTheTableRefuses) {
  for (Type t : kTypes)
    for (Encoding e : all_encodings()) {
      const bool applies = encoding_applies(t, e);
      bool writer_refused = false;
      try {
        auto writer = ValueWriter::make(descriptor(t), e);
        EXPECT_EQ(is_dictionary(e), writer->is_dictionary()) << name_of(t, e);
      } catch (const Error& error) {
        writer_refused = true;
        EXPECT_THAT(error.what(), HasSubstr("does not apply to")) << name_of(t, e);
      }
      EXPECT_EQ(writer_refused, !applies) << name_of(t, e);

      // The reader, on the page the writer makes of no values (or an
      // empty one where the writer refuses).
      Buffer page;
      Buffer dictionary;
      size_t entries = 0;
      if (applies) {
        auto writer = ValueWriter::make(descriptor(t), e);
        writer->flush(page);
        if (writer->is_dictionary()) writer->write_dictionary(dictionary);
        entries = writer->dictionary_entries();
      }
      ValueReader reader(t, kFixedWidth, "v");
      if (t != Type::BOOLEAN) reader.set_dictionary(dictionary.data(), dictionary.size(), entries);
      bool reader_refused = false;
      try {
        reader.begin_page(e, page.data(), page.size(), 0);
      } catch (const Error& error) {
        reader_refused = true;
        EXPECT_THAT(error.what(), HasSubstr("column v: encoding " + std::string(format::to_string(e)) +
                                            " is not valid for this column's type"));
      }
      EXPECT_EQ(reader_refused, !applies) << name_of(t, e);
      // The table's own factory agrees with its list.
      const auto dictionary_of_type = make_column_dictionary(t, kFixedWidth);
      const std::shared_ptr<const void> owner;
      const DecoderContext context{kFixedWidth, dictionary_of_type.get(), &owner};
      EXPECT_EQ(make_value_decoder(t, e, context) != nullptr, applies) << name_of(t, e);
    }
}

// A whole decode of every pair, pages of several sizes, gives the values put.
TEST(ValueReader, EveryPairReadsBackWhatWasWritten) {
  for (const Pair& p : table_pairs()) {
    const Values v = make_values(p.type, 3000, 11);
    const std::vector<size_t> sizes = {1, 999, 1000, 7, 993};
    const Encoded enc = encode(p.type, p.encoding, v, sizes);
    const auto owned = reader_for(p.type, enc);
    ValueReader& reader = *owned;
    LeafValues out;
    for (size_t i = 0; i < enc.pages.size(); ++i) {
      reader.begin_page(p.encoding, enc.pages[i]->data(), enc.pages[i]->size(), enc.counts[i]);
      reader.read(enc.counts[i], out);
    }
    ASSERT_EQ(out.count, 3000) << name_of(p.type, p.encoding);
    for (size_t i = 0; i < v.each.size(); ++i)
      ASSERT_EQ(value_at(p.type, out, i), v.each[i]) << name_of(p.type, p.encoding) << " value " << i;
  }
}

// Reads and skips of random lengths inside pages, runs that end exactly
// at a page's end, and batches of one: what is read is what a whole decode
// gives at those positions. With a page owner (PLAIN numbers may then come
// out as views of the page) and without.
TEST(ValueReader, ReadsAndSkipsInterleavedMatchAWholeDecode) {
  std::mt19937 rng(5);
  for (const Pair& p : table_pairs())
    for (bool owner : {false, true})
      for (int trial = 0; trial < 4; ++trial) {
        const Values v = make_values(p.type, 2500, 100 + trial);
        const std::vector<size_t> sizes = {700, 1, 1024, 775};
        const Encoded enc = encode(p.type, p.encoding, v, sizes);
        const auto owned = reader_for(p.type, enc);
        ValueReader& reader = *owned;
        size_t at = 0;  // among all values
        size_t checked = 0;
        for (size_t page = 0; page < enc.pages.size(); ++page) {
          reader.begin_page(p.encoding, enc.pages[page]->data(), enc.pages[page]->size(), enc.counts[page]);
          reader.set_page_owner(owner ? std::shared_ptr<const void>(enc.pages[page]) : nullptr);
          size_t left = enc.counts[page];
          while (left > 0) {
            // Sometimes to the page's end, sometimes a single value,
            // otherwise anything up to a few hundred.
            const uint32_t pick = rng() % 8;
            const size_t n = pick == 0 ? left : pick == 1 ? 1 : std::min<size_t>(left, rng() % 300 + 1);
            // Some value of each trial is read, if only the last.
            const bool last = page + 1 == enc.pages.size() && n == left;
            if (rng() % 2 == 0 && !(last && checked == 0)) {
              reader.skip(n);
            } else {
              LeafValues out;
              reader.read(n, out);
              ASSERT_EQ(out.count, static_cast<int64_t>(n));
              // PLAIN numbers keep their fast path: a view of the page.
              const bool number =
                  p.type != Type::BOOLEAN && p.type != Type::BYTE_ARRAY && p.type != Type::FIXED_LEN_BYTE_ARRAY;
              EXPECT_EQ(out.fixed.is_view(), owner && number && p.encoding == Encoding::PLAIN);
              for (size_t i = 0; i < n; ++i)
                ASSERT_EQ(value_at(p.type, out, i), v.each[at + i])
                    << name_of(p.type, p.encoding) << " value " << at + i << " trial " << trial;
              checked += n;
            }
            at += n;
            left -= n;
          }
        }
        EXPECT_EQ(at, v.each.size());
        EXPECT_GT(checked, 0u) << name_of(p.type, p.encoding);
      }
}

// Past the page's values, a skip fails as a read does, naming the counts.
TEST(ValueReader, SkippingOrReadingPastThePageIsAnError) {
  for (const Pair& p : table_pairs()) {
    const Values v = make_values(p.type, 100, 3);
    const Encoded enc = encode(p.type, p.encoding, v, {100});
    for (bool skip : {true, false}) {
      const auto owned = reader_for(p.type, enc);
      ValueReader& reader = *owned;
      reader.begin_page(p.encoding, enc.pages[0]->data(), enc.pages[0]->size(), 100);
      reader.skip(60);
      LeafValues out;
      try {
        if (skip) {
          reader.skip(41);
        } else {
          reader.read(41, out);
        }
        ADD_FAILURE() << "no error for " << name_of(p.type, p.encoding) << (skip ? " skip" : " read");
      } catch (const Error& e) {
        EXPECT_THAT(e.what(), HasSubstr("column v: the page holds 40 values where its levels need 41"))
            << name_of(p.type, p.encoding);
      }
    }
  }
}

TEST(ValueReader, DictionaryPagesAreChecked) {
  // A dictionary-encoded page with no dictionary before it.
  const Values v = make_values(Type::INT64, 50, 1);
  const Encoded enc = encode(Type::INT64, Encoding::RLE_DICTIONARY, v, {50});
  ValueReader reader(Type::INT64, 0, "v");
  try {
    reader.begin_page(Encoding::RLE_DICTIONARY, enc.pages[0]->data(), enc.pages[0]->size(), 50);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("column v: a dictionary-encoded page without a dictionary page before it"));
  }
  // A dictionary page shorter than its count.
  try {
    reader.set_dictionary(enc.dictionary.data(), enc.dictionary.size() - 8, enc.dictionary_entries);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("need more than the"));
  }
  // BOOLEAN has none.
  ValueReader booleans(Type::BOOLEAN, 0, "b");
  uint8_t byte = 0;
  EXPECT_THROW(booleans.set_dictionary(&byte, 1, 1), Error);
  // A FIXED_LEN_BYTE_ARRAY needs a width.
  EXPECT_THROW(ValueReader(Type::FIXED_LEN_BYTE_ARRAY, 0, "f"), Error);
}

// One dictionary serves the dictionary pages after it, under either name,
// and PLAIN pages between them (a fallback) leave it alone.
TEST(ValueReader, TheDictionaryOutlivesPagesOfOtherEncodings) {
  const Values v = make_values(Type::BYTE_ARRAY, 300, 9);
  const Encoded dict = encode(Type::BYTE_ARRAY, Encoding::RLE_DICTIONARY, v, {100, 100, 100});
  const Encoded plain = encode(Type::BYTE_ARRAY, Encoding::PLAIN, v, {100, 100, 100});
  const auto owned = reader_for(Type::BYTE_ARRAY, dict);
  ValueReader& reader = *owned;
  const Encoding order[] = {Encoding::RLE_DICTIONARY, Encoding::PLAIN, Encoding::PLAIN_DICTIONARY};
  LeafValues out;
  for (size_t i = 0; i < 3; ++i) {
    const Buffer& page = is_dictionary(order[i]) ? *dict.pages[i] : *plain.pages[i];
    reader.begin_page(order[i], page.data(), page.size(), 100);
    reader.skip(i);
    reader.read(100 - i, out);
  }
  ASSERT_EQ(out.count, 297);
  size_t k = 0;
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = i; j < 100; ++j) ASSERT_EQ(value_at(Type::BYTE_ARRAY, out, k++), v.each[i * 100 + j]);
}

}  // namespace
}  // namespace parq
