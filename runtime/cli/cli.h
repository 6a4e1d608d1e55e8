// The isapack command: shared pieces of its subcommands.
#ifndef ISAPACK_CLI_CLI_H_
#define ISAPACK_CLI_CLI_H_

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "isapack/isapack.h"

namespace isapack::cli {

// Exit codes (documented in isapack.1).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitSkipped = 77;  // no GPU or no HSA runtime

// Prints a JSON document (2-space indent) and a newline.
void PrintJson(const nlohmann::json& document);
// "isapack: <message>" on stderr.
void PrintError(const std::string& message);

// The build info of the loaded libisapack (isapack_build_info_json()).
nlohmann::json BuildInfo();
// The file libisapack was loaded from.
std::string LibraryPath();

// The line that marks results of the simulated HSA runtime.
std::string SimulationBanner(const char* simulation);

// Subcommands; each returns its exit code.
struct TargetsOptions { bool json = false; };
int RunTargets(const TargetsOptions& options);

struct ExpandOptions {
  std::vector<std::string> selectors;
  std::string mode = "generic";
  std::string code_object_version = "5";
  unsigned llvm = 0;  // 0: this build's LLVM major
  bool strict = false;
  bool json = false;
};
int RunExpand(const ExpandOptions& options);

struct SelectOptions {
  std::vector<std::string> isa_names;
  bool as_listed = false;     // do not add the generic ISA ROCr >= 6.4 lists
  std::string catalog_file;   // select against another file's catalog
  bool json = false;
};
int RunSelect(const SelectOptions& options);

struct DeviceOptions {
  std::string libhsa;  // explicit libhsa-runtime64 path
  uint32_t timeout_ms = 0;
  bool json = false;
};
int RunDevices(const DeviceOptions& options);
int RunSmoke(const DeviceOptions& options);

struct VerifyOptions { bool json = false; };
int RunVerify(const VerifyOptions& options);

struct InspectOptions {
  std::vector<std::string> files;
  bool json = false;
};
int RunInspect(const InspectOptions& options);

std::string VersionText();

}  // namespace isapack::cli

#endif  // ISAPACK_CLI_CLI_H_
