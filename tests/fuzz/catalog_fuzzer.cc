// libFuzzer target: the embedded catalog reader (header, entries, the shared
// LZMA2 stream and its JSON metadata, zstd delta frames). Each input is read
// twice: as it is, and with its table-of-contents hash resealed, so that
// mutations get past the hash into the shared stream, the metadata and the
// entries' bounds. Every entry of a catalog that parses is decoded into a
// buffer of exactly its recorded size; a decode that succeeds must match the
// recorded hash.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include <xxhash.h>

#include "catalog.h"
#include "catalog_format.h"
#include "catalog_writer.h"

namespace {

void ReadEveryEntry(const std::vector<uint8_t>& image) {
  auto catalog = isapack::Catalog::Parse(image);
  if (!catalog) return;
  (void)catalog->build_info();
  for (size_t i = 0; i < catalog->size(); ++i) {
    const isapack::CatalogEntry entry = catalog->entry(i);
    if (entry.uncompressed_size > (uint64_t{4} << 20)) continue;  // keep the fuzzer fast
    std::vector<uint8_t> out(entry.uncompressed_size);
    if (catalog->Decompress(i, out)) {
      if (XXH3_64bits(out.data(), out.size()) != entry.xxh3_64) std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The catalog is 64-byte aligned in libisapack; so is the copy it reads.
  std::vector<uint8_t> image(data, data + size);
  (void)isapack::FindCatalog(image);
  ReadEveryEntry(image);
  namespace format = isapack::catalog_format;
  if (size < sizeof(format::FileHeader)) return 0;
  format::FileHeader header;
  std::memcpy(&header, data, sizeof(header));
  const uint64_t toc_end = sizeof(header) + uint64_t{header.entry_count} * sizeof(format::Entry) +
                           header.shared_compressed_size;
  // Resealed: only when the table fits, and a shared block of at most 1 MiB
  // (a larger one is refused or allocated the same way; it only slows runs).
  if (toc_end > size || header.shared_size > (uint32_t{1} << 20)) return 0;
  isapack::ResealCatalog(&image);
  ReadEveryEntry(image);
  return 0;
}
