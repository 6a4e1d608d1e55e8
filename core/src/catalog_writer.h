// Builds isapack catalogs (catalog_format.h): the metadata and one
// representative code object per family in one shared LZMA2 stream, every
// other code object as a zstd frame against its representative. Used by the
// build-time packer, the tests, the fuzz seed corpus and the size benchmarks.
#ifndef ISAPACK_CORE_CATALOG_WRITER_H_
#define ISAPACK_CORE_CATALOG_WRITER_H_

#include <cstddef>
#include <cstdint>
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

struct CatalogOptions {
  int zstd_level = 19;  // of the delta frames
  // An input becomes a delta from the representative it differs least from
  // when that delta is at most this share of the input compressed alone;
  // otherwise it becomes a representative itself (a new family).
  double delta_share = 0.25;
};

// What the writer decided and how large each part came out.
struct CatalogPlan {
  std::vector<uint8_t> image;                // the catalog
  std::vector<size_t> representative;        // per input: the input whose raw bytes are its base
  std::vector<size_t> alone_bytes;           // per input: zstd frame of it alone (probe level)
  std::vector<std::vector<uint8_t>> frames;  // per input: its delta frame (empty: a representative)
  std::vector<std::string> derived;          // record fields rebuilt from the entries, not stored
  size_t metadata_bytes = 0;                 // JSON at the start of the shared block
  size_t shared_bytes = 0;                   // the shared block, decoded
  size_t shared_compressed_bytes = 0;        // the shared stream
  unsigned lzma_properties = 0;
};

// Builds a catalog of `inputs` (in order) with the build record `build_info`
// (a JSON object). Deterministic: the same inputs give the same bytes.
// Throws std::runtime_error when an input or the record cannot be stored.
CatalogPlan BuildCatalog(const std::vector<CatalogInput>& inputs, const std::string& build_info,
                         const CatalogOptions& options = {});

// Recomputes the table-of-contents hash of a laid-out catalog (tests that
// damage one field on purpose use it to get past the hash check).
void ResealCatalog(std::vector<uint8_t>* catalog);

}  // namespace isapack

#endif  // ISAPACK_CORE_CATALOG_WRITER_H_
