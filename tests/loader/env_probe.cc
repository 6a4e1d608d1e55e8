// Loads the HSA runtime the way libisapack does with no explicit path
// (ISAPACK_LIBHSA_PATH, then the system loader) and prints the file it
// loaded, or the error. Statically linked against isapack_core so that a
// setuid copy runs without LD_LIBRARY_PATH or $ORIGIN (the loader ignores
// both for setuid programs). Used by tests/loader/setuid_test.sh.
#include <cstdio>

#include "hsa_library.h"

int main() {
  auto library = isapack::HsaLibrary::Load(nullptr);
  if (!library) {
    std::printf("error: %s\n", library.error().message.c_str());
    return 1;
  }
  std::printf("loaded: %s\n", (*library)->path().c_str());
  return 0;
}
