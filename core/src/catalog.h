// Reads an isapack catalog (catalog_format.h) from memory: the one embedded
// in libisapack, or one found in a file by `isapack inspect`. Parsing checks
// every offset and size and the table of contents' hash before anything is
// trusted, then decodes the shared block (metadata and representatives) once;
// entries are decoded on access without allocating.
#ifndef ISAPACK_CORE_CATALOG_H_
#define ISAPACK_CORE_CATALOG_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "error.h"
#include "target_id.h"

namespace isapack {

// Strings are NUL-terminated and live as long as the Catalog (or a copy).
struct CatalogEntry {
  std::string_view target_id;  // "gfx11-generic"
  std::string_view covers;     // "gfx1100 gfx1101 ..."
  // target_id parsed once, when the catalog is; no processor and no generic
  // when this isapack does not know the target.
  TargetId target;
  uint32_t e_flags = 0;  // ELF e_flags
  unsigned code_object_version = 0;
  // The entry's representative within the decoded shared block; for a
  // representative itself, the code object.
  std::span<const uint8_t> base;
  std::span<const uint8_t> frame;   // the zstd delta frame; empty for a representative
  uint64_t frame_xxh3_64 = 0;       // of the frame
  size_t representative_index = 0;  // the entry whose bytes `base` are
  uint64_t uncompressed_size = 0;
  uint64_t xxh3_64 = 0;  // of the code object
  bool representative() const { return frame.empty(); }
  // Bytes the catalog stores for this entry alone (its delta frame).
  uint64_t stored_size() const { return frame.size(); }
};

class Catalog {
 public:
  Catalog() = default;

  // Validates a catalog image and decodes its shared block. The image must
  // outlive the Catalog.
  static Expected<Catalog> Parse(std::span<const uint8_t> image);

  size_t size() const { return decoded_ ? decoded_->entries.size() : 0; }
  const CatalogEntry& entry(size_t index) const { return decoded_->entries[index]; }
  // The build record, complete (fields the catalog derives are rebuilt).
  std::string_view build_info() const { return decoded_->build_info; }
  uint32_t zstd_level() const { return zstd_level_; }
  std::span<const uint8_t> image() const { return image_; }
  // The compressed shared stream and the block it decodes to.
  std::span<const uint8_t> shared_stream() const { return shared_stream_; }
  std::span<const uint8_t> shared_block() const { return decoded_->shared; }

  // Decodes entry `index` into out[0, uncompressed_size) and verifies it
  // fully (tools, extract, verify): a representative is copied from the
  // shared block (its XXH3-64 was checked when the catalog was parsed); a
  // delta frame must match its XXH3-64 before zstd reads a byte of it,
  // declare exactly the recorded size (so a damaged frame cannot decompress
  // past it) and fill it, and the result must match the code object's
  // XXH3-64. Errors name the entry. `out` must hold at least
  // uncompressed_size bytes. Does not allocate.
  Status Decompress(size_t index, std::span<uint8_t> out) const;
  // The load path, into `out` sized to the code object: the same checks
  // except the hash of a delta's output, which follows from its frame's and
  // its representative's (zstd decodes deterministically) and costs as much
  // as a quarter of the load. A representative is copied in without first
  // zero-filling the buffer.
  Status DecodeTo(size_t index, std::vector<uint8_t>* out) const;

 private:
  Status Decode(size_t index, std::span<uint8_t> out, bool check_output) const;
  struct Decoded {
    std::vector<uint8_t> shared;
    std::vector<std::string> strings;  // target IDs and covers, kept for the views
    std::vector<CatalogEntry> entries;
    std::string build_info;
  };
  std::span<const uint8_t> image_;
  std::span<const uint8_t> shared_stream_;
  std::shared_ptr<const Decoded> decoded_;
  uint32_t zstd_level_ = 0;
};

// Finds the catalog inside a larger image (a shared library read as a file):
// the first kMagic at a 64-byte aligned offset that parses. Used by
// `isapack inspect`.
Expected<Catalog> FindCatalog(std::span<const uint8_t> image);

// The table-of-contents hash: XXH3-64 of every byte before `toc_end` (the
// header, the entries and the shared stream) with the header's toc_hash
// field as zero. With each frame's check, every byte a reader uses is
// covered.
uint64_t TableOfContentsHash(std::span<const uint8_t> image, uint64_t toc_end);

}  // namespace isapack

#endif  // ISAPACK_CORE_CATALOG_H_
