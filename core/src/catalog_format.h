// The on-disk layout of isapack's embedded catalog: a table of contents and
// one zstd frame per code object. Written by tools/pipeline/pack_catalog.cc at
// build time, embedded in libisapack's .isapack_catalog section, read by
// catalog.cc. All integers are little-endian.
//
//   offset 0     FileHeader (96 bytes)
//   96           Entry[entry_count] (64 bytes each)
//   ...          string table (target IDs, covered targets, build info JSON)
//   64-aligned   zstd dictionary, when the build uses one
//   64-aligned   payloads, each 64-byte aligned
#ifndef ISAPACK_CORE_CATALOG_FORMAT_H_
#define ISAPACK_CORE_CATALOG_FORMAT_H_

#include <cstddef>
#include <cstdint>

namespace isapack::catalog_format {

inline constexpr char kMagic[8] = {'I', 'S', 'A', 'P', 'A', 'C', 'K', 'C'};
inline constexpr uint32_t kFormatVersion = 1;
inline constexpr uint32_t kAlignment = 64;
// Limits a reader enforces before trusting any size.
inline constexpr uint32_t kMaxEntries = 4096;
inline constexpr uint64_t kMaxCodeObjectSize = uint64_t{64} << 20;
// Entry flag: the payload was compressed with the catalog's dictionary.
inline constexpr uint16_t kEntryUsesDictionary = 1;

struct FileHeader {
  char magic[8];            // kMagic
  uint32_t format_version;  // kFormatVersion
  uint32_t header_size;     // sizeof(FileHeader)
  uint32_t entry_count;     // number of Entry records
  uint32_t entry_size;      // sizeof(Entry)
  uint64_t total_size;      // bytes of the whole catalog
  uint64_t strings_offset;  // string table
  uint64_t strings_size;
  uint64_t dictionary_offset;  // zstd dictionary (0 and 0 when none)
  uint64_t dictionary_size;
  uint32_t build_info_offset;  // build info JSON within the string table
  uint32_t build_info_length;
  uint32_t zstd_level;  // compression level the payloads used
  uint32_t reserved0;   // zero
  uint64_t toc_hash;    // XXH3-64 of header (this field zero), entries, strings, dictionary
  uint64_t reserved1;   // zero
};
static_assert(sizeof(FileHeader) == 96);

struct Entry {
  uint32_t target_id_offset;  // code object target ID, within the string table
  uint32_t target_id_length;
  uint32_t covers_offset;  // covered exact target IDs, space separated
  uint32_t covers_length;
  uint32_t e_flags;              // ELF e_flags of the code object
  uint16_t code_object_version;  // 4, 5 or 6
  uint16_t flags;                // kEntryUsesDictionary
  uint64_t payload_offset;       // zstd frame, kAlignment-aligned, from catalog start
  uint64_t compressed_size;      // bytes of the frame
  uint64_t uncompressed_size;    // bytes of the code object
  uint64_t xxh3_64;              // XXH3-64 of the code object
  uint64_t payload_xxh3_64;      // XXH3-64 of the zstd frame, checked before zstd reads it
};
static_assert(sizeof(Entry) == 64);

}  // namespace isapack::catalog_format

#endif  // ISAPACK_CORE_CATALOG_FORMAT_H_
