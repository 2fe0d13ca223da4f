// PageSink: the stored form of a column chunk's pages and bloom filter.
//
// A page's stored form is decided here and nowhere else: its payload
// compressed (or stored, see WriteOptions::min_compression_saving), then
// encrypted when the column is (Parquet modular encryption: the page and
// its header as separate modules), then checksummed, since the CRC covers
// the bytes as written. Readers without the key see the page's size and
// nothing else; keeping encryption out of ColumnWriter means no path
// through it can append a page, or a bloom filter, in the clear.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "parq/compression/codec.h"
#include "parq/crypto/file_crypto.h"
#include "parq/crypto/module_cipher.h"
#include "parq/format/metadata.h"
#include "parq/schema/schema.h"
#include "parq/util/buffer.h"

namespace parq {

class BloomFilter;
struct ColumnWriterOptions;

// `v` as a page header's 32-bit field; throws parq::Error naming the
// column and `what` when it does not fit.
int32_t checked_int32(int64_t v, const ColumnDescriptor& c, const char* what);

class PageSink {
 public:
  // `encryptor` (null for a plaintext file) outlives the sink; `ordinal` is
  // the column's among the schema's leaves.
  PageSink(const ColumnDescriptor& column, const ColumnWriterOptions& options, const crypto::FileEncryptor* encryptor,
           int32_t ordinal);
  ~PageSink();

  // The next column chunk (the first at construction): the next row group.
  void start_chunk();
  // The next data page is compressed whatever the pages before it saved:
  // another encoding starts, whose bytes the old savings say nothing of.
  void probe_compression() { pages_until_compression_probe_ = 0; }

  // What the codec makes of `bytes` (their size when uncompressed): the
  // writer's measure for choosing between encodings of the same values.
  size_t compressed_size(std::span<const uint8_t> bytes);

  // Appends the page's header and payload to `out`, filling in the
  // header's sizes and CRC. v1 pages pass their levels inside `body` and
  // `levels` empty; v2 pages their levels (never compressed) in `levels`.
  // Returns the bytes the page counts as uncompressed: header, levels, body.
  int64_t write(format::PageHeader& header, const Buffer& levels, const Buffer& body, Buffer& out);
  // Appends the filter's header and bitset.
  void write_bloom_filter(const BloomFilter& filter, Buffer& out);

  // Whether the chunk's modules are encrypted.
  bool encrypted() const { return encrypted_; }

 private:
  const Buffer& compress(format::PageHeader& header, const Buffer& body);
  // The chunk's cipher, made at first use: an ordinal past the AAD's 16
  // bits then fails only a file that has such a chunk to encrypt.
  const crypto::ModuleCipher& cipher();

  const ColumnDescriptor& column_;
  format::CompressionCodec codec_id_;
  bool page_crc_;
  double min_compression_saving_;
  std::unique_ptr<compression::Codec> codec_;
  const crypto::FileEncryptor* encryptor_;
  std::string path_;
  int32_t ordinal_;
  bool encrypted_ = false;
  int32_t row_group_ = -1;
  int32_t data_pages_ = 0;  // of the chunk so far: the next one's AAD ordinal
  std::optional<crypto::ModuleCipher> cipher_;
  // Data pages still to store before compression is tried again.
  int pages_until_compression_probe_ = 0;

  // Scratch reused across pages.
  Buffer compressed_;
  Buffer plain_;   // an encrypted v2 page's levels and payload, together
  Buffer sealed_;  // an encrypted page
  std::string header_;
  std::string sealed_header_;
};

}  // namespace parq
