// What the C API's source files share: the catalog a handle stands for, and
// how a catalog entry is described.
#ifndef ISAPACK_RUNTIME_API_INTERNAL_H_
#define ISAPACK_RUNTIME_API_INTERNAL_H_

#include <memory>

#include "catalog.h"
#include "catalog_source.h"
#include "isapack/isapack.h"

namespace isapack {

// The catalog behind a handle; nullptr for NULL.
std::shared_ptr<const CatalogSource> SourceOf(isapack_catalog_t catalog);

void FillEntryInfo(const CatalogEntry& entry, isapack_catalog_entry_info_t* out_info);

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_API_INTERNAL_H_
