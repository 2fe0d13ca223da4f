// DELTA_LENGTH_BYTE_ARRAY decoder and encoder; see
// encoding/delta_length_byte_array.h.
#include "parq/encoding/delta_length_byte_array.h"

#include <algorithm>
#include <string>

#include "parq/error.h"

namespace parq::encoding {

// ---- decoder ---------------------------------------------------------------

void DeltaLengthByteArrayDecoder::reset(const uint8_t* data, size_t size) {
  begin_ = data;
  end_ = data + size;
  lengths_.reset(data, size);
  bytes_ = data + lengths_.encoded_size();
  remaining_ = lengths_.total_count();
  chunk_pos_ = chunk_len_ = 0;
}

void DeltaLengthByteArrayDecoder::refill() {
  size_t n = lengths_.decode(chunk_, kChunk);
  const int64_t available = end_ - bytes_;
  int64_t total = 0;
  int32_t sign = 0;
  for (size_t i = 0; i < n; ++i) {
    sign |= chunk_[i];
    total += chunk_[i];
    ends_[i] = total;
  }
  if (sign < 0 || total > available) {
    size_t bad = 0;
    while (chunk_[bad] >= 0 && ends_[bad] <= available) ++bad;
    const size_t index = total_count() - remaining_ + bad;
    throw Error("DELTA_LENGTH_BYTE_ARRAY: value " + std::to_string(index) + " has length " +
                std::to_string(chunk_[bad]) + (chunk_[bad] < 0 ? ", negative" : ", past the end of the data") +
                " at byte " + std::to_string(bytes_ - begin_) + " of " + std::to_string(end_ - begin_));
  }
  chunk_pos_ = 0;
  chunk_len_ = n;
}

DeltaLengthByteArrayDecoder::Run DeltaLengthByteArrayDecoder::peek(size_t n) {
  if (chunk_pos_ == chunk_len_ && remaining_ > 0) refill();
  return {chunk_ + chunk_pos_, std::min(n, chunk_len_ - chunk_pos_), bytes_};
}

void DeltaLengthByteArrayDecoder::consume(size_t count, size_t bytes) {
  chunk_pos_ += count;
  bytes_ += bytes;
  remaining_ -= count;
}

size_t DeltaLengthByteArrayDecoder::decode(ByteArrayBatch& out, size_t n) {
  size_t done = 0;
  while (done < n) {
    Run run = peek(n - done);
    if (run.count == 0) break;
    const int64_t start = chunk_pos_ == 0 ? 0 : ends_[chunk_pos_ - 1];
    const int64_t* ends = ends_ + chunk_pos_;
    size_t count = run.count;
    if (!out.fits(static_cast<size_t>(ends[count - 1] - start))) {
      count = 0;
      while (count < run.count && out.fits(static_cast<size_t>(ends[count] - start))) ++count;
      if (count == 0) break;
    }
    const size_t bytes = static_cast<size_t>(ends[count - 1] - start);
    const int64_t base = static_cast<int64_t>(out.data_size()) - start;
    auto* offsets = reinterpret_cast<int32_t*>(out.offsets_buffer().extend(count * sizeof(int32_t)));
    for (size_t i = 0; i < count; ++i) offsets[i] = static_cast<int32_t>(base + ends[i]);
    out.data_buffer().append(run.bytes, bytes);
    consume(count, bytes);
    done += count;
    if (count < run.count) break;
  }
  return done;
}

size_t DeltaLengthByteArrayDecoder::skip(size_t n) {
  size_t done = 0;
  while (done < n) {
    Run run = peek(n - done);
    if (run.count == 0) break;
    const int64_t start = chunk_pos_ == 0 ? 0 : ends_[chunk_pos_ - 1];
    consume(run.count, static_cast<size_t>(ends_[chunk_pos_ + run.count - 1] - start));
    done += run.count;
  }
  return done;
}

// ---- encoder ---------------------------------------------------------------

void DeltaLengthByteArrayEncoder::put(const int32_t* offsets, const uint8_t* data, size_t n) {
  int32_t lengths[512];
  for (size_t i = 0; i < n; i += 512) {
    size_t k = std::min<size_t>(512, n - i);
    for (size_t j = 0; j < k; ++j) lengths[j] = offsets[i + j + 1] - offsets[i + j];
    lengths_.put(lengths, k);
  }
  if (n > 0) data_.append(data + offsets[0], static_cast<size_t>(offsets[n] - offsets[0]));
}

void DeltaLengthByteArrayEncoder::flush(Buffer& out) {
  lengths_.flush(out);
  out.append(data_.data(), data_.size());
  data_.clear();
}

}  // namespace parq::encoding
