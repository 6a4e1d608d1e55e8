// A device: one GPU agent with isapack's own catalog loaded (through the
// same Executable path as any program's catalog), its fill, copy and probe
// kernels resolved, memory pools found and an AQL queue. Programs load their
// own catalogs on it and dispatch their kernels. Created and destroyed
// explicitly; one thread at a time per device.
#ifndef ISAPACK_RUNTIME_DEVICE_H_
#define ISAPACK_RUNTIME_DEVICE_H_

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "agents.h"
#include "catalog_source.h"
#include "error.h"
#include "executable.h"
#include "hsa_library.h"
#include "isapack/device/kernels.h"
#include "isapack/isapack.h"

namespace isapack {

class Device;

// One dispatch in flight: its completion signal and kernarg memory.
struct Completion {
  Device* device = nullptr;
  const Executable* executable = nullptr;  // whose kernel it runs
  hsa_signal_t signal{};
  void* kernarg = nullptr;
  std::string kernel;
  bool done = false;
};

// The shape of a dispatch: work items per dimension, per workgroup, and
// group memory beyond what the kernel declares.
struct Geometry {
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint16_t, 3> workgroup{1, 1, 1};
  uint32_t dynamic_group_segment_size = 0;
};

class Device {
 public:
  static Expected<std::unique_ptr<Device>> Create(const isapack_device_options_t& options);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  void FillInfo(isapack_device_info_t* info) const;

  Expected<void*> Allocate(size_t size, isapack_memory_kind_t kind);
  Status Free(void* ptr);

  // Loads a catalog on this device; the device owns the result until
  // Unload or its own destruction.
  Expected<Executable*> Load(std::shared_ptr<const CatalogSource> source);
  // Waits (up to the dispatch timeout) for its dispatches still in flight,
  // then unloads it; TIMEOUT, and it stays loaded, when one does not finish.
  Status Unload(Executable* executable);
  // Checks a program's dispatch against the kernel's metadata and this
  // agent's limits, then dispatches it.
  Expected<Completion*> Launch(const LoadedKernel& kernel, const isapack_dispatch_t& dispatch);

  Expected<Completion*> Fill(void* dst, size_t length, uint64_t pattern, uint32_t width);
  Expected<Completion*> Copy(void* dst, const void* src, size_t length);
  Status Wait(Completion* completion, uint32_t timeout_ms);
  void Release(Completion* completion);
  Status Probe(isapack_probe_report_t* report);

  uint32_t dispatch_timeout_ms() const { return dispatch_timeout_ms_; }

 private:
  Device() = default;
  Status Initialize(const isapack_device_options_t& options);
  Status CreateQueue(uint32_t requested_packets);
  Status LoadOwnKernels();
  Status FindMemoryPools();
  LoadTarget Target() const;
  // The grid for `work_items` units of a grid-stride kernel (fill, copy).
  Geometry StrideGeometry(uint64_t work_items) const;
  Expected<Completion*> Dispatch(const LoadedKernel& kernel, const Geometry& geometry,
                                 const void* args, size_t args_size);
  Status WaitForExecutable(const Executable* executable);
  void FreeCompletion(Completion* completion);
  uint16_t WorkgroupSize() const;

  std::unique_ptr<HsaLibrary> hsa_;
  bool hsa_initialized_ = false;
  GpuAgent agent_;
  hsa_agent_t cpu_agent_{};
  std::string isa_names_;
  std::unique_ptr<Executable> own_;  // isapack's own catalog
  std::array<const LoadedKernel*, ISAPACK_KERNEL_COUNT> own_kernels_{};
  hsa_amd_memory_pool_t kernarg_pool_{};
  hsa_amd_memory_pool_t host_pool_{};
  hsa_amd_memory_pool_t device_pool_{};
  bool has_device_pool_ = false;
  hsa_queue_t* queue_ = nullptr;
  uint64_t timestamp_frequency_ = 1000000000;
  uint32_t dispatch_timeout_ms_ = 10000;
  bool disable_retarget_ = false;
  bool queue_stuck_ = false;  // a reserved queue slot could not be written

  std::mutex mutex_;  // guards the containers below
  std::unordered_set<void*> allocations_;
  std::unordered_set<Completion*> completions_;           // every completion not yet freed
  std::vector<std::unique_ptr<Executable>> executables_;  // programs' catalogs
};

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_DEVICE_H_
