// The catalog embedded in this library (section .isapack_catalog), parsed
// once on first use.
#ifndef ISAPACK_RUNTIME_EMBEDDED_CATALOG_H_
#define ISAPACK_RUNTIME_EMBEDDED_CATALOG_H_

#include "catalog.h"
#include "error.h"

namespace isapack {

// The parsed embedded catalog, or why it does not parse (a damaged install).
const Expected<Catalog>& EmbeddedCatalog();

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_EMBEDDED_CATALOG_H_
