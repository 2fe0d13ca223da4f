// ValueReader implementations: one template for the fixed-width types, one
// for booleans, one for byte arrays, one for fixed-length byte arrays. Each
// holds the decoders its type can meet and picks one per page.
#include "value_reader.h"

#include <string>
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
using namespace parq::encoding;

bool is_dictionary(Encoding e) { return e == Encoding::PLAIN_DICTIONARY || e == Encoding::RLE_DICTIONARY; }

class ValueReaderBase : public ValueReader {
 public:
  explicit ValueReaderBase(std::string column) : column_(std::move(column)) {}

 protected:
  [[noreturn]] void unsupported(Encoding e) const {
    throw Error("column " + column_ + ": encoding " + format::to_string(e) + " is not valid for this column's type");
  }
  [[noreturn]] void short_page(size_t wanted, size_t got) const {
    throw Error("column " + column_ + ": the page holds " + std::to_string(got) + " values where its levels need " +
                std::to_string(wanted));
  }
  void check(size_t wanted, size_t got) const {
    if (got != wanted) short_page(wanted, got);
  }
  void require_dictionary() const {
    if (!has_dictionary_)
      throw Error("column " + column_ + ": a dictionary-encoded page without a dictionary page before it");
  }

  std::string column_;
  Encoding encoding_ = Encoding::PLAIN;
  bool has_dictionary_ = false;
};

// INT32, INT64, INT96, FLOAT, DOUBLE.
template <class T>
class FixedValueReader final : public ValueReaderBase {
 public:
  using ValueReaderBase::ValueReaderBase;

  void set_dictionary(const uint8_t* data, size_t size, size_t num_values) override {
    PlainDecoder<T> plain(data, size, num_values);
    dictionary_.resize(num_values);
    check(num_values, plain.decode(dictionary_.data(), num_values));
    has_dictionary_ = true;
  }

  void begin_page(Encoding encoding, const uint8_t* data, size_t size, size_t num_values) override {
    encoding_ = encoding;
    if (encoding == Encoding::PLAIN) {
      plain_.reset(data, size, num_values);
    } else if (is_dictionary(encoding)) {
      require_dictionary();
      dict_.reset(data, size);
    } else if (encoding == Encoding::DELTA_BINARY_PACKED && delta_allowed()) {
      delta_.reset(data, size);
    } else if (encoding == Encoding::BYTE_STREAM_SPLIT && !std::is_same_v<T, Int96>) {
      split_.reset(data, size, num_values);
    } else {
      unsupported(encoding);
    }
  }

  void read(size_t n, LeafValues& out) override {
    if (encoding_ == Encoding::PLAIN && out.fixed.empty() && page_owner_ && view_plain(n, out)) return;
    T* dst = reinterpret_cast<T*>(out.fixed.extend(n * sizeof(T)));
    size_t got = 0;
    switch (encoding_) {
      case Encoding::PLAIN:
        got = plain_.decode(dst, n);
        break;
      case Encoding::PLAIN_DICTIONARY:
      case Encoding::RLE_DICTIONARY:
        got = dict_.decode(std::span<const T>(dictionary_), dst, n);
        break;
      case Encoding::DELTA_BINARY_PACKED:
        got = decode_delta(dst, n);
        break;
      case Encoding::BYTE_STREAM_SPLIT:
        got = decode_split(dst, n);
        break;
      default:
        break;
    }
    check(n, got);
    out.count += static_cast<int64_t>(n);
  }

 private:
  static constexpr bool delta_allowed() { return std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>; }
  size_t decode_delta(T* dst, size_t n) {
    if constexpr (delta_allowed()) return delta_.decode(dst, n);
    return 0;
  }
  size_t decode_split(T* dst, size_t n) {
    if constexpr (std::is_same_v<T, Int96>) {
      return 0;
    } else {
      return split_.decode(dst, n);
    }
  }

  // The values as they lie in the page, when they are aligned for T (the
  // page reader puts them on a 64-byte boundary when it predicts their
  // start right). A batch that goes on into the next page copies them then.
  bool view_plain(size_t n, LeafValues& out) {
    const uint8_t* at = plain_.position();
    if (plain_.remaining() < n || reinterpret_cast<uintptr_t>(at) % alignof(T) != 0) return false;
    out.fixed = Buffer::view(page_owner_, at, n * sizeof(T));
    plain_.skip(n);
    out.count += static_cast<int64_t>(n);
    return true;
  }

  // Only INT32 and INT64 have a delta decoder; the member exists for all.
  using DeltaValue = std::conditional_t<delta_allowed(), T, int32_t>;
  PlainDecoder<T> plain_;
  DictionaryDecoder dict_;
  DeltaBinaryPackedDecoder<DeltaValue> delta_;
  ByteStreamSplitDecoder split_{sizeof(T)};
  std::vector<T> dictionary_;
};

class BooleanValueReader final : public ValueReaderBase {
 public:
  using ValueReaderBase::ValueReaderBase;

  void set_dictionary(const uint8_t*, size_t, size_t) override {
    throw Error("column " + column_ + ": BOOLEAN columns cannot have a dictionary");
  }

  void begin_page(Encoding encoding, const uint8_t* data, size_t size, size_t num_values) override {
    encoding_ = encoding;
    if (encoding == Encoding::PLAIN) {
      plain_.reset(data, size, num_values);
    } else if (encoding == Encoding::RLE) {
      // RLE booleans carry the 4-byte length prefix (Encodings.md).
      auto runs = read_length_prefix({data, size});
      rle_.reset(runs.data(), runs.size(), 1);
    } else {
      unsupported(encoding);
    }
  }

  void read(size_t n, LeafValues& out) override {
    uint8_t* dst = out.fixed.extend(n);
    size_t got = encoding_ == Encoding::PLAIN ? plain_.decode(dst, n) : rle_.decode(dst, n);
    check(n, got);
    out.count += static_cast<int64_t>(n);
  }

 private:
  PlainBooleanDecoder plain_;
  RleBitPackedDecoder rle_;
};

class ByteArrayValueReader final : public ValueReaderBase {
 public:
  using ValueReaderBase::ValueReaderBase;

  void set_dictionary(const uint8_t* data, size_t size, size_t num_values) override {
    PlainByteArrayDecoder plain(data, size, num_values);
    dictionary_.clear();
    check(num_values, plain.decode(dictionary_, num_values));
    longest_ = dictionary_.longest();
    has_dictionary_ = true;
  }

  void begin_page(Encoding encoding, const uint8_t* data, size_t size, size_t num_values) override {
    encoding_ = encoding;
    if (encoding == Encoding::PLAIN) {
      plain_.reset(data, size, num_values);
    } else if (is_dictionary(encoding)) {
      require_dictionary();
      dict_.reset(data, size);
    } else if (encoding == Encoding::DELTA_LENGTH_BYTE_ARRAY) {
      delta_length_.reset(data, size);
    } else if (encoding == Encoding::DELTA_BYTE_ARRAY) {
      delta_.reset(data, size);
    } else {
      unsupported(encoding);
    }
  }

  void read(size_t n, LeafValues& out) override {
    size_t got = 0;
    switch (encoding_) {
      case Encoding::PLAIN:
        got = plain_.decode(out.bytes, n);
        break;
      case Encoding::PLAIN_DICTIONARY:
      case Encoding::RLE_DICTIONARY:
        got = dict_.decode(dictionary_, longest_, out.bytes, n);
        break;
      case Encoding::DELTA_LENGTH_BYTE_ARRAY:
        got = delta_length_.decode(out.bytes, n);
        break;
      case Encoding::DELTA_BYTE_ARRAY:
        got = delta_.decode(out.bytes, n);
        break;
      default:
        break;
    }
    if (got != n && !out.bytes.fits(1))
      throw Error("column " + column_ + ": more than 2 GiB of byte-array data in one batch; read smaller batches");
    check(n, got);
    out.count += static_cast<int64_t>(n);
  }

 private:
  PlainByteArrayDecoder plain_;
  DictionaryDecoder dict_;
  DeltaLengthByteArrayDecoder delta_length_;
  DeltaByteArrayDecoder delta_;
  ByteArrayBatch dictionary_;
  size_t longest_ = 0;  // of the dictionary's entries
};

class FixedLenValueReader final : public ValueReaderBase {
 public:
  FixedLenValueReader(std::string column, int32_t width)
      : ValueReaderBase(std::move(column)), width_(static_cast<size_t>(width)), plain_(width_), split_(width_) {}

  void set_dictionary(const uint8_t* data, size_t size, size_t num_values) override {
    PlainFixedLenByteArrayDecoder plain(width_);
    plain.reset(data, size, num_values);
    dictionary_.resize(num_values * width_);
    check(num_values, plain.decode(dictionary_.data(), num_values));
    dictionary_size_ = num_values;
    has_dictionary_ = true;
  }

  void begin_page(Encoding encoding, const uint8_t* data, size_t size, size_t num_values) override {
    encoding_ = encoding;
    if (encoding == Encoding::PLAIN) {
      plain_.reset(data, size, num_values);
    } else if (is_dictionary(encoding)) {
      require_dictionary();
      dict_.reset(data, size);
    } else if (encoding == Encoding::DELTA_BYTE_ARRAY) {
      delta_.reset(data, size);
    } else if (encoding == Encoding::BYTE_STREAM_SPLIT) {
      split_.reset(data, size, num_values);
    } else {
      unsupported(encoding);
    }
  }

  void read(size_t n, LeafValues& out) override {
    uint8_t* dst = out.fixed.extend(n * width_);
    size_t got = 0;
    switch (encoding_) {
      case Encoding::PLAIN:
        got = plain_.decode(dst, n);
        break;
      case Encoding::PLAIN_DICTIONARY:
      case Encoding::RLE_DICTIONARY:
        got = dict_.decode(dictionary_.data(), dictionary_size_, width_, dst, n);
        break;
      case Encoding::DELTA_BYTE_ARRAY:
        got = delta_.decode(dst, n, width_);
        break;
      case Encoding::BYTE_STREAM_SPLIT:
        got = split_.decode(dst, n);
        break;
      default:
        break;
    }
    check(n, got);
    out.count += static_cast<int64_t>(n);
  }

 private:
  size_t width_;
  PlainFixedLenByteArrayDecoder plain_;
  DictionaryDecoder dict_;
  DeltaByteArrayDecoder delta_;
  ByteStreamSplitDecoder split_;
  std::vector<uint8_t> dictionary_;
  size_t dictionary_size_ = 0;
};

}  // namespace

std::unique_ptr<ValueReader> make_value_reader(format::Type physical, int32_t type_length, const std::string& column) {
  switch (physical) {
    case format::Type::BOOLEAN:
      return std::make_unique<BooleanValueReader>(column);
    case format::Type::INT32:
      return std::make_unique<FixedValueReader<int32_t>>(column);
    case format::Type::INT64:
      return std::make_unique<FixedValueReader<int64_t>>(column);
    case format::Type::INT96:
      return std::make_unique<FixedValueReader<Int96>>(column);
    case format::Type::FLOAT:
      return std::make_unique<FixedValueReader<float>>(column);
    case format::Type::DOUBLE:
      return std::make_unique<FixedValueReader<double>>(column);
    case format::Type::BYTE_ARRAY:
      return std::make_unique<ByteArrayValueReader>(column);
    case format::Type::FIXED_LEN_BYTE_ARRAY:
      return std::make_unique<FixedLenValueReader>(column, type_length);
  }
  throw Error("column " + column + ": unknown physical type");
}

}  // namespace parq
