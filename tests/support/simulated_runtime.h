// What tests of libisapack's C API on isapack's SIMULATED HSA runtime (a
// test double, tests/simulated_hsa) share: where the simulation is, its
// count of live HSA objects, and taking a status apart.
#ifndef ISAPACK_TESTS_SUPPORT_SIMULATED_RUNTIME_H_
#define ISAPACK_TESTS_SUPPORT_SIMULATED_RUNTIME_H_

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "isapack/isapack.h"
#include "support/test_paths.h"

namespace isapack::testing {

// The simulated runtime this build or installation of the tests uses.
inline const std::string& SimulatedHsaPath() {
  static const std::string path = TestPath("SIMULATED_HSA");
  return path;
}

// The simulation's count of live HSA objects (allocations, signals, queues,
// executables, readers), through our own handle on the library.
inline size_t LiveHsaObjects() {
  static void* handle = dlopen(SimulatedHsaPath().c_str(), RTLD_NOW | RTLD_LOCAL);
  using Count = size_t (*)();
  static auto count = reinterpret_cast<Count>(dlsym(handle, "isapack_simulated_hsa_live_objects"));
  return count();
}

// A status's code and message; the status is freed.
struct Result {
  isapack_status_code_t code;
  std::string message;
};
inline Result Take(isapack_status_t status) {
  Result result{isapack_status_code(status), isapack_status_message(status)};
  isapack_status_free(status);
  return result;
}

}  // namespace isapack::testing

// Asserts that a call returned no status (success), printing the message.
#define ISAPACK_ASSERT_OK(call)                                                \
  do {                                                                         \
    const ::isapack::testing::Result result_ = ::isapack::testing::Take(call); \
    ASSERT_EQ(result_.code, ISAPACK_STATUS_OK) << result_.message;             \
  } while (0)

#endif  // ISAPACK_TESTS_SUPPORT_SIMULATED_RUNTIME_H_
