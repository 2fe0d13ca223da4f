// PageReader and chunk ranges; see column/page_reader.h.
#include "parq/column/page_reader.h"

#include <libdeflate.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>

#include "parq/error.h"
#include "parq/format/metadata_codec.h"

namespace parq {
namespace {

using format::PageType;

// parquet-mr 1.2.8 and older left the dictionary page header out of
// total_compressed_size; readers add up to this much (IMPALA-694).
constexpr uint64_t kParquet816Padding = 100;

bool written_before_parquet_816_fix(const format::FileMetaData& file) {
  if (!file.created_by) return false;
  int major = 0, minor = 0, patch = 0;
  if (std::sscanf(file.created_by->c_str(), "parquet-mr version %d.%d.%d", &major, &minor, &patch) != 3) return false;
  if (major != 1) return major < 1;
  if (minor != 2) return minor < 2;
  return patch < 9;
}

// The most a codec can expand `stored` bytes to (with slack for headers);
// unbounded for BROTLI and ZSTD, whose long repeats reach any ratio.
uint64_t max_expansion(format::CompressionCodec codec, uint64_t stored) {
  using format::CompressionCodec;
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED:
      return stored;
    case CompressionCodec::SNAPPY:
      return stored * 32 + 64;
    case CompressionCodec::LZ4:
    case CompressionCodec::LZ4_RAW:
    case CompressionCodec::LZO:
      return stored * 256 + 64;
    case CompressionCodec::GZIP:
      return stored * 1100 + 64;
    default:
      return UINT64_MAX;
  }
}

}  // namespace

ErrorLocation chunk_location(const std::string& file_name, const format::FileMetaData& file, size_t row_group,
                             size_t column) {
  const format::ColumnChunk& chunk = file.row_groups.at(row_group).columns.at(column);
  std::string path;
  if (chunk.meta_data)
    for (const std::string& part : chunk.meta_data->path_in_schema) path += (path.empty() ? "" : ".") + part;
  // An encrypted column without its key has its path in its crypto metadata.
  if (path.empty() && chunk.crypto_metadata && chunk.crypto_metadata->ENCRYPTION_WITH_COLUMN_KEY)
    for (const std::string& part : chunk.crypto_metadata->ENCRYPTION_WITH_COLUMN_KEY->path_in_schema)
      path += (path.empty() ? "" : ".") + part;
  if (path.empty()) path = "#" + std::to_string(column);
  return {.file = file_name, .row_group = static_cast<int64_t>(row_group), .column = path};
}

ChunkRange chunk_range(const format::FileMetaData& file, size_t row_group, size_t column, uint64_t file_size) {
  const format::ColumnChunk& chunk = file.row_groups.at(row_group).columns.at(column);
  // The caller knows the file; it adds it.
  const ErrorLocation where = chunk_location("", file, row_group, column);
  if (!chunk.meta_data) throw Error(ErrorKind::kUnsupported, where, "column metadata is encrypted (a key is needed)");
  const format::ColumnMetaData& md = *chunk.meta_data;
  // A data page offset inside the leading magic is a writer's placeholder
  // (column_chunk_key_value_metadata.parquet has 0 there).
  int64_t start = md.data_page_offset;
  const int64_t dict = md.dictionary_page_offset.value_or(0);
  if (dict > 0 && (dict < start || start < 4)) start = dict;
  if (start < 0 || md.total_compressed_size < 0)
    throw Error(ErrorKind::kCorrupt, where, "negative offset or size in the column metadata");
  uint64_t offset = static_cast<uint64_t>(start);
  uint64_t length = static_cast<uint64_t>(md.total_compressed_size);
  if (offset > file_size || length > file_size - offset)
    throw Error(ErrorKind::kCorrupt, where,
                "column chunk [" + std::to_string(offset) + ", +" + std::to_string(length) +
                    ") reaches past the end of the file (" + std::to_string(file_size) + " bytes)");
  if (written_before_parquet_816_fix(file)) length += std::min(kParquet816Padding, file_size - (offset + length));
  return {offset, length};
}

const char* to_string(CrcStatus status) {
  switch (status) {
    case CrcStatus::kAbsent:
      return "none";
    case CrcStatus::kValid:
      return "valid";
    case CrcStatus::kInvalid:
      return "INVALID";
    case CrcStatus::kUnchecked:
      return "unchecked";
  }
  return "?";
}

ChunkBytes fetch_whole_chunk(io::RandomAccessInput& input, const format::FileMetaData& file, size_t row_group,
                             size_t column) {
  const ChunkRange range = chunk_range(file, row_group, column, input.size());
  if (range.length > SIZE_MAX) throw Error("column chunk too large for this machine", ErrorKind::kLimit);
  ChunkBytes out;
  out.segments.push_back({range.offset, io::ByteRange::read(input, range.offset, static_cast<size_t>(range.length))});
  return out;
}

PageReader::PageReader(io::RandomAccessInput& input, const format::FileMetaData& file, size_t row_group, size_t column,
                       std::string column_name, const PageReaderOptions& options)
    : options_(options) {
  init(input.name(), file, row_group, column, column_name);
  try {
    chunk_ = fetch_whole_chunk(input, file, row_group, column);
  } catch (const Error& e) {
    throw e.within(location_);
  }
}

PageReader::PageReader(ChunkBytes bytes, const std::string& input_name, const format::FileMetaData& file,
                       size_t row_group, size_t column, std::string column_name, const PageReaderOptions& options)
    : chunk_(std::move(bytes)), options_(options) {
  init(input_name, file, row_group, column, column_name);
}

void PageReader::init(const std::string& input_name, const format::FileMetaData& file, size_t row_group, size_t column,
                      const std::string& column_name) {
  location_ = {.file = input_name, .row_group = static_cast<int64_t>(row_group), .column = column_name};
  const format::ColumnChunk& chunk = file.row_groups.at(row_group).columns.at(column);
  try {
    cipher_ = crypto::chunk_cipher(options_.decryptor.get(), file, row_group, column);
  } catch (const Error& e) {
    throw e.within(location_);
  }
  if (!chunk.meta_data)
    throw Error(ErrorKind::kUnsupported, location_, "column metadata is encrypted (a key is needed)");
  metadata_ = &*chunk.meta_data;
  codec_ = compression::make_codec(metadata_->codec);
}

PageReader::~PageReader() = default;

ErrorLocation PageReader::location(const PageInfo& page) const {
  ErrorLocation l = location_;
  l.page = static_cast<int64_t>(page.index);
  l.offset = static_cast<int64_t>(page.header_offset);
  return l;
}

bool PageReader::values_complete() const { return values_seen_ >= metadata_->num_values; }

bool PageReader::next(PageInfo& page) {
  // Past the chunk's values, what remains is padding (or the next chunk for
  // the PARQUET-816 extension), not pages. A partial chunk ends with its
  // last segment.
  while (segment_ < chunk_.segments.size() && pos_ >= chunk_.segments[segment_].bytes.size()) {
    ++segment_;
    pos_ = 0;
  }
  if (segment_ >= chunk_.segments.size() || (!chunk_.partial && values_complete())) return false;
  const io::ByteRange& bytes = chunk_.segments[segment_].bytes;
  page = PageInfo{};
  page.index = next_index_++;
  page.header_offset = chunk_.segments[segment_].offset + pos_;
  const auto& rows = chunk_.page_first_rows;
  auto at = std::lower_bound(rows.begin(), rows.end(), std::pair<uint64_t, int64_t>{page.header_offset, INT64_MIN});
  int32_t known_ordinal = -1;  // a data page's, when the offset index placed it
  if (at != rows.end() && at->first == page.header_offset) {
    page.first_row = at->second;
    if (!chunk_.page_ordinals.empty()) known_ordinal = chunk_.page_ordinals[static_cast<size_t>(at - rows.begin())];
  }
  if (cipher_.valid()) {
    decrypt_header(page, bytes, known_ordinal);
  } else {
    size_t room = std::min<size_t>(bytes.size() - pos_, options_.max_header_bytes);
    try {
      page.header_size =
          static_cast<uint32_t>(format::decode_thrift(bytes.data() + pos_, room, page.header, page.header_offset));
    } catch (const Error& e) {
      throw Error(ErrorKind::kCorrupt, location(page), "corrupt page header: " + e.detail());
    }
  }
  const format::PageHeader& h = page.header;
  if (h.type == PageType::DATA_PAGE || h.type == PageType::DATA_PAGE_V2) {
    page.data_page_ordinal = known_ordinal >= 0 ? known_ordinal : data_pages_seen_;
    data_pages_seen_ = page.data_page_ordinal + 1;
  }
  if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0)
    throw Error(ErrorKind::kCorrupt, location(page), "negative page size in the header");
  pos_ += page.header_size;
  if (static_cast<size_t>(h.compressed_page_size) > bytes.size() - pos_)
    throw Error(ErrorKind::kCorrupt, location(page),
                std::to_string(h.compressed_page_size) + " bytes of page data run past the end of the column chunk (" +
                    std::to_string(bytes.size() - pos_) + " bytes left)");
  page.payload = bytes.span().subspan(pos_, static_cast<size_t>(h.compressed_page_size));
  pos_ += page.payload.size();

  if (h.type == PageType::DATA_PAGE && h.data_page_header) values_seen_ += h.data_page_header->num_values;
  if (h.type == PageType::DATA_PAGE_V2 && h.data_page_header_v2) values_seen_ += h.data_page_header_v2->num_values;

  if (h.crc && !options_.verify_crc && !options_.report_crc) {
    page.crc = CrcStatus::kUnchecked;
  } else if (h.crc) {
    uint32_t crc = libdeflate_crc32(0, page.payload.data(), page.payload.size());
    page.crc = crc == static_cast<uint32_t>(*h.crc) ? CrcStatus::kValid : CrcStatus::kInvalid;
    if (page.crc == CrcStatus::kInvalid && options_.verify_crc)
      throw Error(ErrorKind::kCorrupt, location(page),
                  "page CRC mismatch (stored " + std::to_string(static_cast<uint32_t>(*h.crc)) + ", computed " +
                      std::to_string(crc) + ")");
  }
  return true;
}

void PageReader::decrypt_header(PageInfo& page, const io::ByteRange& bytes, int32_t known_ordinal) {
  using crypto::ModuleType;
  std::span<const uint8_t> rest = bytes.span().subspan(pos_);
  size_t size = 0;
  try {
    size = cipher_.module_size(ModuleType::kDataPageHeader, rest);
  } catch (const Error& e) {
    throw e.within(location(page));
  }
  if (size > uint64_t{options_.max_header_bytes} + crypto::kGcmOverhead)
    throw Error(ErrorKind::kLimit, location(page),
                "an encrypted page header of " + std::to_string(size) + " bytes exceeds the limit of " +
                    std::to_string(options_.max_header_bytes));
  std::span<const uint8_t> module = rest.first(size);
  // The header's AAD says whether it is the dictionary page's: the first
  // page may be either, tried in the order the metadata suggests; the
  // first attempt's error is the one reported.
  struct Aad {
    ModuleType type;
    int32_t page;
  };
  const Aad data{ModuleType::kDataPageHeader, known_ordinal >= 0 ? known_ordinal : data_pages_seen_};
  const Aad dictionary{ModuleType::kDictionaryPageHeader, -1};
  const bool first = page.index == 0 && known_ordinal < 0;
  const bool dictionary_first = first && metadata_->dictionary_page_offset.value_or(0) > 0;
  const Aad tries[2] = {dictionary_first ? dictionary : data, dictionary_first ? data : dictionary};
  std::span<const uint8_t> plain;
  try {
    plain = cipher_.decrypt(tries[0].type, module, header_plain_, tries[0].page);
  } catch (const Error& e) {
    if (!first) throw e.within(location(page));
    try {
      plain = cipher_.decrypt(tries[1].type, module, header_plain_, tries[1].page);
    } catch (const Error&) {
      throw e.within(location(page));
    }
  }
  // What follows the header inside its module is ignored: parquet-java
  // 1.14 pads some headers with zeros there.
  try {
    format::decode_thrift(plain.data(), plain.size(), page.header, 0);
  } catch (const Error& e) {
    throw Error(ErrorKind::kCorrupt, location(page), "corrupt page header (decrypted): " + e.detail());
  }
  page.header_size = static_cast<uint32_t>(size);
}

std::span<const uint8_t> PageReader::stored_bytes(const PageInfo& page) {
  if (!cipher_.valid()) return page.payload;
  const bool dictionary = page.header.type == PageType::DICTIONARY_PAGE;
  // A buffer of its own: the decompression that follows reads it while
  // writing one of page_buffers_, and a stored page's arrays view it.
  if (decrypted_ == nullptr || decrypted_.use_count() != 1) {
    decrypted_ = std::make_shared<Buffer>();
  } else {
    std::atomic_thread_fence(std::memory_order_acquire);
  }
  page_owner_ = decrypted_;
  try {
    return cipher_.decrypt(dictionary ? crypto::ModuleType::kDictionaryPage : crypto::ModuleType::kDataPage,
                           page.payload, *decrypted_, dictionary ? -1 : page.data_page_ordinal);
  } catch (const Error& e) {
    throw e.within(location(page));
  }
}

std::span<const uint8_t> PageReader::decompress(const PageInfo& page, size_t values_at, bool in_stream) {
  PageDecompression task;
  std::span<const uint8_t> bytes = prepare_decompression(page, task, values_at, in_stream);
  if (task.reader != nullptr) run(task);
  return bytes;
}

PageReader::StoredPage PageReader::checked_payload(const PageInfo& page) {
  const format::PageHeader& h = page.header;
  StoredPage stored;
  stored.payload = stored_bytes(page);
  stored.size = static_cast<size_t>(h.uncompressed_page_size);
  const size_t size = stored.size;
  if (size > options_.max_page_bytes)
    throw Error(ErrorKind::kLimit, location(page),
                "uncompressed page size " + std::to_string(size) + " exceeds the limit of " +
                    std::to_string(options_.max_page_bytes));
  if (h.type == PageType::DATA_PAGE_V2) {
    if (!h.data_page_header_v2) throw Error(ErrorKind::kCorrupt, location(page), "DATA_PAGE_V2 without its header");
    const auto& v2 = *h.data_page_header_v2;
    if (v2.definition_levels_byte_length < 0 || v2.repetition_levels_byte_length < 0)
      throw Error(ErrorKind::kCorrupt, location(page), "negative level lengths");
    stored.levels =
        static_cast<size_t>(v2.definition_levels_byte_length) + static_cast<size_t>(v2.repetition_levels_byte_length);
    if (stored.levels > stored.payload.size() || stored.levels > size)
      throw Error(ErrorKind::kCorrupt, location(page),
                  "level lengths (" + std::to_string(stored.levels) + " bytes) exceed the page");
    stored.compressed = v2.is_compressed.value_or(true);
  }
  if (uint64_t limit = max_expansion(metadata_->codec, stored.payload.size()); size > limit)
    throw Error(ErrorKind::kCorrupt, location(page),
                std::to_string(stored.payload.size()) + " stored bytes cannot expand to the " + std::to_string(size) +
                    " bytes the header claims with " + format::to_string(metadata_->codec));
  if (metadata_->codec == format::CompressionCodec::UNCOMPRESSED) stored.compressed = false;
  if (!stored.compressed && stored.payload.size() != size)
    throw Error(ErrorKind::kCorrupt, location(page),
                "stored page is " + std::to_string(stored.payload.size()) + " bytes, the header says " +
                    std::to_string(size) + " uncompressed");
  return stored;
}

PageDecompression PageReader::decompression_to(const PageInfo& page, const StoredPage& stored, uint8_t* out) {
  if (stored.levels != 0) std::memcpy(out, stored.payload.data(), stored.levels);
  const std::span<const uint8_t> values = stored.payload.subspan(stored.levels);
  const size_t values_size = stored.size - stored.levels;
  // An empty values section (all-null v2 pages) has nothing to decompress,
  // and some codecs reject an empty stream.
  if (values.empty() && values_size == 0) return {};
  return {this, &page, {values, out + stored.levels, values_size}};
}

std::span<const uint8_t> PageReader::prepare_decompression(const PageInfo& page, PageDecompression& task,
                                                           size_t values_at, bool in_stream) {
  page_owner_.reset();
  return place(page, checked_payload(page), task, values_at, in_stream);
}

std::span<const uint8_t> PageReader::place(const PageInfo& page, const StoredPage& stored, PageDecompression& task,
                                           size_t values_at, bool in_stream) {
  task = PageDecompression{};
  if (!stored.compressed) return stored.payload;
  if (page.header.type == PageType::DATA_PAGE_V2) values_at = stored.levels;
  uint8_t* out = in_stream ? stream_room(values_at, stored.size) : page_buffer_room(values_at, stored.size);
  task = decompression_to(page, stored, out);
  return {out, stored.size};
}

std::span<const uint8_t> PageReader::decompress_after(const PageInfo& page, size_t values_at, const uint8_t* after,
                                                      size_t viewed,
                                                      const std::function<size_t(std::span<const uint8_t>)>& levels) {
  page_owner_.reset();
  const StoredPage stored = checked_payload(page);
  if (page.header.type == PageType::DATA_PAGE_V2) values_at = stored.levels;
  // The view lies in the stream and ends where its last page does. The
  // bytes written over are its own and no view's before it, even as SIMD
  // kernels read those past their end (kPadding bytes).
  const bool follows = stored.compressed && stream_ != nullptr && after == stream_->data() + stream_end_ &&
                       viewed <= stream_end_ && values_at + Buffer::kPadding <= viewed && values_at <= stored.size &&
                       stored.size + Buffer::kPadding <= stream_->size() - stream_end_;
  if (!follows) {
    PageDecompression task;
    const std::span<const uint8_t> bytes = place(page, stored, task, values_at, true);
    if (task.reader != nullptr) run(task);
    return bytes.subspan(levels(bytes));
  }
  // The page starts `values_at` bytes before the end of the batch's values:
  // those are saved, and the page's levels take their place while they are
  // read.
  uint8_t* out = stream_->data() + stream_end_ - values_at;
  saved_.assign(out, values_at);
  auto restore = [&] {
    if (values_at != 0) std::memcpy(out, saved_.data(), values_at);
  };
  const PageDecompression task = decompression_to(page, stored, out);
  size_t at = 0;
  try {
    if (task.reader != nullptr) run(task);
    at = levels({out, stored.size});
  } catch (...) {
    restore();
    throw;
  }
  // `levels` returns a place inside the page. Values that start elsewhere
  // than expected (levels not one run) are moved behind `after`; there is
  // room, as the check above asked for the whole page past it.
  const size_t values_size = stored.size - at;
  if (at != values_at) std::memmove(out + values_at, out + at, values_size);
  restore();
  page_owner_ = stream_;
  stream_end_ += values_size;
  return {out + values_at, values_size};
}

// The values (v2: after the levels; v1: where the caller expects them)
// start on a 64-byte boundary, so that views of them are aligned.
uint8_t* PageReader::page_buffer_room(size_t values_at, size_t size) {
  const size_t lead = (Buffer::kAlignment - values_at % Buffer::kAlignment) % Buffer::kAlignment;
  Buffer& buffer = page_buffer();
  buffer.resize(lead + size);
  return buffer.data() + lead;
}

namespace {

// A value stream holds a whole chunk where it can: a batch across pages of
// one stream views them, one across two copies its values, and batches
// rarely start where pages do. A view of any page keeps the whole stream
// alive, hence a bound (value_stream_bytes, or a few pages where pages are
// larger).
constexpr size_t kStreamPages = 4;

size_t align_up(size_t n) { return (n + Buffer::kAlignment - 1) / Buffer::kAlignment * Buffer::kAlignment; }

}  // namespace

// Pages in the stream start kPadding bytes past the page before, whose
// views SIMD kernels may read past their end while this one is written,
// with their values on a 64-byte boundary.
uint8_t* PageReader::stream_room(size_t values_at, size_t size) {
  auto values_offset = [&] { return align_up(stream_end_ + Buffer::kPadding + values_at); };
  if (stream_ == nullptr || values_offset() + size - values_at + Buffer::kPadding > stream_->size())
    next_stream(values_at + size + 3 * Buffer::kAlignment);
  const size_t at = values_offset();
  stream_end_ = at + size - values_at;
  page_owner_ = stream_;
  return stream_->data() + at - values_at;
}

void PageReader::next_stream(size_t min_bytes) {
  const int64_t chunk = metadata_->total_uncompressed_size;
  const size_t bound = std::max(options_.value_stream_bytes, kStreamPages * min_bytes);
  const size_t wanted =
      std::max(min_bytes, chunk > 0 ? std::min(static_cast<size_t>(chunk) + 2 * Buffer::kAlignment, bound) : 0);
  stream_end_ = 0;
  // The last view of a stream may have gone on another thread: what it
  // read there happens before the stream is written again.
  if (stream_ != nullptr && stream_.use_count() == 1 && stream_->size() >= min_bytes) {
    std::atomic_thread_fence(std::memory_order_acquire);
    return;
  }
  std::swap(stream_, spare_stream_);
  if (stream_ != nullptr && stream_.use_count() == 1 && stream_->size() >= min_bytes) {
    std::atomic_thread_fence(std::memory_order_acquire);
    return;
  }
  stream_ = std::make_shared<Buffer>(wanted);
}

// Pages decompress into one of two buffers, whichever no array still
// views; when both are, the first is left to its views and replaced.
Buffer& PageReader::page_buffer() {
  std::shared_ptr<Buffer>* slot = &page_buffers_[0];
  for (std::shared_ptr<Buffer>& b : page_buffers_) {
    if (b == nullptr || b.use_count() == 1) {
      slot = &b;
      break;
    }
  }
  if (*slot == nullptr || slot->use_count() != 1) {
    *slot = std::make_shared<Buffer>();
  } else {
    // The last view may have gone on another thread: what it read there
    // happens before this reuse.
    std::atomic_thread_fence(std::memory_order_acquire);
  }
  page_owner_ = *slot;
  return **slot;
}

size_t PageReader::held_bytes() const {
  size_t n = 0;
  for (const std::shared_ptr<Buffer>& b : page_buffers_)
    if (b != nullptr) n += b->capacity();
  for (const std::shared_ptr<Buffer>* b : {&stream_, &spare_stream_})
    if (*b != nullptr) n += (*b)->capacity();
  if (decrypted_ != nullptr) n += decrypted_->capacity();
  return n;
}

void PageReader::run(const PageDecompression& task) {
  try {
    codec_->decompress(task.job.in, task.job.out, task.job.out_size);
  } catch (const Error& e) {
    throw e.within(location(*task.page));
  }
}

void PageReader::run_pair(const PageDecompression& mine, const PageDecompression& other) {
  try {
    codec_->decompress_pair(mine.job, other.job);
  } catch (const Error&) {
    // The pair does not say which page failed: one by one, the failing
    // page throws with its column and position.
    run(mine);
    other.reader->run(other);
    throw;
  }
}

format::CompressionCodec PageReader::codec() const { return metadata_->codec; }

void run_decompressions(std::span<const PageDecompression> tasks) {
  const PageDecompression* waiting = nullptr;  // a task without a partner yet
  for (const PageDecompression& task : tasks) {
    if (task.reader == nullptr) continue;
    if (waiting == nullptr) {
      waiting = &task;
    } else if (waiting->reader->codec() == task.reader->codec()) {
      waiting->reader->run_pair(*waiting, task);
      waiting = nullptr;
    } else {
      waiting->reader->run(*waiting);
      waiting = &task;
    }
  }
  if (waiting != nullptr) waiting->reader->run(*waiting);
}

}  // namespace parq
