// The isapack command: shared pieces of its subcommands.
#ifndef ISAPACK_CLI_CLI_H_
#define ISAPACK_CLI_CLI_H_

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "isapack/isapack.h"

namespace isapack::cli {

// Exit codes (documented in isapack.1, EXIT STATUS).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;       // nothing matches, a check failed, damage found
inline constexpr int kExitUsage = 2;         // bad option, value, selector or ISA name
inline constexpr int kExitUnreadable = 3;    // some inputs could not be read (the rest were)
inline constexpr int kExitNothingFound = 4;  // every input was read; none carries AMDGPU code
inline constexpr int kExitNotCovered = 5;    // coverage --gpu: no input covers the GPU
inline constexpr int kExitSkipped = 77;      // no GPU or no HSA runtime

// The stable `status` word of an exit code ("ok", "usage_error", ...).
const char* ExitStatusName(int exit_code);

// Prints a JSON document (2-space indent) and a newline.
void PrintJson(const nlohmann::json& document);
// Prints a subcommand's JSON document with the fields every one carries:
// status, exit_code and errors (schema: isapack.1, JSON OUTPUT).
void PrintJsonOutcome(nlohmann::json document, int exit_code,
                      const std::vector<std::string>& errors);
// "isapack: <message>" on stderr.
void PrintError(const std::string& message);
// Ends a subcommand that failed before it had a result: each error on
// stderr and, with --json, a document of only schema, status, exit_code and
// errors on stdout. Returns exit_code.
int Fail(bool json, int exit_code, const std::vector<std::string>& errors);

// The build info of the loaded libisapack (isapack_build_info_json()).
nlohmann::json BuildInfo();
// The file libisapack was loaded from.
std::string LibraryPath();

// The line that marks results of the simulated HSA runtime.
std::string SimulationBanner(const char* simulation);

// Subcommands; each returns its exit code.
struct TargetsOptions {
  std::vector<std::string> names;  // gfx or product names; empty: every processor
  bool local = false;              // also (or only) this machine's GPUs, from the KFD topology
  std::string sysfs = "/sys";      // where --local reads the KFD topology
  bool json = false;
};
int RunTargets(const TargetsOptions& options);

struct ExpandOptions {
  std::vector<std::string> selectors;
  std::string mode = "generic";
  std::string code_object_version = "5";
  bool llvm_given = false;  // false: this build's LLVM major
  unsigned llvm = 0;
  bool strict = false;
  bool json = false;
};
int RunExpand(const ExpandOptions& options);

struct SelectOptions {
  std::vector<std::string> isa_names;
  bool as_listed = false;    // do not add the generic ISA ROCr >= 6.4 lists
  std::string catalog_file;  // select against another file's catalog
  uint64_t max_file_size = 0;
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

struct VerifyOptions {
  bool json = false;
};
int RunVerify(const VerifyOptions& options);

struct InspectOptions {
  std::vector<std::string> files;  // files or directories
  uint64_t max_file_size = 0;
  bool json = false;
};
int RunInspect(const InspectOptions& options);

struct CoverageOptions {
  std::vector<std::string> paths;  // files, directories, .deb and .rpm packages
  std::string files_from;          // more paths, one per line ("-": stdin)
  bool installed = false;          // every installed package (dpkg)
  std::string root = "/";          // of --installed
  std::vector<std::string> gpus;   // GPU names, product names or "local"
  std::string sysfs = "/sys";      // for --gpu local
  std::string rocr;                // MAJOR.MINOR; default: the installed ROCr
  std::string require;             // selectors every package must cover
  bool check_metadata = false;     // declared GPU lists against the binaries
  std::string field;               // debian | rpm: print the package field and stop
  std::string html;                // also write the matrix as a page
  unsigned jobs = 0;
  bool no_cache = false;
  uint64_t max_file_size = 0;
  bool json = false;
};
int RunCoverage(const CoverageOptions& options);

std::string VersionText();

}  // namespace isapack::cli

#endif  // ISAPACK_CLI_CLI_H_
