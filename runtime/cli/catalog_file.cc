#include "catalog_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "code_object.h"

namespace isapack::cli {

Expected<std::vector<uint8_t>> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ISAPACK_STATUS_NOT_FOUND, "cannot open " + path + ": " + std::strerror(errno));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return MakeError(ISAPACK_STATUS_NOT_FOUND, "cannot read " + path + ": " + std::strerror(errno));
  return bytes;
}

Status LoadCatalogFile(const std::string& path, CatalogFile* out) {
  auto bytes = ReadWholeFile(path);
  if (!bytes) return bytes.take_error();
  out->bytes = std::move(*bytes);
  std::span<const uint8_t> region = out->bytes;
  if (auto sections = ReadElfSections(out->bytes)) {
    for (const ElfSection& section : *sections) {
      if (section.name == ".isapack_catalog") region = region.subspan(section.offset, section.size);
    }
  }
  auto catalog = FindCatalog(region);
  if (!catalog) return MakeError(catalog.error().code, path + ": " + catalog.error().message);
  out->catalog = *catalog;
  return {};
}

}  // namespace isapack::cli
