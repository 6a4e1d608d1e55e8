// Reads an isapack catalog (catalog_format.h) from memory: the one embedded
// in libisapack, or one found in a file by `isapack inspect`. Parsing checks
// every offset and size and the table of contents' hash before anything is
// trusted; entries are decoded on access without allocating.
#ifndef ISAPACK_CORE_CATALOG_H_
#define ISAPACK_CORE_CATALOG_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "error.h"

struct ZSTD_DDict_s;  // zstd.h

namespace isapack {

// Strings point into the catalog and are NUL-terminated there.
struct CatalogEntry {
  std::string_view target_id;  // "gfx11-generic"
  std::string_view covers;     // "gfx1100 gfx1101 ..."
  uint32_t e_flags = 0;        // ELF e_flags
  unsigned code_object_version = 0;
  bool uses_dictionary = false;
  std::span<const uint8_t> payload;  // the zstd frame
  uint64_t uncompressed_size = 0;
  uint64_t xxh3_64 = 0;          // of the code object
  uint64_t payload_xxh3_64 = 0;  // of the zstd frame
};

class Catalog {
 public:
  Catalog() = default;

  // Validates a catalog image. The image must outlive the Catalog.
  static Expected<Catalog> Parse(std::span<const uint8_t> image);

  size_t size() const { return entry_count_; }
  CatalogEntry entry(size_t index) const;
  std::string_view build_info() const { return build_info_; }
  uint32_t zstd_level() const { return zstd_level_; }
  std::span<const uint8_t> dictionary() const { return dictionary_; }
  std::span<const uint8_t> image() const { return image_; }

  // Decompresses entry `index` into out[0, uncompressed_size): the frame must
  // match its recorded XXH3-64 before zstd reads a byte of it, declare
  // exactly the recorded size (so a damaged frame cannot decompress past it),
  // and the result must match the code object's recorded XXH3-64. Errors name
  // the entry. `out` must hold at least uncompressed_size bytes.
  Status Decompress(size_t index, std::span<uint8_t> out) const;

 private:
  std::span<const uint8_t> image_;
  std::span<const uint8_t> strings_;
  std::span<const uint8_t> dictionary_;
  std::string_view build_info_;
  std::shared_ptr<const ::ZSTD_DDict_s> ddict_;  // the dictionary, digested once
  size_t entry_count_ = 0;
  uint32_t zstd_level_ = 0;
};

// Finds the catalog inside a larger image (a shared library read as a file):
// the first kMagic at a 64-byte aligned offset that parses. Used by
// `isapack inspect`.
Expected<Catalog> FindCatalog(std::span<const uint8_t> image);

// The table-of-contents hash: XXH3-64 of the header (its toc_hash field as
// zero), the entries, the string table and the dictionary, i.e. every byte
// before `toc_end` (the end of the strings or the dictionary, whichever is
// later). With each payload's own hash, every byte a reader uses is covered.
uint64_t TableOfContentsHash(std::span<const uint8_t> image, uint64_t toc_end);

}  // namespace isapack

#endif  // ISAPACK_CORE_CATALOG_H_
