#include "catalog_file.h"

#include "code_object.h"

namespace isapack::cli {

Expected<Catalog> CatalogOfFile(std::span<const uint8_t> bytes, const std::string& path) {
  std::span<const uint8_t> region = bytes;
  if (auto sections = ReadElfSections(bytes)) {
    for (const ElfSection& section : *sections) {
      if (section.name == ".isapack_catalog") region = bytes.subspan(section.offset, section.size);
    }
  }
  auto catalog = FindCatalog(region);
  if (!catalog) return MakeError(catalog.error().code, path + ": " + catalog.error().message);
  return catalog;
}

}  // namespace isapack::cli
