#include "embedded_catalog.h"

#include <cstdint>

extern "C" {
// Defined by the catalog accessor isapack_add_device_library generates
// (cmake/device_library/catalog.c.in).
extern const uint8_t isapack_catalog_begin[];
extern const uint8_t isapack_catalog_end[];
}

namespace isapack {

const Expected<Catalog>& EmbeddedCatalog() {
  static const Expected<Catalog> catalog = [] {
    const std::span<const uint8_t> image(
        isapack_catalog_begin, static_cast<size_t>(isapack_catalog_end - isapack_catalog_begin));
    auto parsed = Catalog::Parse(image);
    if (!parsed) {
      return Expected<Catalog>(
          MakeError(ISAPACK_STATUS_DATA_CORRUPT, "the catalog embedded in libisapack is damaged (" +
                                                     parsed.error().message +
                                                     "); reinstall the libisapack package"));
    }
    return parsed;
  }();
  return catalog;
}

}  // namespace isapack
