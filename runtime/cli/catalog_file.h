// Reads the isapack catalog of a file: a libisapack (its .isapack_catalog
// section) or a bare catalog.
#ifndef ISAPACK_CLI_CATALOG_FILE_H_
#define ISAPACK_CLI_CATALOG_FILE_H_

#include <string>
#include <vector>

#include "catalog.h"
#include "error.h"

namespace isapack::cli {

struct CatalogFile {
  std::vector<uint8_t> bytes;  // the file; the catalog points into it
  Catalog catalog;
};

Expected<std::vector<uint8_t>> ReadWholeFile(const std::string& path);
Status LoadCatalogFile(const std::string& path, CatalogFile* out);

}  // namespace isapack::cli

#endif  // ISAPACK_CLI_CATALOG_FILE_H_
