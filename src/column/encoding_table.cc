// The encoding table (see encoding_table.h): a value decoder per (physical
// type, encoding) pair over the decoders of include/parq/encoding/, the
// dictionaries they gather from, and the table that pairs them.
#include "encoding_table.h"

#include <span>
#include <type_traits>
#include <vector>

#include "parq/encoding/byte_stream_split.h"
#include "parq/encoding/delta_binary_packed.h"
#include "parq/encoding/delta_byte_array.h"
#include "parq/encoding/delta_length_byte_array.h"
#include "parq/encoding/dictionary_decoder.h"
#include "parq/encoding/plain.h"
#include "parq/encoding/rle_hybrid.h"
#include "parq/encoding/types.h"
#include "parq/error.h"

namespace parq {
namespace {

using format::Encoding;
using format::Type;
using namespace parq::encoding;

// ---- dictionaries ----------------------------------------------------------

template <class T>
class NumberDictionary final : public ColumnDictionary {
 public:
  size_t load(const uint8_t* data, size_t size, size_t num_values) override {
    PlainDecoder<T> plain(data, size, num_values);
    entries.resize(num_values);
    return plain.decode(entries.data(), num_values);
  }
  std::vector<T> entries;
};

class ByteArrayDictionary final : public ColumnDictionary {
 public:
  size_t load(const uint8_t* data, size_t size, size_t num_values) override {
    PlainByteArrayDecoder plain(data, size, num_values);
    entries.clear();
    const size_t got = plain.decode(entries, num_values);
    longest = entries.longest();
    return got;
  }
  ByteArrayBatch entries;
  // Of the entries: the gather copies entries this short as whole vectors.
  size_t longest = 0;
};

class FixedLenDictionary final : public ColumnDictionary {
 public:
  explicit FixedLenDictionary(size_t width) : width(width) {}
  size_t load(const uint8_t* data, size_t size, size_t num_values) override {
    PlainFixedLenByteArrayDecoder plain(width);
    plain.reset(data, size, num_values);
    entries.resize(num_values * width);
    count = plain.decode(entries.data(), num_values);
    return count;
  }
  size_t width;
  std::vector<uint8_t> entries;
  size_t count = 0;
};

template <class D>
const D& dictionary_of(const DecoderContext& c) {
  return static_cast<const D&>(*c.dictionary);
}

// ---- fixed-width numbers ---------------------------------------------------

// INT32, INT64, INT96, FLOAT, DOUBLE.
template <class T>
class PlainNumbers final : public ValueDecoder {
 public:
  explicit PlainNumbers(const DecoderContext& c) : owner_(c.page_owner) {}
  void reset(const uint8_t* data, size_t size, size_t num_values) override { plain_.reset(data, size, num_values); }
  size_t read(size_t n, LeafValues& out) override {
    if (out.fixed.empty() && *owner_ && view(n, out)) return n;
    return plain_.decode(reinterpret_cast<T*>(out.fixed.extend(n * sizeof(T))), n);
  }
  size_t skip(size_t n) override { return plain_.skip(n); }

 private:
  // The values as they lie in the page, when they are aligned for T (the
  // page reader puts them on a 64-byte boundary when it predicts their
  // start right). A batch that goes on into the next page copies them then.
  bool view(size_t n, LeafValues& out) {
    const uint8_t* at = plain_.position();
    if (plain_.remaining() < n || reinterpret_cast<uintptr_t>(at) % alignof(T) != 0) return false;
    out.fixed = Buffer::view(*owner_, at, n * sizeof(T));
    plain_.skip(n);
    return true;
  }

  const std::shared_ptr<const void>* owner_;
  PlainDecoder<T> plain_;
};

template <class T>
class DictionaryNumbers final : public ValueDecoder {
 public:
  explicit DictionaryNumbers(const DecoderContext& c) : dictionary_(dictionary_of<NumberDictionary<T>>(c)) {}
  void reset(const uint8_t* data, size_t size, size_t) override { dict_.reset(data, size); }
  size_t read(size_t n, LeafValues& out) override {
    return dict_.decode(std::span<const T>(dictionary_.entries), reinterpret_cast<T*>(out.fixed.extend(n * sizeof(T))),
                        n);
  }
  size_t skip(size_t n) override { return dict_.skip(n); }

 private:
  const NumberDictionary<T>& dictionary_;
  DictionaryDecoder dict_;
};

// INT32, INT64.
template <class T>
class DeltaNumbers final : public ValueDecoder {
 public:
  explicit DeltaNumbers(const DecoderContext&) {}
  void reset(const uint8_t* data, size_t size, size_t) override { delta_.reset(data, size); }
  size_t read(size_t n, LeafValues& out) override {
    return delta_.decode(reinterpret_cast<T*>(out.fixed.extend(n * sizeof(T))), n);
  }
  size_t skip(size_t n) override { return delta_.skip(n); }

 private:
  DeltaBinaryPackedDecoder<T> delta_;
};

// BYTE_STREAM_SPLIT of values of `Width` bytes (0: the column's
// FIXED_LEN_BYTE_ARRAY width).
template <size_t Width>
class SplitValues final : public ValueDecoder {
 public:
  explicit SplitValues(const DecoderContext& c) : width_(Width != 0 ? Width : c.type_length), split_(width_) {}
  void reset(const uint8_t* data, size_t size, size_t num_values) override { split_.reset(data, size, num_values); }
  size_t read(size_t n, LeafValues& out) override { return split_.decode(out.fixed.extend(n * width_), n); }
  size_t skip(size_t n) override { return split_.skip(n); }

 private:
  size_t width_;
  ByteStreamSplitDecoder split_;
};

// ---- booleans --------------------------------------------------------------

class PlainBooleans final : public ValueDecoder {
 public:
  explicit PlainBooleans(const DecoderContext&) {}
  void reset(const uint8_t* data, size_t size, size_t num_values) override { plain_.reset(data, size, num_values); }
  size_t read(size_t n, LeafValues& out) override { return plain_.decode(out.fixed.extend(n), n); }
  size_t skip(size_t n) override { return plain_.skip(n); }

 private:
  PlainBooleanDecoder plain_;
};

// RLE booleans carry the 4-byte length prefix (Encodings.md).
class RleBooleans final : public ValueDecoder {
 public:
  explicit RleBooleans(const DecoderContext&) {}
  void reset(const uint8_t* data, size_t size, size_t) override {
    auto runs = read_length_prefix({data, size});
    rle_.reset(runs.data(), runs.size(), 1);
  }
  size_t read(size_t n, LeafValues& out) override { return rle_.decode(out.fixed.extend(n), n); }
  size_t skip(size_t n) override { return rle_.skip(n); }

 private:
  RleBitPackedDecoder rle_;
};

// ---- byte arrays -----------------------------------------------------------

// PLAIN, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY of BYTE_ARRAY: their
// decoders share decode(ByteArrayBatch&, n) and skip(n).
template <class Decoder>
class ByteArrays final : public ValueDecoder {
 public:
  explicit ByteArrays(const DecoderContext&) {}
  void reset(const uint8_t* data, size_t size, size_t num_values) override {
    if constexpr (std::is_same_v<Decoder, PlainByteArrayDecoder>) {
      decoder_.reset(data, size, num_values);
    } else {
      decoder_.reset(data, size);
    }
  }
  size_t read(size_t n, LeafValues& out) override { return decoder_.decode(out.bytes, n); }
  size_t skip(size_t n) override { return decoder_.skip(n); }

 private:
  Decoder decoder_;
};

class DictionaryByteArrays final : public ValueDecoder {
 public:
  explicit DictionaryByteArrays(const DecoderContext& c) : dictionary_(dictionary_of<ByteArrayDictionary>(c)) {}
  void reset(const uint8_t* data, size_t size, size_t) override { dict_.reset(data, size); }
  size_t read(size_t n, LeafValues& out) override {
    return dict_.decode(dictionary_.entries, dictionary_.longest, out.bytes, n);
  }
  size_t skip(size_t n) override { return dict_.skip(n); }

 private:
  const ByteArrayDictionary& dictionary_;
  DictionaryDecoder dict_;
};

// ---- fixed-length byte arrays ----------------------------------------------

class PlainFixedLen final : public ValueDecoder {
 public:
  explicit PlainFixedLen(const DecoderContext& c) : plain_(c.type_length) {}
  void reset(const uint8_t* data, size_t size, size_t num_values) override { plain_.reset(data, size, num_values); }
  size_t read(size_t n, LeafValues& out) override { return plain_.decode(out.fixed.extend(n * plain_.width()), n); }
  size_t skip(size_t n) override { return plain_.skip(n); }

 private:
  PlainFixedLenByteArrayDecoder plain_;
};

class DictionaryFixedLen final : public ValueDecoder {
 public:
  explicit DictionaryFixedLen(const DecoderContext& c) : dictionary_(dictionary_of<FixedLenDictionary>(c)) {}
  void reset(const uint8_t* data, size_t size, size_t) override { dict_.reset(data, size); }
  size_t read(size_t n, LeafValues& out) override {
    const size_t width = dictionary_.width;
    return dict_.decode(dictionary_.entries.data(), dictionary_.count, width, out.fixed.extend(n * width), n);
  }
  size_t skip(size_t n) override { return dict_.skip(n); }

 private:
  const FixedLenDictionary& dictionary_;
  DictionaryDecoder dict_;
};

class DeltaFixedLen final : public ValueDecoder {
 public:
  explicit DeltaFixedLen(const DecoderContext& c) : width_(c.type_length) {}
  void reset(const uint8_t* data, size_t size, size_t) override { delta_.reset(data, size); }
  size_t read(size_t n, LeafValues& out) override { return delta_.decode(out.fixed.extend(n * width_), n, width_); }
  size_t skip(size_t n) override { return delta_.skip(n); }

 private:
  size_t width_;
  DeltaByteArrayDecoder delta_;
};

// ---- the table -------------------------------------------------------------

using DecoderFactory = std::unique_ptr<ValueDecoder> (*)(const DecoderContext&);

template <class D>
std::unique_ptr<ValueDecoder> make(const DecoderContext& c) {
  return std::make_unique<D>(c);
}

struct Entry {
  Type physical;
  Encoding encoding;
  DecoderFactory make_decoder;
};

// Every pair parq reads and writes (Encodings.md): PLAIN for every type,
// the dictionary encodings for every type but BOOLEAN, RLE values for
// BOOLEAN only, DELTA_BINARY_PACKED for INT32 and INT64,
// DELTA_LENGTH_BYTE_ARRAY for BYTE_ARRAY, DELTA_BYTE_ARRAY for both byte
// array types, and BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32, INT64 and
// FIXED_LEN_BYTE_ARRAY.
constexpr Entry kTable[] = {
    {Type::BOOLEAN, Encoding::PLAIN, make<PlainBooleans>},
    {Type::BOOLEAN, Encoding::RLE, make<RleBooleans>},

    {Type::INT32, Encoding::PLAIN, make<PlainNumbers<int32_t>>},
    {Type::INT32, Encoding::PLAIN_DICTIONARY, make<DictionaryNumbers<int32_t>>},
    {Type::INT32, Encoding::RLE_DICTIONARY, make<DictionaryNumbers<int32_t>>},
    {Type::INT32, Encoding::DELTA_BINARY_PACKED, make<DeltaNumbers<int32_t>>},
    {Type::INT32, Encoding::BYTE_STREAM_SPLIT, make<SplitValues<4>>},

    {Type::INT64, Encoding::PLAIN, make<PlainNumbers<int64_t>>},
    {Type::INT64, Encoding::PLAIN_DICTIONARY, make<DictionaryNumbers<int64_t>>},
    {Type::INT64, Encoding::RLE_DICTIONARY, make<DictionaryNumbers<int64_t>>},
    {Type::INT64, Encoding::DELTA_BINARY_PACKED, make<DeltaNumbers<int64_t>>},
    {Type::INT64, Encoding::BYTE_STREAM_SPLIT, make<SplitValues<8>>},

    {Type::INT96, Encoding::PLAIN, make<PlainNumbers<Int96>>},
    {Type::INT96, Encoding::PLAIN_DICTIONARY, make<DictionaryNumbers<Int96>>},
    {Type::INT96, Encoding::RLE_DICTIONARY, make<DictionaryNumbers<Int96>>},

    {Type::FLOAT, Encoding::PLAIN, make<PlainNumbers<float>>},
    {Type::FLOAT, Encoding::PLAIN_DICTIONARY, make<DictionaryNumbers<float>>},
    {Type::FLOAT, Encoding::RLE_DICTIONARY, make<DictionaryNumbers<float>>},
    {Type::FLOAT, Encoding::BYTE_STREAM_SPLIT, make<SplitValues<4>>},

    {Type::DOUBLE, Encoding::PLAIN, make<PlainNumbers<double>>},
    {Type::DOUBLE, Encoding::PLAIN_DICTIONARY, make<DictionaryNumbers<double>>},
    {Type::DOUBLE, Encoding::RLE_DICTIONARY, make<DictionaryNumbers<double>>},
    {Type::DOUBLE, Encoding::BYTE_STREAM_SPLIT, make<SplitValues<8>>},

    {Type::BYTE_ARRAY, Encoding::PLAIN, make<ByteArrays<PlainByteArrayDecoder>>},
    {Type::BYTE_ARRAY, Encoding::PLAIN_DICTIONARY, make<DictionaryByteArrays>},
    {Type::BYTE_ARRAY, Encoding::RLE_DICTIONARY, make<DictionaryByteArrays>},
    {Type::BYTE_ARRAY, Encoding::DELTA_LENGTH_BYTE_ARRAY, make<ByteArrays<DeltaLengthByteArrayDecoder>>},
    {Type::BYTE_ARRAY, Encoding::DELTA_BYTE_ARRAY, make<ByteArrays<DeltaByteArrayDecoder>>},

    {Type::FIXED_LEN_BYTE_ARRAY, Encoding::PLAIN, make<PlainFixedLen>},
    {Type::FIXED_LEN_BYTE_ARRAY, Encoding::PLAIN_DICTIONARY, make<DictionaryFixedLen>},
    {Type::FIXED_LEN_BYTE_ARRAY, Encoding::RLE_DICTIONARY, make<DictionaryFixedLen>},
    {Type::FIXED_LEN_BYTE_ARRAY, Encoding::DELTA_BYTE_ARRAY, make<DeltaFixedLen>},
    {Type::FIXED_LEN_BYTE_ARRAY, Encoding::BYTE_STREAM_SPLIT, make<SplitValues<0>>},
};

const Entry* find(Type physical, Encoding encoding) {
  for (const Entry& e : kTable)
    if (e.physical == physical && e.encoding == encoding) return &e;
  return nullptr;
}

}  // namespace

bool encoding_applies(Type physical, Encoding encoding) { return find(physical, encoding) != nullptr; }

std::unique_ptr<ValueDecoder> make_value_decoder(Type physical, Encoding encoding, const DecoderContext& context) {
  const Entry* e = find(physical, encoding);
  return e != nullptr ? e->make_decoder(context) : nullptr;
}

std::unique_ptr<ColumnDictionary> make_column_dictionary(Type physical, size_t type_length) {
  switch (physical) {
    case Type::BOOLEAN:
      return nullptr;
    case Type::INT32:
      return std::make_unique<NumberDictionary<int32_t>>();
    case Type::INT64:
      return std::make_unique<NumberDictionary<int64_t>>();
    case Type::INT96:
      return std::make_unique<NumberDictionary<Int96>>();
    case Type::FLOAT:
      return std::make_unique<NumberDictionary<float>>();
    case Type::DOUBLE:
      return std::make_unique<NumberDictionary<double>>();
    case Type::BYTE_ARRAY:
      return std::make_unique<ByteArrayDictionary>();
    case Type::FIXED_LEN_BYTE_ARRAY:
      return std::make_unique<FixedLenDictionary>(type_length);
  }
  return nullptr;
}

}  // namespace parq
