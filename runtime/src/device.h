// A device: one GPU agent with the matching embedded code object loaded,
// the device library's kernels resolved, memory pools found and an AQL
// queue. Created and destroyed explicitly; one thread at a time per device.
#ifndef ISAPACK_RUNTIME_DEVICE_H_
#define ISAPACK_RUNTIME_DEVICE_H_

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "agents.h"
#include "error.h"
#include "hsa_library.h"
#include "isapack/device/kernels.h"
#include "isapack/isapack.h"

namespace isapack {

class Device;

// One dispatch in flight: its completion signal and kernarg memory.
struct Completion {
  Device* device = nullptr;
  hsa_signal_t signal{};
  void* kernarg = nullptr;
  const char* kernel = "";
  bool done = false;
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

  Expected<Completion*> Fill(void* dst, size_t length, uint64_t pattern, uint32_t width);
  Expected<Completion*> Copy(void* dst, const void* src, size_t length);
  Status Wait(Completion* completion, uint32_t timeout_ms);
  void Release(Completion* completion);
  Status Probe(isapack_probe_report_t* report);

  uint32_t dispatch_timeout_ms() const { return dispatch_timeout_ms_; }

 private:
  struct Kernel {
    uint64_t object = 0;
    uint32_t kernarg_size = 0;
    uint32_t kernarg_alignment = 0;
    uint32_t group_segment_size = 0;
    uint32_t private_segment_size = 0;
  };

  Device() = default;
  Status Initialize(const isapack_device_options_t& options);
  Status CreateQueue(uint32_t requested_packets);
  Status SelectAndLoad();
  Status ResolveKernels();
  Status FindMemoryPools();
  Expected<Completion*> Dispatch(isapack_kernel_id_t kernel, const void* args, size_t args_size,
                                 uint64_t work_items, uint16_t workgroup_size);
  void FreeCompletion(Completion* completion);
  uint16_t WorkgroupSize() const;

  std::unique_ptr<HsaLibrary> hsa_;
  bool hsa_initialized_ = false;
  GpuAgent agent_;
  hsa_agent_t cpu_agent_{};
  size_t catalog_entry_ = 0;
  std::string code_object_;
  std::string selection_trace_;
  std::string isa_names_;
  bool executable_created_ = false;
  hsa_executable_t executable_{};
  std::array<Kernel, ISAPACK_KERNEL_COUNT> kernels_{};
  hsa_amd_memory_pool_t kernarg_pool_{};
  hsa_amd_memory_pool_t host_pool_{};
  hsa_amd_memory_pool_t device_pool_{};
  bool has_device_pool_ = false;
  hsa_queue_t* queue_ = nullptr;
  uint64_t timestamp_frequency_ = 1000000000;
  uint32_t dispatch_timeout_ms_ = 10000;
  bool disable_retarget_ = false;
  bool queue_stuck_ = false;  // a reserved queue slot could not be written

  std::mutex mutex_;  // guards the sets below
  std::unordered_set<void*> allocations_;
  std::unordered_set<Completion*> completions_;  // every completion not yet freed
};

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_DEVICE_H_
