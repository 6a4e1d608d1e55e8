// The on-disk layout of isapack's embedded catalog, format version 2. Written
// by catalog_writer.cc at build time (tools/pipeline/pack_catalog.cc), embedded
// in libisapack's .isapack_catalog section, read by catalog.cc. All integers
// are little-endian.
//
//   offset 0        FileHeader (40 bytes)
//   40              Entry[entry_count] (32 bytes each)
//   toc_end - shared_compressed_size
//                   the shared stream: one raw LZMA2 stream that decodes to
//                   the shared block, which is
//                     the metadata: JSON, {"entries": [[target ID, covered
//                     targets, code object version, ELF e_flags], ...],
//                     "record": the build record, "derived": the record's
//                     fields rebuilt from the entries instead of stored}
//                     then the raw bytes of each representative code object
//   toc_end         delta frames: one zstd frame per code object that is not
//                   a representative, compressed with its representative's
//                   raw bytes as a zstd prefix (ZSTD_CCtx_refPrefix)
//
// A representative is a code object the others of its family differ from by
// little (gfx941 from gfx940, gfx10-3-generic from gfx10-1-generic). The
// shared block is decoded once per process; a load then decodes only its own
// frame (or copies its representative) and checks the code object's hash.
// The table-of-contents hash covers every byte before toc_end; each delta
// frame has its own XXH3-64, checked before zstd reads it, and each code
// object its XXH3-64 (a representative's is checked when the shared block
// is decoded; a delta's output by full verification, e.g. `isapack verify`).
#ifndef ISAPACK_CORE_CATALOG_FORMAT_H_
#define ISAPACK_CORE_CATALOG_FORMAT_H_

#include <cstddef>
#include <cstdint>

namespace isapack::catalog_format {

inline constexpr char kMagic[8] = {'I', 'S', 'A', 'P', 'A', 'C', 'K', 'C'};
inline constexpr uint16_t kFormatVersion = 2;
// A catalog starts at a multiple of this within its section, so readers that
// search a file for one look only there.
inline constexpr uint32_t kAlignment = 64;
// Limits a reader enforces before trusting any size.
inline constexpr uint32_t kMaxEntries = 4096;
inline constexpr uint64_t kMaxCodeObjectSize = uint64_t{64} << 20;
inline constexpr uint64_t kMaxSharedSize = uint64_t{256} << 20;
// The shared stream's codec.
inline constexpr uint8_t kCodecLzma2 = 1;

// The LZMA2 dictionary size of a shared block of `size` bytes: the smallest
// power of two >= size, at least 4 KiB. Writer and reader both derive it.
constexpr uint32_t Lzma2DictionarySize(uint64_t size) {
  uint32_t dictionary = 4096;
  while (dictionary < size && dictionary < (uint32_t{1} << 30)) dictionary <<= 1;
  return dictionary;
}

struct FileHeader {
  char magic[8];                    // kMagic
  uint16_t format_version;          // kFormatVersion
  uint16_t entry_count;             // number of Entry records
  uint32_t total_size;              // bytes of the whole catalog
  uint64_t toc_hash;                // XXH3-64 of bytes [0, toc_end), this field as zero
  uint32_t shared_compressed_size;  // bytes of the shared stream, which ends at toc_end
  uint32_t shared_size;             // bytes of the decoded shared block
  uint32_t metadata_size;           // bytes of JSON at the start of the shared block
  uint8_t shared_codec;             // kCodecLzma2
  uint8_t lzma_properties;          // LZMA lc/lp/pb byte: (pb * 5 + lp) * 9 + lc
  uint16_t zstd_level;              // level the delta frames used
};
static_assert(sizeof(FileHeader) == 40);

struct Entry {
  // The entry whose raw bytes are this one's base; itself for a representative.
  uint16_t representative;
  uint16_t reserved;  // zero
  // A representative: its raw bytes, from the start of the shared block.
  // Any other entry: its zstd delta frame, from the start of the catalog.
  uint32_t offset;
  uint32_t frame_size;     // bytes of the delta frame; 0 for a representative
  uint32_t size;           // bytes of the code object
  uint64_t frame_xxh3_64;  // XXH3-64 of the delta frame; 0 for a representative
  uint64_t xxh3_64;        // XXH3-64 of the code object
};
static_assert(sizeof(Entry) == 32);

}  // namespace isapack::catalog_format

#endif  // ISAPACK_CORE_CATALOG_FORMAT_H_
