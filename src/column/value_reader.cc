// ValueReader: the column's side of the encoding table (the dictionary,
// the page owner, a decoder per encoding met) and the checks that a page
// holds the values its levels need.
#include "value_reader.h"

#include <string>

#include "parq/encoding/byte_array_batch.h"
#include "parq/error.h"

namespace parq {

using format::Encoding;

ValueReader::ValueReader(format::Type physical, int32_t type_length, std::string column)
    : physical_(physical), column_(std::move(column)) {
  if (physical == format::Type::FIXED_LEN_BYTE_ARRAY && type_length < 1)
    throw Error(ErrorKind::kCorrupt, {.column = column_},
                "FIXED_LEN_BYTE_ARRAY width " + std::to_string(type_length) + " is not positive");
  const size_t width = physical == format::Type::FIXED_LEN_BYTE_ARRAY ? static_cast<size_t>(type_length) : 0;
  dictionary_ = make_column_dictionary(physical, width);
  context_.type_length = width;
  context_.dictionary = dictionary_.get();
  context_.page_owner = &page_owner_;
}

void ValueReader::short_page(size_t wanted, size_t got) const {
  throw Error(ErrorKind::kCorrupt, {.column = column_},
              "the page holds " + std::to_string(got) + " values where its levels need " + std::to_string(wanted));
}

void ValueReader::set_dictionary(const uint8_t* data, size_t size, size_t num_values) {
  if (!dictionary_) throw Error(ErrorKind::kCorrupt, {.column = column_}, "BOOLEAN columns cannot have a dictionary");
  has_dictionary_ = false;
  const size_t got = dictionary_->load(data, size, num_values);
  if (got != num_values) short_page(num_values, got);
  has_dictionary_ = true;
}

void ValueReader::begin_page(Encoding encoding, const uint8_t* data, size_t size, size_t num_values) {
  current_ = nullptr;
  page_left_ = 0;
  const auto slot = static_cast<size_t>(encoding);
  if (slot >= decoders_.size() || !encoding_applies(physical_, encoding))
    throw Error(ErrorKind::kCorrupt, {.column = column_},
                std::string("encoding ") + format::to_string(encoding) + " is not valid for this column's type");
  if ((encoding == Encoding::PLAIN_DICTIONARY || encoding == Encoding::RLE_DICTIONARY) && !has_dictionary_)
    throw Error(ErrorKind::kCorrupt, {.column = column_},
                "a dictionary-encoded page without a dictionary page before it");
  auto& decoder = decoders_[slot];
  if (!decoder) decoder = make_value_decoder(physical_, encoding, context_);
  decoder->reset(data, size, num_values);
  current_ = decoder.get();
  page_left_ = num_values;
}

// The batch's byte-array data reached its limit: the caller reads again
// with fewer rows (BatchPipeline restarts the row group's reading).
void ValueReader::batch_full() const {
  throw encoding::ByteArrayBatchFull(Error(ErrorKind::kLimit, {.column = column_},
                                           "more byte-array data than one batch may hold; read smaller batches"));
}

void ValueReader::read(size_t n, LeafValues& out) {
  if (n == 0) return;
  if (n > page_left_) short_page(n, page_left_);
  const size_t got = current_->read(n, out);
  if (got != n) {
    if (out.bytes.refused() || !out.bytes.fits(1)) batch_full();
    short_page(n, got);
  }
  page_left_ -= n;
  out.count += static_cast<int64_t>(n);
}

void ValueReader::read_selected(size_t n, const uint8_t* keep, size_t kept, LeafValues& out) {
  if (kept == 0) return skip(n);
  if (kept == n) return read(n, out);
  if (n > page_left_) short_page(n, page_left_);
  const size_t got = current_->read_selected(n, keep, kept, out);
  if (got != n) {
    if (out.bytes.refused()) batch_full();
    short_page(n, got);
  }
  page_left_ -= n;
  out.count += static_cast<int64_t>(kept);
}

void ValueReader::skip(size_t n) {
  if (n == 0) return;
  if (n > page_left_) short_page(n, page_left_);
  const size_t got = current_->skip(n);
  if (got != n) short_page(n, got);
  page_left_ -= n;
}

}  // namespace parq
