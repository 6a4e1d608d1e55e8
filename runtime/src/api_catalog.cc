// C API: version, build info and the embedded catalog.
#include <cstring>

#include "code_object.h"
#include "embedded_catalog.h"
#include "isapack/isapack.h"
#include "status.h"

namespace isapack {
namespace {

Status CheckIndex(size_t index) {
  const Expected<Catalog>& catalog = EmbeddedCatalog();
  if (!catalog) return catalog.error();
  if (index >= catalog->size()) {
    return MakeError(ISAPACK_STATUS_NOT_FOUND, "catalog entry " + std::to_string(index) +
                                                   " does not exist; the catalog has " +
                                                   std::to_string(catalog->size()) + " entries");
  }
  return {};
}

}  // namespace
}  // namespace isapack

using isapack::EmbeddedCatalog;
using isapack::ToStatus;

extern "C" {

ISAPACK_API const char* isapack_version(void) {
  return ISAPACK_VERSION_STRING;
}

ISAPACK_API const char* isapack_build_info_json(void) {
  const auto& catalog = EmbeddedCatalog();
  return catalog ? catalog->build_info().data() : "{}";
}

ISAPACK_API size_t isapack_catalog_entry_count(void) {
  const auto& catalog = EmbeddedCatalog();
  return catalog ? catalog->size() : 0;
}

ISAPACK_API isapack_status_t isapack_catalog_entry_info(size_t index,
                                                        isapack_catalog_entry_info_t* out_info) {
  if (out_info == nullptr) return ToStatus(ISAPACK_STATUS_INVALID_ARGUMENT, "out_info is NULL");
  if (isapack::Status status = isapack::CheckIndex(index); !status)
    return ToStatus(std::move(status));
  const isapack::CatalogEntry e = EmbeddedCatalog()->entry(index);
  out_info->target_id = e.target_id.data();
  out_info->covers = e.covers.data();
  out_info->code_object_version = e.code_object_version;
  out_info->e_flags = e.e_flags;
  out_info->compressed_size = e.payload.size();
  out_info->uncompressed_size = e.uncompressed_size;
  out_info->xxh3_64 = e.xxh3_64;
  return nullptr;
}

ISAPACK_API isapack_status_t isapack_catalog_entry_extract(size_t index, void* buffer,
                                                           size_t capacity) {
  if (buffer == nullptr) return ToStatus(ISAPACK_STATUS_INVALID_ARGUMENT, "buffer is NULL");
  if (isapack::Status status = isapack::CheckIndex(index); !status)
    return ToStatus(std::move(status));
  const isapack::Catalog& catalog = *EmbeddedCatalog();
  const isapack::CatalogEntry e = catalog.entry(index);
  std::span<uint8_t> out(static_cast<uint8_t*>(buffer), capacity);
  if (isapack::Status status = catalog.Decompress(index, out); !status) {
    return ToStatus(std::move(status));
  }
  auto header = isapack::ReadCodeObjectHeader(out.first(e.uncompressed_size));
  if (!header) return ToStatus(header.take_error());
  if (header->flags != e.e_flags || header->code_object_version != e.code_object_version) {
    return ToStatus(ISAPACK_STATUS_DATA_CORRUPT,
                    "catalog entry " + std::to_string(index) + " (" + std::string(e.target_id) +
                        "): the code object's ELF header does not match its catalog entry");
  }
  return nullptr;
}

}  // extern "C"
