// The GPUs of this machine and the installed HSA runtime (ROCr), found
// without HSA: `isapack coverage --gpu local` and `isapack targets --local`
// must answer before ROCm is installed, when rocminfo and offload-arch are
// not there yet.
#ifndef ISAPACK_TOOLS_CLI_LOCAL_GPU_H_
#define ISAPACK_TOOLS_CLI_LOCAL_GPU_H_

#include <string>
#include <vector>

#include "error.h"
#include "target_id.h"

namespace isapack::cli {

// One GPU of this machine.
struct LocalGpu {
  TargetId isa;         // its processor; xnack and sramecc "any" (sysfs does not say)
  std::string product;  // the target table's product name ("Radeon 780M"), may be empty
  std::string source;   // where it was read: "KFD topology /sys/class/kfd/kfd/topology/nodes/1"
};

// Reads <sysfs_root>/class/kfd/kfd/topology/nodes/*/properties
// (gfx_target_version, decimal major*10000+minor*100+stepping; CPU nodes have
// 0) and maps each GPU node to its processor by ISA version, in node order.
// An error when no node is a GPU (the amdgpu driver is not loaded: no
// /dev/kfd) or a node's version is not in the target table.
Expected<std::vector<LocalGpu>> DetectLocalGpus(const std::string& sysfs_root = "/sys");

// The installed ROCr release.
struct RocrVersion {
  unsigned version = 0;  // major*100+minor, 0 = none installed
  std::string text;      // "5.2.3", as the source gives it; "" when none
  std::string source;    // where it came from and how it was read
};

// From, in this order: dpkg's database (dpkg-query --root <root>:
// libhsa-runtime64-1 "5.2.3-3" -> 502, or AMD's hsa-rocr "1.15.0.60400-47"
// -> 604), the rpm database (rocm-runtime or hsa-rocr, only when root is
// "/"), <root>/opt/rocm/.info/version ("6.4.0-47"), else the name of
// libhsa-runtime64.so.1.X.Y in the library directories (see RocrFromLibraryName).
RocrVersion InstalledRocr(const std::string& root = "/");

// The ROCr release of a libhsa-runtime64.so.1.<minor>.<patch> file name.
// AMD's builds put the ROCm release in the patch (1.15.60400: 6.4.0);
// source builds (Debian, Fedora) leave it 0, and then the library minor
// tells the release range (ROCR-Runtime's get_version(): 1.5 for ROCm
// 5.0-5.2, 1.7 for 5.3-5.4, 1.8 for 5.5, 1.9 for 5.6, 1.11 for 5.7, 1.12
// for 6.0, 1.13 for 6.1, 1.14 for 6.2-6.3, 1.15 for 6.4, 1.18 for 7.1-7.2),
// taken as its first release. version 0 when the name says nothing.
RocrVersion RocrFromLibraryName(const std::string& path);

}  // namespace isapack::cli

#endif  // ISAPACK_TOOLS_CLI_LOCAL_GPU_H_
