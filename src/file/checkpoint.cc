// Checkpoint trailers of a streaming write; see checkpoint.h.
#include "parq/file/checkpoint.h"

#include <libdeflate.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "../util/byte_copy.h"
#include "parq/error.h"
#include "parq/format/metadata_codec.h"

namespace parq::file {
namespace {

constexpr uint64_t kScanPiece = uint64_t{1} << 20;

uint32_t crc_of(const uint8_t* data, size_t n) { return libdeflate_crc32(0, data, n); }

// The checkpoint whose marker starts at `marker`, if it is whole.
std::optional<Checkpoint> checkpoint_at(io::RandomAccessInput& input, uint64_t marker) {
  if (marker < 8) return std::nullopt;
  uint8_t fields[8];
  input.read_at(marker - 8, 8, fields);
  const uint32_t length = bytes::load_u32(fields);
  const uint32_t crc = bytes::load_u32(fields + 4);
  if (length == 0 || length > marker - 8) return std::nullopt;
  const uint64_t start = marker - 8 - length;
  std::vector<uint8_t> bytes(length);
  input.read_at(start, length, bytes.data());
  if (crc_of(bytes.data(), bytes.size()) != crc) return std::nullopt;
  Checkpoint c;
  try {
    format::decode_thrift(bytes.data(), bytes.size(), c.metadata, start);
  } catch (const Error&) {
    return std::nullopt;  // a CRC collision with bytes that are not metadata
  }
  c.offset = start;
  c.end = marker + kCheckpointMagicSize;
  return c;
}

}  // namespace

void append_checkpoint(const format::FileMetaData& metadata, std::string& out) {
  const size_t start = out.size();
  format::encode_thrift(metadata, out);
  if (out.size() - start > UINT32_MAX)
    throw Error("a checkpoint's metadata passes 4 GiB and cannot be framed", ErrorKind::kInvalidArgument);
  const uint32_t length = static_cast<uint32_t>(out.size() - start);
  const uint32_t crc = crc_of(reinterpret_cast<const uint8_t*>(out.data()) + start, length);
  for (uint32_t v : {length, crc})
    for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<char>(v >> shift));
  out.append(kCheckpointMagic, kCheckpointMagicSize);
}

std::optional<Checkpoint> find_last_checkpoint(io::RandomAccessInput& input, uint64_t end) {
  end = std::min(end, input.size());
  std::vector<uint8_t> piece;
  // Pieces overlap by a marker's length less one, so that a marker across
  // two of them is seen once.
  for (uint64_t piece_end = end; piece_end >= kCheckpointMagicSize;) {
    const uint64_t piece_start = piece_end > kScanPiece ? piece_end - kScanPiece : 0;
    piece.resize(piece_end - piece_start);
    input.read_at(piece_start, piece.size(), piece.data());
    for (size_t i = piece.size() - kCheckpointMagicSize + 1; i-- > 0;) {
      if (piece[i] != static_cast<uint8_t>(kCheckpointMagic[0]) ||
          std::memcmp(piece.data() + i, kCheckpointMagic, kCheckpointMagicSize) != 0)
        continue;
      if (auto c = checkpoint_at(input, piece_start + i)) return c;
    }
    if (piece_start == 0) break;
    piece_end = piece_start + kCheckpointMagicSize - 1;
  }
  return std::nullopt;
}

}  // namespace parq::file
