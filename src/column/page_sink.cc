// A column chunk's pages as stored; see page_sink.h.
#include "page_sink.h"

#include <libdeflate.h>

#include "column_writer.h"
#include "parq/column/bloom_filter.h"
#include "parq/error.h"
#include "parq/format/metadata_codec.h"

namespace parq {
namespace {

using crypto::ModuleType;
using format::PageType;

// Of the data pages that compression barely shrinks, every this many is
// compressed, to notice when the column's data changes.
constexpr int kPagesPerCompressionProbe = 16;

}  // namespace

int32_t checked_int32(int64_t v, const ColumnDescriptor& c, const char* what) {
  if (v > INT32_MAX)
    throw Error("column " + c.dotted_path() + ": " + what + " of " + std::to_string(v) +
                    " bytes does not fit a page header (lower the page size, or split huge values)",
                ErrorKind::kInvalidArgument);
  return static_cast<int32_t>(v);
}

PageSink::PageSink(const ColumnDescriptor& column, const ColumnWriterOptions& options,
                   const crypto::FileEncryptor* encryptor, int32_t ordinal)
    : column_(column),
      codec_id_(options.codec.id),
      page_crc_(options.page_crc),
      min_compression_saving_(options.min_compression_saving),
      codec_(compression::make_codec(options.codec.id, options.codec.level)),
      encryptor_(encryptor),
      path_(column.dotted_path()),
      ordinal_(ordinal) {
  encrypted_ = encryptor_ != nullptr && encryptor_->is_encrypted(path_);
  start_chunk();
}

PageSink::~PageSink() = default;

void PageSink::start_chunk() {
  ++row_group_;
  data_pages_ = 0;
  cipher_.reset();
  // Each chunk starts with dictionary indices again.
  pages_until_compression_probe_ = 0;
}

const crypto::ModuleCipher& PageSink::cipher() {
  if (!cipher_) cipher_ = encryptor_->column_cipher(path_, row_group_, ordinal_);
  return *cipher_;
}

// The payload of a page with this `body`: its compressed form, or, for a
// data page of a column that compression barely shrinks, the body stored
// (v2: as it is, marked uncompressed in `header`; v1: in the codec's literal
// form, where it has one).
const Buffer& PageSink::compress(format::PageHeader& header, const Buffer& body) {
  compressed_.clear();
  const bool data_page = header.type != PageType::DICTIONARY_PAGE;
  if (data_page && pages_until_compression_probe_ > 0) {
    --pages_until_compression_probe_;
    if (header.data_page_header_v2) {
      header.data_page_header_v2->is_compressed = false;
      return body;
    }
    if (codec_->store(body.span(), compressed_)) return compressed_;
  }
  codec_->compress(body.span(), compressed_);
  const double saving = min_compression_saving_;
  if (data_page && saving > 0 &&
      static_cast<double>(compressed_.size()) > (1.0 - saving) * static_cast<double>(body.size()))
    pages_until_compression_probe_ = kPagesPerCompressionProbe - 1;
  return compressed_;
}

size_t PageSink::compressed_size(std::span<const uint8_t> bytes) {
  if (codec_id_ == format::CompressionCodec::UNCOMPRESSED) return bytes.size();
  compressed_.clear();
  return codec_->compress(bytes, compressed_);
}

int64_t PageSink::write(format::PageHeader& header, const Buffer& levels, const Buffer& body, Buffer& out) {
  const Buffer& payload = codec_id_ == format::CompressionCodec::UNCOMPRESSED ? body : compress(header, body);
  header.uncompressed_page_size = checked_int32(static_cast<int64_t>(levels.size() + body.size()), column_, "a page");
  const bool dictionary = header.type == PageType::DICTIONARY_PAGE;
  const int32_t page = dictionary ? -1 : data_pages_;
  // The stored page: levels then payload, or one module sealing both.
  std::span<const uint8_t> parts[2] = {levels.span(), payload.span()};
  if (encrypted_) {
    std::span<const uint8_t> plain = payload.span();
    if (!levels.empty()) {
      plain_.clear();
      plain_.append(levels.data(), levels.size());
      plain_.append(payload.data(), payload.size());
      plain = plain_.span();
    }
    const ModuleType type = dictionary ? ModuleType::kDictionaryPage : ModuleType::kDataPage;
    sealed_.resize(plain.size() + cipher().overhead(type));
    cipher().encrypt(type, plain, sealed_.data(), page);
    parts[0] = {};
    parts[1] = sealed_.span();
  }
  header.compressed_page_size =
      checked_int32(static_cast<int64_t>(parts[0].size() + parts[1].size()), column_, "a compressed page");
  if (page_crc_) {
    // libdeflate_crc32 answers its initial value, not the CRC so far, for
    // a null buffer: what an empty Buffer's data() may be.
    uint32_t crc = 0;
    for (const auto& part : parts)
      if (!part.empty()) crc = libdeflate_crc32(crc, part.data(), part.size());
    header.crc = static_cast<int32_t>(crc);
  }
  header_.clear();
  format::encode_thrift(header, header_);
  const std::string* stored_header = &header_;
  if (encrypted_) {
    sealed_header_.clear();
    cipher().encrypt(dictionary ? ModuleType::kDictionaryPageHeader : ModuleType::kDataPageHeader,
                     crypto::bytes_of(header_), sealed_header_, page);
    stored_header = &sealed_header_;
  }
  out.append(*stored_header);
  for (const auto& part : parts)
    if (!part.empty()) out.append(part.data(), part.size());
  if (!dictionary) ++data_pages_;
  return static_cast<int64_t>(stored_header->size() + levels.size() + body.size());
}

void PageSink::write_bloom_filter(const BloomFilter& filter, Buffer& out) {
  if (!encrypted_) {
    filter.write(out);
    return;
  }
  // Header and bitset are modules of their own; the header's size is what
  // write() puts before the bitset.
  Buffer plain;
  filter.write(plain);
  const size_t header_size = plain.size() - filter.num_bytes();
  const crypto::ModuleCipher& c = cipher();
  const std::span<const uint8_t> header = plain.span().first(header_size);
  uint8_t* at = out.extend(header.size() + c.overhead(ModuleType::kBloomFilterHeader));
  c.encrypt(ModuleType::kBloomFilterHeader, header, at);
  at = out.extend(filter.num_bytes() + c.overhead(ModuleType::kBloomFilterBitset));
  c.encrypt(ModuleType::kBloomFilterBitset, filter.bitset(), at);
}

}  // namespace parq
