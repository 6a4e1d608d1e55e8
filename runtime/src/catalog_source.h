// A catalog a program hands libisapack — the one built into libisapack,
// one from isapack_add_device_library, or bytes from memory or a file —
// parsed and checked (bounds, table-of-contents hash) before anything uses
// it, with the bytes it reads kept alive as long as any user holds it. Each
// entry is checked again (frame and code object hashes, ELF header) when a
// device loads it.
#ifndef ISAPACK_RUNTIME_CATALOG_SOURCE_H_
#define ISAPACK_RUNTIME_CATALOG_SOURCE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "catalog.h"
#include "error.h"
#include "input_file.h"

namespace isapack {

// Largest catalog file isapack_catalog_open_file reads.
inline constexpr uint64_t kMaxCatalogFileSize = uint64_t{1} << 30;

class CatalogSource {
 public:
  // The catalog embedded in libisapack.
  static Expected<std::shared_ptr<const CatalogSource>> Builtin();
  // A catalog in memory: copied, unless `borrow` (the caller keeps the
  // bytes alive and unchanged while the catalog is open, as for one linked
  // into the program).
  static Expected<std::shared_ptr<const CatalogSource>> FromMemory(std::span<const uint8_t> bytes,
                                                                   bool borrow);
  // A catalog file, mapped read-only.
  static Expected<std::shared_ptr<const CatalogSource>> FromFile(const std::string& path);

  const Catalog& catalog() const { return catalog_; }
  // Names the catalog in messages: "this build" for the embedded one, else
  // "catalog <library>" (the library its build record names) or the file.
  const std::string& name() const { return name_; }
  bool builtin() const { return builtin_; }
  // What to do when one of its entries turns out damaged.
  std::string DamageFix() const;

  // Decompresses and checks every entry (hashes, ELF header against the
  // entry): what CI runs before shipping a catalog.
  Status VerifyAll() const;

 private:
  CatalogSource() = default;
  static Expected<std::shared_ptr<const CatalogSource>> Parse(std::shared_ptr<CatalogSource> source,
                                                              std::span<const uint8_t> bytes,
                                                              const std::string& where);
  std::vector<uint8_t> owned_;
  std::optional<InputFile> file_;
  Catalog catalog_;
  std::string name_;
  bool builtin_ = false;
};

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_CATALOG_SOURCE_H_
