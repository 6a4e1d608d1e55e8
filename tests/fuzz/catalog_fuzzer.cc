// libFuzzer target: the embedded catalog reader (header, table of contents,
// string table, dictionary, zstd frames). Every entry of a catalog that
// parses is decompressed into a buffer of exactly its recorded size; a
// decompression that succeeds must match the recorded size and hash.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include <xxhash.h>

#include "catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The catalog is 64-byte aligned in libisapack; so is the copy it reads.
  std::vector<uint8_t> image(data, data + size);
  (void)isapack::FindCatalog(image);
  auto catalog = isapack::Catalog::Parse(image);
  if (!catalog) return 0;
  for (size_t i = 0; i < catalog->size(); ++i) {
    const isapack::CatalogEntry entry = catalog->entry(i);
    if (entry.uncompressed_size > (uint64_t{4} << 20)) continue;  // keep the fuzzer fast
    std::vector<uint8_t> out(entry.uncompressed_size);
    if (catalog->Decompress(i, out)) {
      if (XXH3_64bits(out.data(), out.size()) != entry.xxh3_64) std::abort();
    }
  }
  return 0;
}
