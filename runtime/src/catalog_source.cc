#include "catalog_source.h"

#include <nlohmann/json.hpp>

#include "code_object.h"
#include "embedded_catalog.h"

namespace isapack {
namespace {

// The library name the catalog's build record gives ("library"), if any.
std::string LibraryOf(const Catalog& catalog) {
  const nlohmann::json record = nlohmann::json::parse(catalog.build_info(), nullptr, false);
  if (!record.is_object()) return {};
  const auto library = record.find("library");
  return library != record.end() && library->is_string() ? library->get<std::string>() : "";
}

}  // namespace

Expected<std::shared_ptr<const CatalogSource>> CatalogSource::Builtin() {
  static const Expected<std::shared_ptr<const CatalogSource>> builtin =
      []() -> Expected<std::shared_ptr<const CatalogSource>> {
    const Expected<Catalog>& embedded = EmbeddedCatalog();
    if (!embedded) return embedded.error();
    std::shared_ptr<CatalogSource> source(new CatalogSource());
    source->catalog_ = *embedded;
    source->name_ = "this build";
    source->builtin_ = true;
    return std::shared_ptr<const CatalogSource>(std::move(source));
  }();
  return builtin;
}

Expected<std::shared_ptr<const CatalogSource>> CatalogSource::Parse(
    std::shared_ptr<CatalogSource> source, std::span<const uint8_t> bytes,
    const std::string& where) {
  auto parsed = Catalog::Parse(bytes);
  if (!parsed) {
    return MakeError(parsed.error().code,
                     where + " is not a usable isapack catalog (" + parsed.error().message + ")");
  }
  source->catalog_ = std::move(*parsed);
  const std::string library = LibraryOf(source->catalog_);
  source->name_ = library.empty() ? where : "catalog " + library;
  return std::shared_ptr<const CatalogSource>(std::move(source));
}

Expected<std::shared_ptr<const CatalogSource>> CatalogSource::FromMemory(
    std::span<const uint8_t> bytes, bool borrow) {
  std::shared_ptr<CatalogSource> source(new CatalogSource());
  if (!borrow) {
    source->owned_.assign(bytes.begin(), bytes.end());
    bytes = source->owned_;
  }
  return Parse(std::move(source), bytes,
               "the catalog in memory (" + std::to_string(bytes.size()) + " bytes)");
}

Expected<std::shared_ptr<const CatalogSource>> CatalogSource::FromFile(const std::string& path) {
  auto file = OpenSingleInputFile(path, kMaxCatalogFileSize, "a catalog file");
  if (!file) return file.take_error();
  std::shared_ptr<CatalogSource> source(new CatalogSource());
  source->file_ = std::move(*file);
  const std::span<const uint8_t> bytes = source->file_->bytes();
  return Parse(std::move(source), bytes, "the catalog file " + path);
}

std::string CatalogSource::DamageFix() const {
  return builtin_ ? "the installed library is damaged: reinstall libisapack"
                  : name_ + " is damaged: rebuild it, or reinstall the package that ships it";
}

Status CatalogSource::VerifyAll() const {
  std::vector<uint8_t> image;
  for (size_t i = 0; i < catalog_.size(); ++i) {
    const CatalogEntry entry = catalog_.entry(i);
    image.resize(entry.uncompressed_size);
    if (Status status = catalog_.Decompress(i, image); !status) {
      return MakeError(status.error().code, name_ + ": " + status.error().message);
    }
    auto header = ReadCodeObjectHeader(image);
    if (!header) {
      return MakeError(ISAPACK_STATUS_DATA_CORRUPT, name_ + ": entry " + std::to_string(i) + " (" +
                                                        std::string(entry.target_id) +
                                                        "): " + header.error().message);
    }
    if (header->flags != entry.e_flags ||
        header->code_object_version != entry.code_object_version) {
      return MakeError(
          ISAPACK_STATUS_DATA_CORRUPT,
          name_ + ": entry " + std::to_string(i) + " (" + std::string(entry.target_id) +
              "): the code object's ELF header does not match its catalog entry; " + DamageFix());
    }
  }
  return {};
}

}  // namespace isapack
