// Builds isapack catalogs (catalog_format.h): one zstd frame per code object,
// optionally with a trained dictionary. Used by the build-time packer, the
// tests, the fuzz seed corpus and the size benchmarks.
#ifndef ISAPACK_CORE_CATALOG_WRITER_H_
#define ISAPACK_CORE_CATALOG_WRITER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace isapack {

struct CatalogInput {
  std::string target_id;             // code object target ID
  std::string covers;                // covered exact target IDs, space separated
  unsigned code_object_version = 0;  // 4, 5 or 6
  uint32_t e_flags = 0;              // ELF e_flags
  std::vector<uint8_t> bytes;        // the code object
};

struct CatalogEncoding {
  int level = 0;
  std::vector<uint8_t> dictionary;           // empty: none
  std::vector<std::vector<uint8_t>> frames;  // one zstd frame per input
  size_t total() const;                      // dictionary plus frames
};

// Compresses each input as one frame (content size recorded, no checksum,
// no dictionary ID). Throws std::runtime_error when zstd fails.
CatalogEncoding EncodeCatalog(const std::vector<CatalogInput>& inputs, int level,
                              std::vector<uint8_t> dictionary = {});

// Trains a dictionary of at most `capacity` bytes on the inputs; nullopt with
// zstd's reason when the set is too small or too uniform.
std::optional<std::vector<uint8_t>> TrainDictionary(const std::vector<CatalogInput>& inputs,
                                                    size_t capacity, std::string* reason);

// Lays out header, entries, strings, dictionary and 64-byte aligned payloads.
std::vector<uint8_t> LayoutCatalog(const std::vector<CatalogInput>& inputs,
                                   const CatalogEncoding& encoding, const std::string& build_info);

// Recomputes the table-of-contents hash of a laid-out catalog (tests that
// damage one field on purpose use it to get past the hash check).
void ResealCatalog(std::vector<uint8_t>* catalog);

}  // namespace isapack

#endif  // ISAPACK_CORE_CATALOG_WRITER_H_
