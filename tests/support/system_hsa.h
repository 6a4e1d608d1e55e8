// Whether the system's HSA runtime (libhsa-runtime64) can be loaded at all:
// tests of the real runtime's behaviour skip when it is not installed.
#ifndef ISAPACK_TESTS_SUPPORT_SYSTEM_HSA_H_
#define ISAPACK_TESTS_SUPPORT_SYSTEM_HSA_H_

#include "isapack/isapack.h"

namespace isapack::testing {

inline bool SystemHsaRuntimeMissing() {
  isapack_agent_list_t list = nullptr;
  isapack_status_t status = isapack_agent_list_create(nullptr, &list);
  const bool missing = isapack_status_code(status) == ISAPACK_STATUS_HSA_UNAVAILABLE;
  isapack_status_free(status);
  isapack_agent_list_free(list);
  return missing;
}

}  // namespace isapack::testing

#endif  // ISAPACK_TESTS_SUPPORT_SYSTEM_HSA_H_
