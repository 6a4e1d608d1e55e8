// Finding the AMDGPU device code of files, directories, .deb and .rpm
// archives and installed packages, for `isapack coverage`. Archives are read
// with libarchive, member by member (no install, no root); a member is read
// into memory only when its first bytes say it can carry device code. Every
// input that cannot be read is reported with its path and reason and the
// rest of the scan goes on.
#ifndef ISAPACK_TOOLS_CLI_SCAN_H_
#define ISAPACK_TOOLS_CLI_SCAN_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "input_file.h"

namespace isapack::scan {

// One code object found.
struct FoundObject {
  std::string target_id;            // canonical: "gfx1030", "gfx10-3-generic", "gfx90a:xnack+"
  unsigned generic_version = 0;     // e_flags generic version (0: not generic)
  bool in_isapack_catalog = false;  // libisapack retargets its generic objects for ROCr < 6.4

  friend bool operator==(const FoundObject&, const FoundObject&) = default;
};

struct ScannedFile {
  std::string path;     // as given; archive members "<archive>!/usr/lib/x.so"
  std::string package;  // owning package ("" for loose files)
  uint64_t size = 0;
  std::vector<FoundObject> objects;  // unique, in the order found
  std::vector<std::string> errors;   // "<path>: <reason>"; non-empty: the file was not fully read
};

struct PackageInfo {
  std::string name, version, architecture;
  std::string format;  // "deb", "rpm" (archive files), "dpkg" (--installed)
  std::string source;  // the archive's path, or "dpkg database"
  // X-ROCm-GPU-Architecture (deb) or isapack-gpu(<processor>) provides (rpm),
  // as declared; nullopt when the package declares nothing.
  std::optional<std::vector<std::string>> declared_gpus;
};

struct ScanOptions {
  uint64_t max_file_size = kDefaultMaxFileSize;  // per file and archive member
  unsigned jobs = 0;                             // 0: one per core
  bool progress = false;   // a status line on stderr (the caller checks for a terminal)
  std::string cache_path;  // "" = no cache; results by (path, size, mtime)
};

struct ScanResult {
  std::vector<PackageInfo> packages;  // in input order
  std::vector<ScannedFile> files;     // files with objects or errors, in input order
  std::vector<std::string> errors;    // not tied to one file (a damaged archive)
  uint64_t files_scanned = 0, bytes_scanned = 0;
};

// The device code in one buffer. `where` prefixes its errors.
// `mapped`: the bytes are a read-only mapping of a file (pages read are
// released as the scan goes).
std::vector<FoundObject> FindDeviceCode(std::span<const uint8_t> bytes, const std::string& where,
                                        std::vector<std::string>* errors, bool mapped = false);

// True when bytes start like something that can carry AMDGPU code (ELF,
// offload bundle, compressed bundle, isapack catalog, ar archive).
bool MayCarryDeviceCode(std::span<const uint8_t> head);

// Files and directories; a path ending in .deb or .rpm is read as a package.
ScanResult ScanPaths(const std::vector<std::string>& paths, const ScanOptions& options);

// One input held in memory, named like a path: a name ending in .deb or .rpm
// is read as that package, anything else as one file.
ScanResult ScanPackageBytes(std::span<const uint8_t> bytes, const std::string& name,
                            const ScanOptions& options);

// Every file of every package installed under `root` (dpkg's database).
ScanResult ScanInstalled(const ScanOptions& options, const std::string& root = "/");

// The fields of a package's control file that matter here (Package,
// Version, Architecture, X-ROCm-GPU-Architecture, case-insensitive names).
PackageInfo ParseDebControl(std::string_view control);

// The name, version, architecture and isapack-gpu provides of an .rpm's
// header; every size is bounded by `bytes`.
Expected<PackageInfo> ReadRpmHeader(std::span<const uint8_t> bytes);

}  // namespace isapack::scan

#endif  // ISAPACK_TOOLS_CLI_SCAN_H_
