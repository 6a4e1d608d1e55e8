// The catalog of the libisapack this process loaded, copied out of the
// library file (section .isapack_catalog), for tests that damage or reopen it.
#ifndef ISAPACK_TESTS_SUPPORT_LOADED_CATALOG_H_
#define ISAPACK_TESTS_SUPPORT_LOADED_CATALOG_H_

#include <dlfcn.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <vector>

#include "catalog.h"
#include "isapack/isapack.h"

namespace isapack::testing {

inline std::vector<uint8_t> LoadedCatalog() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&isapack_version), &info) == 0 || info.dli_fname == nullptr)
    return {};
  std::ifstream in(info.dli_fname, std::ios::binary);
  const std::vector<uint8_t> file{std::istreambuf_iterator<char>(in),
                                  std::istreambuf_iterator<char>()};
  auto catalog = FindCatalog(file);
  if (!catalog) return {};
  return {catalog->image().begin(), catalog->image().end()};
}

}  // namespace isapack::testing

#endif  // ISAPACK_TESTS_SUPPORT_LOADED_CATALOG_H_
