#include "hsa_library.h"

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace isapack {
namespace {

constexpr const char* kLibraryNames[] = {"libhsa-runtime64.so.1", "libhsa-runtime64.so"};
// Exported by isapack's simulated HSA runtime only.
constexpr const char* kSimulationMarker = "isapack_simulated_hsa_description";

// dlopen, dlinfo and dlclose of the HSA runtime happen under one lock, so
// the loader's view of it is ordered between threads creating devices at
// once (and visibly so to ThreadSanitizer, which cannot see ld.so's lock).
std::mutex& LoaderMutex() {
  static std::mutex mutex;
  return mutex;
}

std::string Hex(unsigned value) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%x", value);
  return text;
}

// The files to try for one configured path: the file itself, or the
// library names inside a directory.
Expected<std::vector<std::string>> CandidatesForPath(const std::string& path, const char* origin) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    return MakeError(ISAPACK_STATUS_HSA_UNAVAILABLE,
                     std::string(origin) + " is '" + path + "', which does not exist (" +
                         std::strerror(errno) +
                         "); point it at libhsa-runtime64.so.1 or its directory");
  }
  if (S_ISDIR(info.st_mode)) {
    std::vector<std::string> files;
    for (const char* name : kLibraryNames) files.push_back(path + "/" + name);
    return files;
  }
  if (!S_ISREG(info.st_mode)) {
    return MakeError(ISAPACK_STATUS_HSA_UNAVAILABLE,
                     std::string(origin) + " is '" + path +
                         "', which is neither a regular file nor a directory; point it at "
                         "libhsa-runtime64.so.1 or its directory");
  }
  return std::vector<std::string>{path};
}

}  // namespace

HsaLibrary::~HsaLibrary() {
  if (handle_ != nullptr) {
    std::lock_guard<std::mutex> lock(LoaderMutex());
    dlclose(handle_);
  }
}

Expected<std::unique_ptr<HsaLibrary>> HsaLibrary::Load(const char* explicit_path) {
  std::vector<std::string> candidates;
  std::string origin;
  if (explicit_path != nullptr && explicit_path[0] != '\0') {
    origin = "the device options' libhsa_path";
    auto files = CandidatesForPath(explicit_path, origin.c_str());
    if (!files) return files.take_error();
    candidates = *files;
  } else if (const char* env = secure_getenv("ISAPACK_LIBHSA_PATH");
             env != nullptr && env[0] != '\0') {
    origin = "ISAPACK_LIBHSA_PATH";
    auto files = CandidatesForPath(env, origin.c_str());
    if (!files) return files.take_error();
    candidates = *files;
  } else {
    origin = "the system loader";
    for (const char* name : kLibraryNames) candidates.emplace_back(name);
  }

  std::unique_ptr<HsaLibrary> library(new HsaLibrary());
  std::lock_guard<std::mutex> lock(LoaderMutex());
  std::string tried;
  for (const std::string& candidate : candidates) {
    dlerror();
    library->handle_ = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library->handle_ != nullptr) break;
    const char* why = dlerror();
    tried += "\n  " + candidate + ": " + (why ? why : "cannot be loaded");
  }
  if (library->handle_ == nullptr) {
    return MakeError(
        ISAPACK_STATUS_HSA_UNAVAILABLE,
        "cannot load the HSA runtime (libhsa-runtime64) through " + origin + "; tried:" + tried +
            "\nInstall it (Debian/Ubuntu: libhsa-runtime64-1; Fedora: rocm-runtime) or set "
            "ISAPACK_LIBHSA_PATH to the library or its directory");
  }

  // The path the loader actually chose.
  link_map* map = nullptr;
  if (dlinfo(library->handle_, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr &&
      map->l_name != nullptr && map->l_name[0] != '\0') {
    library->path_ = map->l_name;
  } else {
    library->path_ = candidates.front();
  }

  std::string missing;
#define ISAPACK_HSA_SYMBOL(name)                                                            \
  library->api_.name = reinterpret_cast<decltype(&::name)>(dlsym(library->handle_, #name)); \
  if (library->api_.name == nullptr) missing += std::string(missing.empty() ? "" : ", ") + #name;
#include "hsa_symbols.def"
#undef ISAPACK_HSA_SYMBOL
  if (!missing.empty()) {
    return MakeError(ISAPACK_STATUS_HSA_UNAVAILABLE,
                     library->path_ + " is not a usable HSA runtime: it lacks " + missing +
                         " (isapack needs ROCr 5.0 or newer)");
  }
  using Describe = const char* (*)();
  if (auto describe = reinterpret_cast<Describe>(dlsym(library->handle_, kSimulationMarker))) {
    library->simulation_ = describe();
    library->simulated_kernel_problem_ = reinterpret_cast<const char* (*)(uint64_t)>(
        dlsym(library->handle_, "isapack_simulated_hsa_kernel_problem"));
  }
  return library;
}

std::string HsaLibrary::SimulatedKernelProblem(uint64_t kernel_object) const {
  if (simulated_kernel_problem_ == nullptr) return {};
  const char* problem = simulated_kernel_problem_(kernel_object);
  return problem == nullptr ? std::string() : std::string(problem);
}

std::string HsaLibrary::Describe(hsa_status_t status) const {
  const char* text = nullptr;
  const std::string_view name = HsaStatusName(status);
  std::string message = std::string(name) + " (" + Hex(status) + ")";
  if (api_.hsa_status_string(status, &text) == HSA_STATUS_SUCCESS && text != nullptr) {
    // ROCr's strings repeat the status name ("HSA_STATUS_ERROR_...: The
    // runtime ..."); say it once.
    std::string_view explanation = text;
    if (explanation.starts_with(name) && explanation.substr(name.size()).starts_with(": ")) {
      explanation.remove_prefix(name.size() + 2);
    }
    message += ": ";
    message += explanation;
  }
  return message;
}

const char* HsaStatusName(hsa_status_t status) {
  switch (status) {
    case HSA_STATUS_SUCCESS:
      return "HSA_STATUS_SUCCESS";
    case HSA_STATUS_INFO_BREAK:
      return "HSA_STATUS_INFO_BREAK";
    case HSA_STATUS_ERROR:
      return "HSA_STATUS_ERROR";
    case HSA_STATUS_ERROR_INVALID_ARGUMENT:
      return "HSA_STATUS_ERROR_INVALID_ARGUMENT";
    case HSA_STATUS_ERROR_INVALID_QUEUE_CREATION:
      return "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION";
    case HSA_STATUS_ERROR_INVALID_ALLOCATION:
      return "HSA_STATUS_ERROR_INVALID_ALLOCATION";
    case HSA_STATUS_ERROR_INVALID_AGENT:
      return "HSA_STATUS_ERROR_INVALID_AGENT";
    case HSA_STATUS_ERROR_INVALID_REGION:
      return "HSA_STATUS_ERROR_INVALID_REGION";
    case HSA_STATUS_ERROR_INVALID_SIGNAL:
      return "HSA_STATUS_ERROR_INVALID_SIGNAL";
    case HSA_STATUS_ERROR_INVALID_QUEUE:
      return "HSA_STATUS_ERROR_INVALID_QUEUE";
    case HSA_STATUS_ERROR_OUT_OF_RESOURCES:
      return "HSA_STATUS_ERROR_OUT_OF_RESOURCES";
    case HSA_STATUS_ERROR_INVALID_PACKET_FORMAT:
      return "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT";
    case HSA_STATUS_ERROR_RESOURCE_FREE:
      return "HSA_STATUS_ERROR_RESOURCE_FREE";
    case HSA_STATUS_ERROR_NOT_INITIALIZED:
      return "HSA_STATUS_ERROR_NOT_INITIALIZED";
    case HSA_STATUS_ERROR_REFCOUNT_OVERFLOW:
      return "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW";
    case HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS:
      return "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS";
    case HSA_STATUS_ERROR_INVALID_INDEX:
      return "HSA_STATUS_ERROR_INVALID_INDEX";
    case HSA_STATUS_ERROR_INVALID_ISA:
      return "HSA_STATUS_ERROR_INVALID_ISA";
    case HSA_STATUS_ERROR_INVALID_CODE_OBJECT:
      return "HSA_STATUS_ERROR_INVALID_CODE_OBJECT";
    case HSA_STATUS_ERROR_INVALID_EXECUTABLE:
      return "HSA_STATUS_ERROR_INVALID_EXECUTABLE";
    case HSA_STATUS_ERROR_FROZEN_EXECUTABLE:
      return "HSA_STATUS_ERROR_FROZEN_EXECUTABLE";
    case HSA_STATUS_ERROR_INVALID_SYMBOL_NAME:
      return "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME";
    case HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED:
      return "HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED";
    case HSA_STATUS_ERROR_VARIABLE_UNDEFINED:
      return "HSA_STATUS_ERROR_VARIABLE_UNDEFINED";
    case HSA_STATUS_ERROR_EXCEPTION:
      return "HSA_STATUS_ERROR_EXCEPTION";
    case HSA_STATUS_ERROR_INVALID_ISA_NAME:
      return "HSA_STATUS_ERROR_INVALID_ISA_NAME";
    case HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER:
      return "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER";
    default:
      return "HSA_STATUS_ERROR (unnamed)";
  }
}

int CheckKfdAccess() {
  return access("/dev/kfd", R_OK | W_OK) == 0 ? 0 : errno;
}

Error DiagnoseInitFailure(const std::string& hsa_error, int kfd_errno) {
  const std::string prefix = "hsa_init failed: " + hsa_error;
  if (kfd_errno == ENOENT) {
    return MakeError(ISAPACK_STATUS_NO_DEVICE,
                     "no AMD GPU kernel driver: /dev/kfd is missing (" + prefix +
                         "). Run on a machine with an AMD GPU and the amdgpu kernel driver loaded");
  }
  if (kfd_errno == EACCES || kfd_errno == EPERM) {
    return MakeError(ISAPACK_STATUS_PERMISSION_DENIED,
                     "/dev/kfd exists but this user cannot open it read-write (" + prefix +
                         "). Add the user to the 'render' and 'video' groups (sudo usermod -aG "
                         "render,video $USER) and log in again");
  }
  if (kfd_errno != 0) {
    return MakeError(ISAPACK_STATUS_NO_DEVICE, "/dev/kfd cannot be opened (" +
                                                   std::string(std::strerror(kfd_errno)) + "; " +
                                                   prefix + ")");
  }
  return MakeError(ISAPACK_STATUS_HSA_ERROR, prefix);
}

}  // namespace isapack
