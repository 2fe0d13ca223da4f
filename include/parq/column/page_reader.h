// PageReader: walks the pages of one column chunk.
//
// It reads the chunk's byte range in one I/O (a view when the input is memory
// mapped), decodes each page header (bounded in size), checks the page CRC
// when there is one, and decompresses on request into a buffer it reuses.
// Data page v2 keeps its levels uncompressed in front of the values, so the
// decompressed payload is always laid out as [repetition levels][definition
// levels][values] for v2 and [payload] for v1 and dictionary pages.
//
// Index pages and page types it does not know are passed over; the value
// decoders never see them.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "parq/compression/codec.h"
#include "parq/crypto/file_crypto.h"
#include "parq/error.h"
#include "parq/format/metadata.h"
#include "parq/io/input.h"
#include "parq/util/buffer.h"

namespace parq {

struct PageReaderOptions {
  // A page header larger than this is an error (headers are a few dozen
  // bytes; statistics of long strings make them larger).
  uint32_t max_header_bytes = 16u << 20;
  // Largest uncompressed page accepted; a header claiming more is an error
  // instead of an allocation. Headers store sizes as int32, so the default
  // admits any page a writer can describe; lower it to bound memory. Codecs
  // with a bounded expansion (snappy, lz4, gzip, lzo) also cap the claimed
  // size by what the stored bytes can expand to.
  uint64_t max_page_bytes = uint64_t{INT32_MAX};
  // A page whose stored CRC does not match its bytes is an error.
  bool verify_crc = true;
  // Compute the CRC to report it (PageInfo::crc) without failing on a
  // mismatch; with neither, a page's CRC is not computed (kUnchecked).
  bool report_crc = false;
  // The most a value stream holds (see decompress()) unless four pages
  // need more: a whole chunk up to this size, so that batches across its
  // pages view them.
  size_t value_stream_bytes = size_t{4} << 20;
  // An encrypted file's keys (Footer::decryptor): page headers and pages of
  // encrypted columns are decrypted with them. Without, such a column's
  // reader throws (kUnsupported) naming it.
  std::shared_ptr<const crypto::FileDecryptor> decryptor;
};

// Where a chunk's pages are, with the workarounds for old writers: a
// dictionary_page_offset of 0 or past the data pages is ignored (the pages
// are read from data_page_offset on, where a dictionary page the metadata
// does not point to still shows up first), and parquet-mr before 1.2.9
// under-reported total_compressed_size (PARQUET-816), so its ranges are
// extended up to the next chunk or the footer.
struct ChunkRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};
ChunkRange chunk_range(const format::FileMetaData& file, size_t row_group, size_t column, uint64_t file_size);

// Where a column chunk is, for errors about it: the file's name (may be
// empty, for the caller to add), the row group and the column named by its
// metadata path ("#3" where the chunk has none), so that no schema is needed.
ErrorLocation chunk_location(const std::string& file_name, const format::FileMetaData& file, size_t row_group,
                             size_t column);

// A column chunk's bytes as the fetch stage got them: the whole chunk in one
// segment, or the dictionary page and the data pages a row selection needs
// (found through the offset index), each segment a run of whole pages.
struct ChunkBytes {
  struct Segment {
    uint64_t offset = 0;  // in the file
    io::ByteRange bytes;
  };
  std::vector<Segment> segments;
  // The first row of each data page, by the page's file offset (sorted),
  // when the offset index gave them.
  std::vector<std::pair<uint64_t, int64_t>> page_first_rows;
  // Their positions among the chunk's data pages (parallel to
  // page_first_rows), which encrypted pages' AADs hold.
  std::vector<int32_t> page_ordinals;
  bool partial = false;  // data pages were left out
};

// The whole chunk, read through `input` (chunk_range's extent).
ChunkBytes fetch_whole_chunk(io::RandomAccessInput& input, const format::FileMetaData& file, size_t row_group,
                             size_t column);

enum class CrcStatus { kAbsent, kValid, kInvalid, kUnchecked };
const char* to_string(CrcStatus status);

struct PageInfo {
  format::PageHeader header;
  uint64_t header_offset = 0;  // file offset of the page header
  uint32_t header_size = 0;
  std::span<const uint8_t> payload;  // as stored (compressed; encrypted in an encrypted column)
  CrcStatus crc = CrcStatus::kAbsent;
  int32_t data_page_ordinal = -1;  // among the chunk's data pages, for decryption
  size_t index = 0;                // position among the pages read, from 0
  int64_t first_row = -1;          // in the row group, for data pages the offset index places; else -1
};

class PageReader;

// A page's decompression, checked and ready to run: decompress() in two
// steps, so that a caller holding the pages of several columns can run
// their decompressions together (run_decompressions). `reader` is null
// when the page needs none (stored uncompressed, or no value bytes).
struct PageDecompression {
  PageReader* reader = nullptr;
  const PageInfo* page = nullptr;
  compression::DecompressJob job;
};

// Runs each task, two of one codec at a time (Codec::decompress_pair:
// SNAPPY decodes two pages of PLAIN numbers in 60% of the time the two take
// one after the other).
void run_decompressions(std::span<const PageDecompression> tasks);

class PageReader {
 public:
  // `column_name` names the column in errors ("column a.b, row group 2").
  // Reads the whole chunk through `input`.
  PageReader(io::RandomAccessInput& input, const format::FileMetaData& file, size_t row_group, size_t column,
             std::string column_name, const PageReaderOptions& options = {});
  // Pages of bytes already fetched; `input_name` starts error messages.
  PageReader(ChunkBytes bytes, const std::string& input_name, const format::FileMetaData& file, size_t row_group,
             size_t column, std::string column_name, const PageReaderOptions& options = {});
  ~PageReader();

  // The next page (index and unknown pages included), or false once the
  // data pages have held the chunk's num_values (what follows is padding)
  // or the chunk's bytes are used up. With verify_crc, a CRC mismatch throws naming the column, row
  // group and page.
  bool next(PageInfo& page);

  // The current page's payload, decompressed (see the layout above). Valid
  // until the next call to next() or decompress(), or for as long as
  // page_owner() is held. `values_at`: where the caller expects a v1 page's
  // values to start, placed on a 64-byte boundary (v2 pages: after their
  // levels, known from the header).
  //
  // `in_stream`: the page goes into the chunk's value stream instead, one
  // buffer holding page after page, so that decompress_after() can put the
  // next page's values right behind its values. For data pages of PLAIN
  // fixed-width values, whose batches view them in place.
  std::span<const uint8_t> decompress(const PageInfo& page, size_t values_at = 0, bool in_stream = false);

  // decompress() without running the codec: returns where the payload
  // will be once `task` has run (the same span decompress() returns) and
  // sets `task`. `page` must stay in place until the task has run.
  std::span<const uint8_t> prepare_decompression(const PageInfo& page, PageDecompression& task, size_t values_at = 0,
                                                 bool in_stream = false);

  // Decompresses a data page so that its values start at `after`, where
  // the stream's last page ends, for a batch that views the `viewed`
  // bytes of values before it: the batch's view grows over both pages
  // instead of being copied. The page's levels (`values_at` bytes
  // expected) are written over the batch's last values, which are saved
  // and put back once `levels` has read the page in place and returned
  // where its values start; values that start elsewhere than expected are
  // moved behind `after`. A page that cannot follow (stored uncompressed,
  // no room left in the stream, `after` not its end, a view not kPadding
  // bytes longer than the levels) goes where decompress(page, values_at,
  // true) puts it. Returns the values; the views of them are kept alive by
  // page_owner().
  std::span<const uint8_t> decompress_after(const PageInfo& page, size_t values_at, const uint8_t* after, size_t viewed,
                                            const std::function<size_t(std::span<const uint8_t>)>& levels);
  // Whether the last page decompressed went into the value stream.
  bool in_stream() const { return page_owner_ != nullptr && page_owner_ == stream_; }

  // Keeps the last decompressed payload alive (and out of reuse) while
  // held; null when the payload is the chunk's own bytes (stored pages).
  const std::shared_ptr<const void>& page_owner() const { return page_owner_; }
  // Runs a task that this reader prepared; errors name the page.
  void run(const PageDecompression& task);
  // Runs `mine` and another reader's task of the same codec together.
  void run_pair(const PageDecompression& mine, const PageDecompression& other);
  format::CompressionCodec codec() const;

  // The chunk's file, column and row group, with the page and its offset:
  // where errors about the page happened.
  ErrorLocation location(const PageInfo& page) const;
  const ErrorLocation& location() const { return location_; }

  const format::ColumnMetaData& metadata() const { return *metadata_; }
  // The input's name, which starts every error message.
  const std::string& name() const { return location_.file; }
  // The bytes of the decompressed pages it keeps for reuse (views that
  // arrays hold into them included), for a read's memory accounting.
  size_t held_bytes() const;

 private:
  bool values_complete() const;
  // An encrypted page header at pos_ decoded into `page` (sets header_size).
  void decrypt_header(PageInfo& page, const io::ByteRange& bytes, int32_t known_ordinal);
  // The page's stored bytes, decrypted when the column is encrypted.
  std::span<const uint8_t> stored_bytes(const PageInfo& page);

  void init(const std::string& input_name, const format::FileMetaData& file, size_t row_group, size_t column,
            const std::string& column_name);

  // The page's stored bytes, checked against its header: how many bytes
  // it decompresses to, the uncompressed levels in front of a v2 page's
  // values, and whether the codec is to run.
  struct StoredPage {
    std::span<const uint8_t> payload;
    size_t size = 0;
    size_t levels = 0;
    bool compressed = true;
  };
  StoredPage checked_payload(const PageInfo& page);
  // The task that decompresses `stored` to `out` (levels copied first).
  PageDecompression decompression_to(const PageInfo& page, const StoredPage& stored, uint8_t* out);
  // prepare_decompression() once the stored page is checked.
  std::span<const uint8_t> place(const PageInfo& page, const StoredPage& stored, PageDecompression& task,
                                 size_t values_at, bool in_stream);
  uint8_t* page_buffer_room(size_t values_at, size_t size);
  uint8_t* stream_room(size_t values_at, size_t size);
  void next_stream(size_t min_bytes);

  ChunkBytes chunk_;
  size_t segment_ = 0;  // the segment being read
  size_t pos_ = 0;      // in it
  size_t next_index_ = 0;
  int64_t values_seen_ = 0;
  int32_t data_pages_seen_ = 0;
  crypto::ModuleCipher cipher_;  // valid for an encrypted column
  Buffer header_plain_;
  std::shared_ptr<Buffer> decrypted_;  // the current page's plaintext
  const format::ColumnMetaData* metadata_ = nullptr;
  Buffer& page_buffer();

  std::unique_ptr<compression::Codec> codec_;
  std::array<std::shared_ptr<Buffer>, 2> page_buffers_;
  // The value stream (sized at its capacity) and where its last page
  // ends; when full, the next one is the spare if no array views it.
  std::shared_ptr<Buffer> stream_;
  std::shared_ptr<Buffer> spare_stream_;
  size_t stream_end_ = 0;
  Buffer saved_;  // what decompress_after's levels are written over
  std::shared_ptr<const void> page_owner_;
  ErrorLocation location_;
  PageReaderOptions options_;
};

}  // namespace parq
