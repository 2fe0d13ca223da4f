// Checkpoints of a streaming write (WriteOptions::checkpoint): every so
// often the writer appends a cumulative footer, the FileMetaData of every
// row group written so far, so that a file cut by a crash can be recovered
// up to its newest checkpoint (file/recover.h).
//
//   FileMetaData | u32 length | u32 CRC-32 of the FileMetaData | "PARQCKPT"
//
// The marker is not `PAR1`: a partial file never looks whole to a reader.
// The trailer sits in bytes that no column chunk, page index or bloom filter
// covers, so a finished file is an ordinary Parquet file, and readers that
// know nothing of checkpoints read it as any other. The CRC tells a complete
// checkpoint from a torn one and from data that happens to hold the marker.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "parq/format/metadata.h"
#include "parq/io/input.h"

namespace parq::file {

inline constexpr char kCheckpointMagic[] = "PARQCKPT";
inline constexpr uint64_t kCheckpointMagicSize = 8;
// Length, CRC and marker.
inline constexpr uint64_t kCheckpointTrailerSize = 16;

// Appends a checkpoint of `metadata` to `out`.
void append_checkpoint(const format::FileMetaData& metadata, std::string& out);

struct Checkpoint {
  format::FileMetaData metadata;
  uint64_t offset = 0;  // where its FileMetaData starts
  uint64_t end = 0;     // just past its marker
};

// The newest complete checkpoint that ends at or before `end`, found by
// scanning back from there; nullopt when there is none. Reads in bounded
// pieces, whatever the size of the input.
std::optional<Checkpoint> find_last_checkpoint(io::RandomAccessInput& input, uint64_t end);

}  // namespace parq::file
