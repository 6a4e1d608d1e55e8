// What the C API's source files share: the catalog a handle stands for, and
// how a catalog entry is described.
#ifndef ISAPACK_RUNTIME_API_INTERNAL_H_
#define ISAPACK_RUNTIME_API_INTERNAL_H_

#include <exception>
#include <memory>
#include <new>
#include <string>

#include "catalog.h"
#include "catalog_source.h"
#include "isapack/isapack.h"
#include "status.h"

namespace isapack {

// The catalog behind a handle; nullptr for NULL.
std::shared_ptr<const CatalogSource> SourceOf(isapack_catalog_t catalog);

void FillEntryInfo(const CatalogEntry& entry, isapack_catalog_entry_info_t* out_info);

// INVALID_ARGUMENT "<name> is NULL".
inline isapack_status_t NullArgument(const char* name) {
  return ToStatus(ISAPACK_STATUS_INVALID_ARGUMENT, std::string(name) + " is NULL");
}

// Runs `body`, turning allocation failures into a status instead of letting
// an exception cross the C boundary.
template <typename Body>
isapack_status_t Guard(Body&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return ToStatus(ISAPACK_STATUS_OUT_OF_MEMORY, "out of host memory");
  } catch (const std::exception& e) {
    return ToStatus(ISAPACK_STATUS_INTERNAL, std::string("unexpected error: ") + e.what());
  }
}

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_API_INTERNAL_H_
