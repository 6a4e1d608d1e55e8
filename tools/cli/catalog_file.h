// Finds the isapack catalog in a file's bytes: a libisapack (its
// .isapack_catalog section) or a bare catalog.
#ifndef ISAPACK_CLI_CATALOG_FILE_H_
#define ISAPACK_CLI_CATALOG_FILE_H_

#include <cstdint>
#include <span>
#include <string>

#include "catalog.h"
#include "error.h"

namespace isapack::cli {

// The catalog points into `bytes`; errors name `path`.
Expected<Catalog> CatalogOfFile(std::span<const uint8_t> bytes, const std::string& path);

}  // namespace isapack::cli

#endif  // ISAPACK_CLI_CATALOG_FILE_H_
