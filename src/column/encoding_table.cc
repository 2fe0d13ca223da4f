// The encoding table (see encoding_table.h): a value decoder per (physical
// type, encoding) pair over the decoders of include/parq/encoding/, the
// dictionaries they gather from, and the table that pairs them.
//
// Selective reads (read_selected) take one of four ways, by encoding:
// PLAIN fixed-width values are compacted straight out of the page;
// dictionary pages decode their indices, compact those of kept values and
// gather only them; PLAIN byte arrays walk every length and copy the kept
// values; the other encodings decode into scratch a span at a time and
// compact. Spans of 64 values that keep none are skipped, and those that
// keep all are read as a whole read reads them.
#include "encoding_table.h"

#include <array>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "encoding/compact_kernels.h"
#include "encoding/dictionary_gather.h"
#include "encoding/plain_byte_array_select.h"
#include "parq/encoding/alp.h"
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
    ByteArrayBatch entries;
    const size_t got = plain.decode(entries, num_values);
    table = ByteArrayDictionaryTable(std::move(entries));
    return got;
  }
  ByteArrayDictionaryTable table;
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

// ---- selective reads -------------------------------------------------------

// The most values a span decoded into scratch holds: scratch stays small
// (and in cache) whatever the page holds.
constexpr size_t kSpanValues = 1024;

// A dictionary size that makes decode_indices check nothing: the reads
// below check only the indices of the values they keep.
constexpr size_t kUnchecked = SIZE_MAX;

[[noreturn]] void batch_full() {
  throw encoding::ByteArrayBatchFull("more byte-array data than one batch may hold; read smaller batches");
}

// Appends the values of `from` whose keep[i] is non-zero (i < n) to `out`.
void append_kept(const ByteArrayBatch& from, const uint8_t* keep, size_t n, size_t kept, ByteArrayBatch& out) {
  const int32_t* off = from.offsets();
  size_t total = 0;
  for (size_t i = 0; i < n; ++i) total += static_cast<size_t>(off[i + 1] - off[i]) & (0 - size_t{keep[i] != 0});
  if (!out.fits(total)) batch_full();
  auto end = static_cast<int32_t>(out.data_size());
  uint8_t* dst = out.data_buffer().extend(total);
  auto* out_off = reinterpret_cast<int32_t*>(out.offsets_buffer().extend(kept * sizeof(int32_t)));
  const uint8_t* data = from.data();
  size_t w = 0;
  for (size_t i = 0; i < n; ++i) {
    if (keep[i] == 0) continue;
    const int32_t len = off[i + 1] - off[i];
    if (len != 0) std::memcpy(dst, data + off[i], static_cast<size_t>(len));
    dst += len;
    end += len;
    out_off[w++] = end;
  }
}

// A selective read for decoders without a way of their own: spans that keep
// some values are decoded into `scratch` and the kept ones compacted into
// `out`. `width`: bytes per fixed-width value, 0 for byte arrays.
template <class D>
size_t select_through_scratch(D& decoder, size_t width, size_t n, const uint8_t* keep, LeafValues& out,
                              LeafValues& scratch) {
  size_t done = 0;
  bool ended = false;
  for_each_keep_span(keep, n, kSpanValues, [&](KeepSpan kind, size_t first, size_t count, size_t kept) {
    if (ended) return;
    size_t got = 0;
    if (kind == KeepSpan::kNone) {
      got = decoder.skip(count);
    } else if (kind == KeepSpan::kAll) {
      got = decoder.read(count, out);
      if (width == 0 && got < count && (scratch.bytes.refused() || !out.bytes.fits(1))) batch_full();
    } else if (width != 0) {
      scratch.fixed.clear();
      got = decoder.read(count, scratch);
      if (got == count) compact_width(scratch.fixed.data(), width, keep + first, count, out.fixed.extend(kept * width));
    } else {
      scratch.bytes.clear();
      got = decoder.read(count, scratch);
      if (got == count) append_kept(scratch.bytes, keep + first, count, kept, out.bytes);
    }
    done += got;
    ended = got < count;
  });
  return done;
}

// ---- fixed-width numbers ---------------------------------------------------

// A dictionary decoder's selective read: spans that keep nothing are
// skipped, those that keep everything decoded by all(count) (returning how
// many it decoded), the others' indices decoded, those of kept values
// compacted and checked against the dictionary's size, and handed to
// some(indices, kept).
template <class All, class Some>
size_t select_dictionary(DictionaryDecoder& dict, uint32_t* indices, size_t entries, const uint8_t* keep, size_t n,
                         All all, Some some) {
  size_t done = 0;
  bool ended = false;
  for_each_keep_span(keep, n, kSpanValues, [&](KeepSpan kind, size_t first, size_t count, size_t) {
    if (ended) return;
    size_t got = 0;
    if (kind == KeepSpan::kNone) {
      got = dict.skip(count);
    } else if (kind == KeepSpan::kAll) {
      got = all(count);
    } else {
      got = dict.decode_indices(indices, count, kUnchecked);
      if (got == count) {
        const size_t k = compact4(indices, keep + first, count, indices);
        detail::check_dictionary_indices(indices, k, entries);
        some(indices, k);
      }
    }
    done += got;
    ended = got < count;
  });
  return done;
}

// INT32, INT64, INT96, FLOAT, DOUBLE.
template <class T>
class PlainNumbers final : public ValueDecoder {
 public:
  explicit PlainNumbers(const DecoderContext& c) : owner_(c.page_owner) {}
  void reset(const uint8_t* data, size_t size, size_t num_values) override { plain_.reset(data, size, num_values); }
  size_t read(size_t n, LeafValues& out) override {
    if (*owner_ && plain_.remaining() >= n) {
      if (out.fixed.empty() && !out.spans_pages && view(n, out)) return n;
      // A batch going on from a page before, which the page reader put
      // right behind it.
      if (out.fixed.extend_view(*owner_, plain_.position(), n * sizeof(T))) return plain_.skip(n);
    }
    return plain_.decode(reinterpret_cast<T*>(out.fixed.extend(n * sizeof(T))), n);
  }
  size_t skip(size_t n) override { return plain_.skip(n); }
  size_t read_selected(size_t n, const uint8_t* keep, size_t kept, LeafValues& out) override {
    n = std::min(n, plain_.remaining());
    compact_width(plain_.position(), sizeof(T), keep, n, out.fixed.extend(kept * sizeof(T)));
    return plain_.skip(n);
  }

 private:
  // The values as they lie in the page, when they are aligned for T (the
  // page reader puts them on a 64-byte boundary when it predicts their
  // start right). A batch that goes on into a next page the page reader
  // could not put behind this one copies them then.
  bool view(size_t n, LeafValues& out) {
    const uint8_t* at = plain_.position();
    if (reinterpret_cast<uintptr_t>(at) % alignof(T) != 0) return false;
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
  size_t read_selected(size_t n, const uint8_t* keep, size_t kept, LeafValues& out) override {
    T* dst = reinterpret_cast<T*>(out.fixed.extend(kept * sizeof(T)));
    const std::span<const T> entries(dictionary_.entries);
    return select_dictionary(
        dict_, indices_.data(), entries.size(), keep, n,
        [&](size_t count) {
          const size_t got = dict_.decode(entries, dst, count);
          dst += got;
          return got;
        },
        [&](const uint32_t* indices, size_t k) {
          detail::gather_typed(entries.data(), entries.size(), indices, k, dst);
          dst += k;
        });
  }

 private:
  const NumberDictionary<T>& dictionary_;
  DictionaryDecoder dict_;
  std::array<uint32_t, kSpanValues> indices_;
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
  size_t read_selected(size_t n, const uint8_t* keep, size_t, LeafValues& out) override {
    return select_through_scratch(*this, sizeof(T), n, keep, out, scratch_);
  }

 private:
  DeltaBinaryPackedDecoder<T> delta_;
  LeafValues scratch_;
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
  size_t read_selected(size_t n, const uint8_t* keep, size_t, LeafValues& out) override {
    return select_through_scratch(*this, width_, n, keep, out, scratch_);
  }

 private:
  size_t width_;
  ByteStreamSplitDecoder split_;
  LeafValues scratch_;
};

// ALP of FLOAT or DOUBLE.
template <class T>
class AlpValues final : public ValueDecoder {
 public:
  explicit AlpValues(const DecoderContext&) {}
  void reset(const uint8_t* data, size_t size, size_t num_values) override { alp_.reset(data, size, num_values); }
  size_t read(size_t n, LeafValues& out) override {
    return alp_.decode(reinterpret_cast<T*>(out.fixed.extend(n * sizeof(T))), n);
  }
  size_t skip(size_t n) override { return alp_.skip(n); }
  size_t read_selected(size_t n, const uint8_t* keep, size_t, LeafValues& out) override {
    return select_through_scratch(*this, sizeof(T), n, keep, out, scratch_);
  }

 private:
  AlpDecoder<T> alp_;
  LeafValues scratch_;
};

// ---- booleans --------------------------------------------------------------

class PlainBooleans final : public ValueDecoder {
 public:
  explicit PlainBooleans(const DecoderContext&) {}
  void reset(const uint8_t* data, size_t size, size_t num_values) override { plain_.reset(data, size, num_values); }
  size_t read(size_t n, LeafValues& out) override { return plain_.decode(out.fixed.extend(n), n); }
  size_t skip(size_t n) override { return plain_.skip(n); }
  size_t read_selected(size_t n, const uint8_t* keep, size_t, LeafValues& out) override {
    return select_through_scratch(*this, 1, n, keep, out, scratch_);
  }

 private:
  PlainBooleanDecoder plain_;
  LeafValues scratch_;
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
  size_t read_selected(size_t n, const uint8_t* keep, size_t, LeafValues& out) override {
    return select_through_scratch(*this, 1, n, keep, out, scratch_);
  }

 private:
  RleBitPackedDecoder rle_;
  LeafValues scratch_;
};

// ---- byte arrays -----------------------------------------------------------

// PLAIN keeps the page cursor itself, beside the decoder's: a selective read
// walks the lengths with its own loop (plain_byte_array_select.h) and then
// restarts the decoder where it stopped.
class PlainByteArrays final : public ValueDecoder {
 public:
  explicit PlainByteArrays(const DecoderContext&) {}
  void reset(const uint8_t* data, size_t size, size_t num_values) override {
    decoder_.reset(data, size, num_values);
    begin_ = pos_ = data;
    end_ = data + size;
    left_ = num_values;
  }
  size_t read(size_t n, LeafValues& out) override {
    const size_t before = out.bytes.data_size();
    const size_t got = decoder_.decode(out.bytes, n);
    // Each value took its 4-byte length and its bytes.
    pos_ += 4 * got + (out.bytes.data_size() - before);
    left_ -= got;
    return got;
  }
  size_t skip(size_t n) override {
    n = std::min(n, left_);
    pos_ = detail::plain_byte_arrays_walk(begin_, pos_, end_, n);
    return moved(n);
  }
  size_t read_selected(size_t n, const uint8_t* keep, size_t kept, LeafValues& out) override {
    n = std::min(n, left_);
    pos_ = detail::plain_byte_arrays_selected(begin_, pos_, end_, n, keep, kept, out.bytes);
    return moved(n);
  }

 private:
  size_t moved(size_t n) {
    left_ -= n;
    decoder_.reset(pos_, static_cast<size_t>(end_ - pos_), left_);
    return n;
  }

  PlainByteArrayDecoder decoder_;
  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  size_t left_ = 0;
};

// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY of BYTE_ARRAY: their decoders
// share decode(ByteArrayBatch&, n) and skip(n).
template <class Decoder>
class ByteArrays final : public ValueDecoder {
 public:
  explicit ByteArrays(const DecoderContext&) {}
  void reset(const uint8_t* data, size_t size, size_t) override { decoder_.reset(data, size); }
  size_t read(size_t n, LeafValues& out) override { return decoder_.decode(out.bytes, n); }
  size_t skip(size_t n) override { return decoder_.skip(n); }
  size_t read_selected(size_t n, const uint8_t* keep, size_t, LeafValues& out) override {
    return select_through_scratch(*this, 0, n, keep, out, scratch_);
  }

 private:
  Decoder decoder_;
  LeafValues scratch_;
};

class DictionaryByteArrays final : public ValueDecoder {
 public:
  explicit DictionaryByteArrays(const DecoderContext& c) : dictionary_(dictionary_of<ByteArrayDictionary>(c)) {}
  void reset(const uint8_t* data, size_t size, size_t) override { dict_.reset(data, size); }
  size_t read(size_t n, LeafValues& out) override { return dict_.decode(dictionary_.table, out.bytes, n); }
  size_t skip(size_t n) override { return dict_.skip(n); }
  size_t read_selected(size_t n, const uint8_t* keep, size_t, LeafValues& out) override {
    return select_dictionary(
        dict_, indices_.data(), dictionary_.table.size(), keep, n,
        [&](size_t count) {
          const size_t got = dict_.decode(dictionary_.table, out.bytes, count);
          if (got < count && (out.bytes.refused() || !out.bytes.fits(1))) batch_full();
          return got;
        },
        [&](const uint32_t* indices, size_t k) {
          if (detail::append_entries(dictionary_.table, indices, 0, k, out.bytes) < k) batch_full();
        });
  }

 private:
  const ByteArrayDictionary& dictionary_;
  DictionaryDecoder dict_;
  std::array<uint32_t, kSpanValues> indices_;
};

// ---- fixed-length byte arrays ----------------------------------------------

// Keeps its own cursor beside the decoder's, to compact straight out of
// the page.
class PlainFixedLen final : public ValueDecoder {
 public:
  explicit PlainFixedLen(const DecoderContext& c) : plain_(c.type_length) {}
  void reset(const uint8_t* data, size_t size, size_t num_values) override {
    plain_.reset(data, size, num_values);
    data_ = data;
    index_ = 0;
  }
  size_t read(size_t n, LeafValues& out) override {
    return moved(plain_.decode(out.fixed.extend(n * plain_.width()), n));
  }
  size_t skip(size_t n) override { return moved(plain_.skip(n)); }
  size_t read_selected(size_t n, const uint8_t* keep, size_t kept, LeafValues& out) override {
    const size_t width = plain_.width();
    n = std::min(n, plain_.remaining());
    compact_width(data_ + index_ * width, width, keep, n, out.fixed.extend(kept * width));
    return moved(plain_.skip(n));
  }

 private:
  size_t moved(size_t n) {
    index_ += n;
    return n;
  }

  PlainFixedLenByteArrayDecoder plain_;
  const uint8_t* data_ = nullptr;
  size_t index_ = 0;
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
  size_t read_selected(size_t n, const uint8_t* keep, size_t kept, LeafValues& out) override {
    const size_t width = dictionary_.width;
    uint8_t* dst = out.fixed.extend(kept * width);
    return select_dictionary(
        dict_, indices_.data(), dictionary_.count, keep, n,
        [&](size_t count) {
          const size_t got = dict_.decode(dictionary_.entries.data(), dictionary_.count, width, dst, count);
          dst += got * width;
          return got;
        },
        [&](const uint32_t* indices, size_t k) {
          for (size_t i = 0; i < k; ++i, dst += width)
            std::memcpy(dst, dictionary_.entries.data() + indices[i] * width, width);
        });
  }

 private:
  const FixedLenDictionary& dictionary_;
  DictionaryDecoder dict_;
  std::array<uint32_t, kSpanValues> indices_;
};

class DeltaFixedLen final : public ValueDecoder {
 public:
  explicit DeltaFixedLen(const DecoderContext& c) : width_(c.type_length) {}
  void reset(const uint8_t* data, size_t size, size_t) override { delta_.reset(data, size); }
  size_t read(size_t n, LeafValues& out) override { return delta_.decode(out.fixed.extend(n * width_), n, width_); }
  size_t skip(size_t n) override { return delta_.skip(n); }
  size_t read_selected(size_t n, const uint8_t* keep, size_t, LeafValues& out) override {
    return select_through_scratch(*this, width_, n, keep, out, scratch_);
  }

 private:
  size_t width_;
  DeltaByteArrayDecoder delta_;
  LeafValues scratch_;
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
// array types, BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32, INT64 and
// FIXED_LEN_BYTE_ARRAY, and ALP for FLOAT and DOUBLE.
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
    {Type::FLOAT, Encoding::ALP, make<AlpValues<float>>},

    {Type::DOUBLE, Encoding::PLAIN, make<PlainNumbers<double>>},
    {Type::DOUBLE, Encoding::PLAIN_DICTIONARY, make<DictionaryNumbers<double>>},
    {Type::DOUBLE, Encoding::RLE_DICTIONARY, make<DictionaryNumbers<double>>},
    {Type::DOUBLE, Encoding::BYTE_STREAM_SPLIT, make<SplitValues<8>>},
    {Type::DOUBLE, Encoding::ALP, make<AlpValues<double>>},

    {Type::BYTE_ARRAY, Encoding::PLAIN, make<PlainByteArrays>},
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
