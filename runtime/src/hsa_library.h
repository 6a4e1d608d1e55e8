// Loads the HSA runtime (libhsa-runtime64) with dlopen and resolves every
// entry point libisapack uses (hsa_symbols.def) up front. Nothing links
// against libhsa-runtime64, so packages only recommend it.
//
// Where the library comes from, first match wins:
//   1. an explicit path (file or directory) from the device options;
//   2. ISAPACK_LIBHSA_PATH (file or directory), read with secure_getenv so
//      setuid/setgid programs ignore it;
//   3. the system loader: libhsa-runtime64.so.1, then libhsa-runtime64.so
//      (so /opt/rocm/lib works through LD_LIBRARY_PATH or ld.so.conf).
#ifndef ISAPACK_RUNTIME_HSA_LIBRARY_H_
#define ISAPACK_RUNTIME_HSA_LIBRARY_H_

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <memory>
#include <string>

#include "error.h"

namespace isapack {

// Function pointers with the HSA signatures, one per hsa_symbols.def entry.
struct HsaApi {
#define ISAPACK_HSA_SYMBOL(name) decltype(&::name) name = nullptr;
#include "hsa_symbols.def"
#undef ISAPACK_HSA_SYMBOL
};

class HsaLibrary {
 public:
  ~HsaLibrary();
  HsaLibrary(const HsaLibrary&) = delete;
  HsaLibrary& operator=(const HsaLibrary&) = delete;

  // Loads the library; `explicit_path` may be null or empty.
  static Expected<std::unique_ptr<HsaLibrary>> Load(const char* explicit_path);

  const HsaApi& api() const { return api_; }
  // The file that was loaded.
  const std::string& path() const { return path_; }
  // Non-empty when the library is isapack's simulated HSA runtime (a test
  // double): its self-description. Results from it are not hardware results.
  const std::string& simulation() const { return simulation_; }
  // On the simulated runtime, why a loaded kernel cannot run there (no host
  // build of it was found); empty when it can, and always on a real runtime.
  std::string SimulatedKernelProblem(uint64_t kernel_object) const;

  // "HSA_STATUS_ERROR_OUT_OF_RESOURCES (0x1008): <hsa_status_string text>"
  std::string Describe(hsa_status_t status) const;

 private:
  HsaLibrary() = default;
  void* handle_ = nullptr;
  HsaApi api_;
  std::string path_;
  std::string simulation_;
  const char* (*simulated_kernel_problem_)(uint64_t) = nullptr;
};

// The name of an HSA status code, e.g. "HSA_STATUS_ERROR_INVALID_CODE_OBJECT".
const char* HsaStatusName(hsa_status_t status);

// Why hsa_init failed, for a user: `kfd_errno` is the result of checking
// /dev/kfd (0 when it can be opened read-write, else the errno).
Error DiagnoseInitFailure(const std::string& hsa_error, int kfd_errno);

// Checks /dev/kfd the way the kernel driver will: 0 or an errno.
int CheckKfdAccess();

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_HSA_LIBRARY_H_
