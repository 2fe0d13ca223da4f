// The value writers: one adapter per encoding family over the encoders of
// include/parq/encoding/, chosen once per column chunk for the pairs the
// encoding table (encoding_table.h) admits.
#include "value_writer.h"

#include <span>
#include <type_traits>

#include "encoding_table.h"
#include "parq/encoding/alp.h"
#include "parq/encoding/byte_stream_split.h"
#include "parq/encoding/delta_binary_packed.h"
#include "parq/encoding/delta_byte_array.h"
#include "parq/encoding/delta_length_byte_array.h"
#include "parq/encoding/plain.h"
#include "parq/encoding/rle_hybrid.h"
#include "parq/error.h"

namespace parq {
namespace {

using format::Encoding;
using format::Type;

template <class T>
const T* typed(const DenseValues& v, size_t begin) {
  return reinterpret_cast<const T*>(v.fixed) + begin;
}

// PLAIN, DELTA_BINARY_PACKED, ALP: encoders with put(const T*, n).
template <class T, class Encoder, Encoding kEncoding>
class TypedWriter final : public ValueWriter {
 public:
  Encoding encoding() const override { return kEncoding; }
  size_t put(const DenseValues& v, size_t begin, size_t n) override {
    encoder_.put(typed<T>(v, begin), n);
    return n;
  }
  size_t estimated_size() const override { return encoder_.estimated_size(); }
  void flush(Buffer& out) override { encoder_.flush(out); }

 private:
  Encoder encoder_;
};

class PlainBooleanWriter final : public ValueWriter {
 public:
  Encoding encoding() const override { return Encoding::PLAIN; }
  size_t put(const DenseValues& v, size_t begin, size_t n) override {
    encoder_.put(v.fixed + begin, n);
    return n;
  }
  size_t estimated_size() const override { return encoder_.estimated_size(); }
  void flush(Buffer& out) override { encoder_.flush(out); }

 private:
  encoding::PlainBooleanEncoder encoder_;
};

// RLE booleans carry the 4-byte length prefix (Encodings.md).
class RleBooleanWriter final : public ValueWriter {
 public:
  RleBooleanWriter() : encoder_(1) {}
  Encoding encoding() const override { return Encoding::RLE; }
  size_t put(const DenseValues& v, size_t begin, size_t n) override {
    encoder_.put(v.fixed + begin, n);
    return n;
  }
  size_t estimated_size() const override { return encoder_.max_encoded_size(); }
  void flush(Buffer& out) override { encoder_.flush_with_length_prefix(out); }

 private:
  encoding::RleBitPackedEncoder encoder_;
};

// Values of `width` bytes through one encoder (PLAIN of FLBA,
// BYTE_STREAM_SPLIT, DELTA_BYTE_ARRAY of FLBA).
template <class Encoder, Encoding kEncoding>
class FixedWidthWriter final : public ValueWriter {
 public:
  explicit FixedWidthWriter(size_t width) : width_(width), encoder_(make(width)) {}
  Encoding encoding() const override { return kEncoding; }
  size_t put(const DenseValues& v, size_t begin, size_t n) override {
    const uint8_t* p = v.fixed + begin * width_;
    if constexpr (kEncoding == Encoding::DELTA_BYTE_ARRAY) {
      encoder_.put(p, n, width_);
    } else {
      encoder_.put(p, n);
    }
    return n;
  }
  size_t estimated_size() const override { return encoder_.estimated_size(); }
  void flush(Buffer& out) override { encoder_.flush(out); }

 private:
  static Encoder make(size_t width) {
    if constexpr (std::is_constructible_v<Encoder, size_t>) {
      return Encoder(width);
    } else {
      return Encoder();
    }
  }

  size_t width_;
  Encoder encoder_;
};

using SplitWriter = FixedWidthWriter<encoding::ByteStreamSplitEncoder, Encoding::BYTE_STREAM_SPLIT>;

template <class Encoder, Encoding kEncoding>
class ByteArrayWriter final : public ValueWriter {
 public:
  Encoding encoding() const override { return kEncoding; }
  size_t put(const DenseValues& v, size_t begin, size_t n) override {
    if constexpr (kEncoding == Encoding::PLAIN) {
      encoder_.put(std::span<const int32_t>(v.offsets + begin, n + 1),
                   std::span<const uint8_t>(v.data, static_cast<size_t>(v.offsets[begin + n])));
    } else {
      encoder_.put(v.offsets + begin, v.data, n);
    }
    return n;
  }
  size_t estimated_size() const override { return encoder_.estimated_size(); }
  void flush(Buffer& out) override { encoder_.flush(out); }

 private:
  Encoder encoder_;
};

// Dictionary writers: the indices of a page, the entries for the chunk.
template <class Dictionary>
class DictionaryWriterBase : public ValueWriter {
 public:
  template <class... Args>
  explicit DictionaryWriterBase(Args&&... args) : dictionary_(std::forward<Args>(args)...) {}
  Encoding encoding() const override { return Encoding::RLE_DICTIONARY; }
  size_t estimated_size() const override {
    return 1 + dictionary_.num_buffered_indices() * static_cast<size_t>(dictionary_.index_bit_width()) / 8;
  }
  void flush(Buffer& out) override { dictionary_.write_indices(out); }
  bool is_dictionary() const override { return true; }
  void drop_last(size_t n) override { dictionary_.drop_last_indices(n); }
  size_t dictionary_entries() const override { return dictionary_.num_entries(); }
  size_t dictionary_bytes() const override { return dictionary_.dictionary_byte_size(); }
  std::span<const uint32_t> page_indices() const override { return dictionary_.buffered_indices(); }
  void write_dictionary(Buffer& out) const override { dictionary_.write_dictionary_page(out); }
  void reset() override { dictionary_.reset(); }

 protected:
  Dictionary dictionary_;
};

template <class T>
class NumericDictionaryWriter final : public DictionaryWriterBase<encoding::DictionaryEncoder<T>> {
 public:
  using DictionaryWriterBase<encoding::DictionaryEncoder<T>>::DictionaryWriterBase;
  size_t put(const DenseValues& v, size_t begin, size_t n) override {
    return this->dictionary_.put(typed<T>(v, begin), n);
  }
};

class ByteArrayDictionaryWriter final : public DictionaryWriterBase<encoding::ByteArrayDictionaryEncoder> {
 public:
  using DictionaryWriterBase::DictionaryWriterBase;
  size_t put(const DenseValues& v, size_t begin, size_t n) override {
    return dictionary_.put(v.offsets + begin, v.data, n);
  }
  std::string_view byte_array_entry(size_t i) const override { return dictionary_.entry(i); }
};

class FixedLenDictionaryWriter final : public DictionaryWriterBase<encoding::FixedLenByteArrayDictionaryEncoder> {
 public:
  using DictionaryWriterBase::DictionaryWriterBase;
  size_t put(const DenseValues& v, size_t begin, size_t n) override {
    return dictionary_.put(v.fixed + begin * static_cast<size_t>(dictionary_.width()), n);
  }
};

std::unique_ptr<ValueWriter> make_dictionary(const ColumnDescriptor& c, const encoding::DictionaryLimits& limits) {
  switch (c.type.physical) {
    case Type::INT32:
      return std::make_unique<NumericDictionaryWriter<int32_t>>(limits);
    case Type::INT64:
      return std::make_unique<NumericDictionaryWriter<int64_t>>(limits);
    case Type::INT96:
      return std::make_unique<NumericDictionaryWriter<encoding::Int96>>(limits);
    case Type::FLOAT:
      return std::make_unique<NumericDictionaryWriter<float>>(limits);
    case Type::DOUBLE:
      return std::make_unique<NumericDictionaryWriter<double>>(limits);
    case Type::BYTE_ARRAY:
      return std::make_unique<ByteArrayDictionaryWriter>(limits);
    case Type::FIXED_LEN_BYTE_ARRAY:
      return std::make_unique<FixedLenDictionaryWriter>(c.type.type_length, limits);
    case Type::BOOLEAN:
      break;
  }
  return nullptr;
}

// Bytes per value of the fixed-width types.
size_t value_width(const ColumnDescriptor& c) {
  switch (c.type.physical) {
    case Type::INT32:
    case Type::FLOAT:
      return 4;
    case Type::INT64:
    case Type::DOUBLE:
      return 8;
    case Type::INT96:
      return 12;
    case Type::FIXED_LEN_BYTE_ARRAY:
      return static_cast<size_t>(c.type.type_length);
    default:
      return 1;
  }
}

template <class T>
std::unique_ptr<ValueWriter> make_plain_number() {
  return std::make_unique<TypedWriter<T, encoding::PlainEncoder<T>, Encoding::PLAIN>>();
}

template <class T>
std::unique_ptr<ValueWriter> make_delta_number() {
  return std::make_unique<TypedWriter<T, encoding::DeltaBinaryPackedEncoder<T>, Encoding::DELTA_BINARY_PACKED>>();
}

// The writer of a pair that encoding_applies admits: which types an
// encoding takes is the table's to say, the type here only picks the
// encoder.
std::unique_ptr<ValueWriter> make_plain_family(const ColumnDescriptor& c, Encoding e) {
  const Type t = c.type.physical;
  switch (e) {
    case Encoding::PLAIN:
      switch (t) {
        case Type::BOOLEAN:
          return std::make_unique<PlainBooleanWriter>();
        case Type::INT32:
          return make_plain_number<int32_t>();
        case Type::INT64:
          return make_plain_number<int64_t>();
        case Type::INT96:
          return make_plain_number<encoding::Int96>();
        case Type::FLOAT:
          return make_plain_number<float>();
        case Type::DOUBLE:
          return make_plain_number<double>();
        case Type::BYTE_ARRAY:
          return std::make_unique<ByteArrayWriter<encoding::PlainByteArrayEncoder, Encoding::PLAIN>>();
        case Type::FIXED_LEN_BYTE_ARRAY:
          return std::make_unique<FixedWidthWriter<encoding::PlainFixedLenByteArrayEncoder, Encoding::PLAIN>>(
              value_width(c));
      }
      return nullptr;
    case Encoding::RLE:
      return std::make_unique<RleBooleanWriter>();
    case Encoding::DELTA_BINARY_PACKED:
      return t == Type::INT32 ? make_delta_number<int32_t>() : make_delta_number<int64_t>();
    case Encoding::DELTA_LENGTH_BYTE_ARRAY:
      return std::make_unique<
          ByteArrayWriter<encoding::DeltaLengthByteArrayEncoder, Encoding::DELTA_LENGTH_BYTE_ARRAY>>();
    case Encoding::DELTA_BYTE_ARRAY:
      if (t == Type::BYTE_ARRAY)
        return std::make_unique<ByteArrayWriter<encoding::DeltaByteArrayEncoder, Encoding::DELTA_BYTE_ARRAY>>();
      return std::make_unique<FixedWidthWriter<encoding::DeltaByteArrayEncoder, Encoding::DELTA_BYTE_ARRAY>>(
          value_width(c));
    case Encoding::BYTE_STREAM_SPLIT:
      return std::make_unique<SplitWriter>(value_width(c));
    case Encoding::ALP:
      if (t == Type::FLOAT) return std::make_unique<TypedWriter<float, encoding::AlpEncoder<float>, Encoding::ALP>>();
      return std::make_unique<TypedWriter<double, encoding::AlpEncoder<double>, Encoding::ALP>>();
    default:
      return nullptr;
  }
}

}  // namespace

std::unique_ptr<ValueWriter> ValueWriter::make(const ColumnDescriptor& column, Encoding encoding,
                                               const encoding::DictionaryLimits& limits) {
  if (!encoding_applies(column.type.physical, encoding))
    throw Error("column " + column.dotted_path() + ": encoding " + format::to_string(encoding) + " does not apply to " +
                    format::to_string(column.type.physical) + " values",
                ErrorKind::kInvalidArgument);
  std::unique_ptr<ValueWriter> writer = encoding == Encoding::RLE_DICTIONARY || encoding == Encoding::PLAIN_DICTIONARY
                                            ? make_dictionary(column, limits)
                                            : make_plain_family(column, encoding);
  if (!writer)
    throw Error("column " + column.dotted_path() + ": no writer for encoding " + format::to_string(encoding) + " of " +
                    format::to_string(column.type.physical) + " values",
                ErrorKind::kInvalidArgument);
  return writer;
}

Encoding default_fallback_encoding(Type physical, int page_version) {
  if (page_version < 2) return Encoding::PLAIN;
  switch (physical) {
    case Type::INT32:
    case Type::INT64:
      return Encoding::DELTA_BINARY_PACKED;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      return Encoding::DELTA_BYTE_ARRAY;
    case Type::BOOLEAN:
      return Encoding::RLE;
    default:
      return Encoding::PLAIN;
  }
}

bool dictionary_applies(Type physical) { return encoding_applies(physical, Encoding::RLE_DICTIONARY); }

}  // namespace parq
