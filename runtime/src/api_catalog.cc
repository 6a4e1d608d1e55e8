// C API: version, build info, the embedded catalog and catalog handles.
#include <cstring>
#include <memory>
#include <new>

#include "api_internal.h"
#include "catalog_source.h"
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

void FillEntryInfo(const CatalogEntry& e, isapack_catalog_entry_info_t* out_info) {
  out_info->target_id = e.target_id.data();
  out_info->covers = e.covers.data();
  out_info->code_object_version = e.code_object_version;
  out_info->e_flags = e.e_flags;
  out_info->compressed_size = e.stored_size();
  out_info->uncompressed_size = e.uncompressed_size;
  out_info->xxh3_64 = e.xxh3_64;
}

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
  if (out_info == nullptr) return isapack::NullArgument("out_info");
  if (isapack::Status status = isapack::CheckIndex(index); !status)
    return ToStatus(std::move(status));
  isapack::FillEntryInfo(EmbeddedCatalog()->entry(index), out_info);
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

// --- Catalog handles ---------------------------------------------------------

struct isapack_catalog_s {
  std::shared_ptr<const isapack::CatalogSource> source;
};

namespace {

isapack_status_t OpenCatalog(
    isapack::Expected<std::shared_ptr<const isapack::CatalogSource>> source,
    isapack_catalog_t* out_catalog) {
  if (!source) return ToStatus(source.take_error());
  *out_catalog = new isapack_catalog_s{std::move(*source)};
  return nullptr;
}

}  // namespace

extern "C" {

ISAPACK_API isapack_status_t isapack_catalog_open_builtin(isapack_catalog_t* out_catalog) {
  if (out_catalog == nullptr) return isapack::NullArgument("out_catalog");
  *out_catalog = nullptr;
  return isapack::Guard(
      [&] { return OpenCatalog(isapack::CatalogSource::Builtin(), out_catalog); });
}

ISAPACK_API isapack_status_t isapack_catalog_open_memory(const void* data, size_t size,
                                                         uint32_t flags,
                                                         isapack_catalog_t* out_catalog) {
  if (out_catalog == nullptr) return isapack::NullArgument("out_catalog");
  *out_catalog = nullptr;
  if (data == nullptr) return isapack::NullArgument("data");
  if ((flags & ~ISAPACK_CATALOG_BORROW) != 0) {
    return ToStatus(ISAPACK_STATUS_INVALID_ARGUMENT,
                    "flags has unknown bits " + std::to_string(flags & ~ISAPACK_CATALOG_BORROW) +
                        "; the only flag is ISAPACK_CATALOG_BORROW");
  }
  return isapack::Guard([&] {
    return OpenCatalog(isapack::CatalogSource::FromMemory(
                           std::span<const uint8_t>(static_cast<const uint8_t*>(data), size),
                           (flags & ISAPACK_CATALOG_BORROW) != 0),
                       out_catalog);
  });
}

ISAPACK_API isapack_status_t isapack_catalog_open_file(const char* path,
                                                       isapack_catalog_t* out_catalog) {
  if (out_catalog == nullptr) return isapack::NullArgument("out_catalog");
  *out_catalog = nullptr;
  if (path == nullptr) return isapack::NullArgument("path");
  return isapack::Guard(
      [&] { return OpenCatalog(isapack::CatalogSource::FromFile(path), out_catalog); });
}

ISAPACK_API void isapack_catalog_close(isapack_catalog_t catalog) {
  delete catalog;
}

ISAPACK_API size_t isapack_catalog_size(isapack_catalog_t catalog) {
  return catalog == nullptr ? 0 : catalog->source->catalog().size();
}

ISAPACK_API isapack_status_t isapack_catalog_describe(isapack_catalog_t catalog, size_t index,
                                                      isapack_catalog_entry_info_t* out_info) {
  if (catalog == nullptr) return isapack::NullArgument("catalog");
  if (out_info == nullptr) return isapack::NullArgument("out_info");
  const isapack::Catalog& parsed = catalog->source->catalog();
  if (index >= parsed.size()) {
    return ToStatus(ISAPACK_STATUS_NOT_FOUND, "catalog entry " + std::to_string(index) +
                                                  " does not exist; " + catalog->source->name() +
                                                  " has " + std::to_string(parsed.size()) +
                                                  " entries");
  }
  isapack::FillEntryInfo(parsed.entry(index), out_info);
  return nullptr;
}

ISAPACK_API const char* isapack_catalog_build_info_json(isapack_catalog_t catalog) {
  if (catalog == nullptr) return "{}";
  const std::string_view info = catalog->source->catalog().build_info();
  return info.empty() ? "{}" : info.data();
}

ISAPACK_API isapack_status_t isapack_catalog_verify(isapack_catalog_t catalog) {
  if (catalog == nullptr) return isapack::NullArgument("catalog");
  return isapack::Guard([&] { return ToStatus(catalog->source->VerifyAll()); });
}

}  // extern "C"

std::shared_ptr<const isapack::CatalogSource> isapack::SourceOf(isapack_catalog_t catalog) {
  return catalog == nullptr ? nullptr : catalog->source;
}
