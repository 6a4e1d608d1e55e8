#include "device.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <thread>

#include "isapack/device/dispatch_packet.h"
#include "isapack/device/kernel_args.h"
#include "selection.h"

namespace isapack {
namespace {

// Kernels read the dispatch packet through the device ABI's mirror of it.
static_assert(sizeof(isapack_dispatch_packet_t) == sizeof(hsa_kernel_dispatch_packet_t));
static_assert(offsetof(isapack_dispatch_packet_t, workgroup_size_x) ==
              offsetof(hsa_kernel_dispatch_packet_t, workgroup_size_x));
static_assert(offsetof(isapack_dispatch_packet_t, grid_size_x) ==
              offsetof(hsa_kernel_dispatch_packet_t, grid_size_x));
static_assert(offsetof(isapack_dispatch_packet_t, kernarg_address) ==
              offsetof(hsa_kernel_dispatch_packet_t, kernarg_address));
static_assert(offsetof(isapack_dispatch_packet_t, completion_signal) ==
              offsetof(hsa_kernel_dispatch_packet_t, completion_signal));

constexpr uint32_t kDefaultQueuePackets = 64;
constexpr uint32_t kDefaultTimeoutMs = 10000;
// Kernels loop grid-stride, so a bounded grid covers any length.
constexpr uint64_t kMaxGridItems = uint64_t{1} << 22;

using Clock = std::chrono::steady_clock;

Error Hsa(const HsaLibrary& hsa, const std::string& what, hsa_status_t status) {
  return MakeError(ISAPACK_STATUS_HSA_ERROR, what + " failed: " + hsa.Describe(status));
}

struct PoolSearch {
  const HsaApi* api;
  bool want_kernarg;
  uint32_t want_flag;
  hsa_amd_memory_pool_t found{};
  bool has = false;
};

hsa_status_t FindPool(hsa_amd_memory_pool_t pool, void* data) {
  auto* search = static_cast<PoolSearch*>(data);
  hsa_amd_segment_t segment;
  uint32_t flags = 0;
  bool allowed = false;
  if (search->api->hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment) !=
          HSA_STATUS_SUCCESS ||
      segment != HSA_AMD_SEGMENT_GLOBAL ||
      search->api->hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS,
                                                &flags) != HSA_STATUS_SUCCESS ||
      search->api->hsa_amd_memory_pool_get_info(
          pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &allowed) != HSA_STATUS_SUCCESS ||
      !allowed) {
    return HSA_STATUS_SUCCESS;
  }
  const bool match = search->want_kernarg
                         ? (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) != 0
                         : (flags & search->want_flag) != 0;
  if (match && !search->has) {
    search->found = pool;
    search->has = true;
  }
  return HSA_STATUS_SUCCESS;
}

// The work units the fill and copy kernels split a buffer into: 16-byte
// aligned blocks plus the bytes of the unaligned head and tail.
uint64_t WorkUnits(uintptr_t address, uint64_t length, bool wide) {
  if (!wide) return length;
  const uint64_t head = std::min<uint64_t>((16 - (address & 15)) & 15, length);
  const uint64_t blocks = (length - head) / 16;
  return blocks + (length - blocks * 16);
}

// The GPU agent the options name (by UUID, else by ordinal), or an error
// listing the agents there are.
Expected<const GpuAgent*> ChooseAgent(const AgentSet& agents,
                                      const isapack_device_options_t& options,
                                      const std::string& hsa_path) {
  if (agents.gpus.empty()) {
    return MakeError(
        ISAPACK_STATUS_NO_DEVICE,
        "the HSA runtime (" + hsa_path +
            ") reports no GPU agent; if this machine has an AMD GPU, this ROCr may be too old "
            "for it (Debian 12's ROCr 5.2.3 knows GPUs up to gfx1035)");
  }
  if (!agents.has_cpu)
    return MakeError(ISAPACK_STATUS_HSA_ERROR, "the HSA runtime reports no CPU agent");
  std::string available;
  for (const GpuAgent& gpu : agents.gpus) {
    available += (available.empty() ? "" : ", ") + std::to_string(gpu.ordinal) + ": " + gpu.uuid +
                 " (" + gpu.name + ")";
  }
  if (options.agent_uuid != nullptr && options.agent_uuid[0] != '\0') {
    for (const GpuAgent& gpu : agents.gpus) {
      if (gpu.uuid == options.agent_uuid) return &gpu;
    }
    return MakeError(ISAPACK_STATUS_NOT_FOUND, "no GPU agent has UUID '" +
                                                   std::string(options.agent_uuid) +
                                                   "'; the agents are " + available);
  }
  if (options.agent_ordinal < agents.gpus.size()) return &agents.gpus[options.agent_ordinal];
  return MakeError(ISAPACK_STATUS_NOT_FOUND, "GPU agent ordinal " +
                                                 std::to_string(options.agent_ordinal) +
                                                 " does not exist; the agents are " + available);
}

}  // namespace

Expected<std::unique_ptr<Device>> Device::Create(const isapack_device_options_t& options) {
  std::unique_ptr<Device> device(new Device());
  Status status = device->Initialize(options);
  if (!status) return status.take_error();
  return device;
}

Status Device::Initialize(const isapack_device_options_t& options) {
  dispatch_timeout_ms_ =
      options.dispatch_timeout_ms ? options.dispatch_timeout_ms : kDefaultTimeoutMs;
  disable_retarget_ = options.disable_retarget != 0;
  auto library = HsaLibrary::Load(options.libhsa_path);
  if (!library) return library.take_error();
  hsa_ = std::move(*library);
  if (Status status = InitializeHsa(*hsa_); !status) return status;
  hsa_initialized_ = true;

  auto agents = EnumerateAgents(*hsa_);
  if (!agents) return agents.take_error();
  auto chosen = ChooseAgent(*agents, options, hsa_->path());
  if (!chosen) return chosen.take_error();
  agent_ = **chosen;
  cpu_agent_ = agents->cpu;
  for (const std::string& name : agent_.isa_names)
    isa_names_ += (isa_names_.empty() ? "" : " ") + name;

  if (Status status = LoadOwnKernels(); !status) return status;
  if (Status status = FindMemoryPools(); !status) return status;

  if (Status status = CreateQueue(options.queue_packets); !status) return status;
  uint64_t frequency = 0;
  if (hsa_->api().hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &frequency) ==
          HSA_STATUS_SUCCESS &&
      frequency != 0) {
    timestamp_frequency_ = frequency;
  }
  return {};
}

Status Device::CreateQueue(uint32_t requested_packets) {
  uint32_t packets = requested_packets ? requested_packets : kDefaultQueuePackets;
  if (agent_.queue_max_size != 0) packets = std::min(packets, agent_.queue_max_size);
  if (packets == 0 || (packets & (packets - 1)) != 0) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     "queue_packets is " + std::to_string(packets) + "; use a power of two");
  }
  hsa_status_t status =
      hsa_->api().hsa_queue_create(agent_.agent, packets, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr,
                                   UINT32_MAX, UINT32_MAX, &queue_);
  if (status != HSA_STATUS_SUCCESS) {
    queue_ = nullptr;
    return Hsa(*hsa_, "creating an AQL queue on " + agent_.name, status);
  }
  return {};
}

LoadTarget Device::Target() const {
  return {hsa_.get(), &agent_, isa_names_, RetargetAllowed(!disable_retarget_), this};
}

// isapack's own catalog, loaded as any program's is, and its three kernels
// looked up by name; each must take exactly the argument struct this
// libisapack passes.
Status Device::LoadOwnKernels() {
  auto source = CatalogSource::Builtin();
  if (!source) return source.take_error();
  auto loaded = Executable::Load(Target(), *source);
  if (!loaded) return loaded.take_error();
  own_ = std::move(*loaded);
  for (int i = 0; i < ISAPACK_KERNEL_COUNT; ++i) {
    auto kernel = own_->FindKernel(isapack_kernel_names[i]);
    if (!kernel) return kernel.take_error();
    if ((*kernel)->kernarg_size != isapack_kernel_args_sizes[i]) {
      return MakeError(ISAPACK_STATUS_LOAD_REJECTED,
                       std::string("kernel ") + isapack_kernel_names[i] + " takes " +
                           std::to_string((*kernel)->kernarg_size) +
                           " bytes of arguments but this libisapack passes " +
                           std::to_string(isapack_kernel_args_sizes[i]) +
                           "; the code object is not this build's");
    }
    own_kernels_[i] = *kernel;
  }
  return {};
}

Expected<Executable*> Device::Load(std::shared_ptr<const CatalogSource> source) {
  auto loaded = Executable::Load(Target(), std::move(source));
  if (!loaded) return loaded.take_error();
  Executable* executable = loaded->get();
  std::lock_guard<std::mutex> lock(mutex_);
  executables_.push_back(std::move(*loaded));
  return executable;
}

Status Device::WaitForExecutable(const Executable* executable) {
  std::vector<Completion*> running;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (Completion* completion : completions_) {
      if (completion->executable == executable && !completion->done) running.push_back(completion);
    }
  }
  const auto deadline = Clock::now() + std::chrono::milliseconds(dispatch_timeout_ms_);
  for (Completion* completion : running) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    Status waited = Wait(completion, static_cast<uint32_t>(std::max<int64_t>(left, 1)));
    if (!waited) {
      return MakeError(ISAPACK_STATUS_TIMEOUT, "cannot unload " + executable->code_object() +
                                                   ": its " + completion->kernel + " dispatch on " +
                                                   agent_.name + " is still running after " +
                                                   std::to_string(dispatch_timeout_ms_) +
                                                   " ms; it stays loaded");
    }
  }
  return {};
}

Status Device::Unload(Executable* executable) {
  if (Status waited = WaitForExecutable(executable); !waited) return waited;
  std::unique_ptr<Executable> unloaded;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = executables_.begin(); it != executables_.end(); ++it) {
      if (it->get() != executable) continue;
      unloaded = std::move(*it);
      executables_.erase(it);
      break;
    }
    // Finished completions of it that the caller still holds no longer
    // name its kernels.
    for (Completion* completion : completions_) {
      if (completion->executable == executable) completion->executable = nullptr;
    }
  }
  if (unloaded == nullptr) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     "the executable was not loaded on this device, or was unloaded already");
  }
  return {};
}

Status Device::FindMemoryPools() {
  const HsaApi& api = hsa_->api();
  PoolSearch kernarg{&api, true, 0};
  PoolSearch host{&api, false, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED};
  PoolSearch local{&api, false, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED};
  for (PoolSearch* search : {&kernarg, &host}) {
    hsa_status_t status = api.hsa_amd_agent_iterate_memory_pools(cpu_agent_, FindPool, search);
    if (status != HSA_STATUS_SUCCESS) return Hsa(*hsa_, "listing host memory pools", status);
  }
  hsa_status_t status = api.hsa_amd_agent_iterate_memory_pools(agent_.agent, FindPool, &local);
  if (status != HSA_STATUS_SUCCESS) return Hsa(*hsa_, "listing device memory pools", status);
  if (!host.has)
    return MakeError(ISAPACK_STATUS_HSA_ERROR,
                     "the HSA runtime offers no fine-grained host memory pool");
  kernarg_pool_ = kernarg.has ? kernarg.found : host.found;
  host_pool_ = host.found;
  device_pool_ = local.found;
  has_device_pool_ = local.has;
  return {};
}

Device::~Device() {
  const HsaApi* api = hsa_ ? &hsa_->api() : nullptr;
  // Let dispatches still in flight finish (up to one timeout in all) before
  // their memory goes away.
  const auto deadline = Clock::now() + std::chrono::milliseconds(dispatch_timeout_ms_);
  for (Completion* completion : completions_) {
    if (completion->done || completion->signal.handle == 0) continue;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left > 0) (void)Wait(completion, static_cast<uint32_t>(left));
  }
  if (queue_ != nullptr) api->hsa_queue_destroy(queue_);
  for (Completion* completion : completions_) {
    if (completion->kernarg != nullptr) api->hsa_amd_memory_pool_free(completion->kernarg);
    if (completion->signal.handle != 0) api->hsa_signal_destroy(completion->signal);
    delete completion;
  }
  for (void* ptr : allocations_) api->hsa_amd_memory_pool_free(ptr);
  executables_.clear();
  own_.reset();
  if (hsa_initialized_) api->hsa_shut_down();
}

void Device::FillInfo(isapack_device_info_t* info) const {
  info->agent_name = agent_.name.c_str();
  info->product_name = agent_.product.c_str();
  info->uuid = agent_.uuid.c_str();
  info->isa_names = isa_names_.c_str();
  info->code_object = own_->code_object().c_str();
  info->catalog_entry = own_->catalog_entry();
  info->selection_trace = own_->selection_trace().c_str();
  info->hsa_library = hsa_->path().c_str();
  info->simulation = hsa_->simulation().empty() ? nullptr : hsa_->simulation().c_str();
  info->agent_ordinal = agent_.ordinal;
  info->wavefront_size = agent_.wavefront_size;
}

Expected<void*> Device::Allocate(size_t size, isapack_memory_kind_t kind) {
  if (size == 0) return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT, "cannot allocate 0 bytes");
  if (kind != ISAPACK_MEMORY_HOST_VISIBLE && kind != ISAPACK_MEMORY_DEVICE_LOCAL) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     "unknown memory kind " + std::to_string(kind));
  }
  if (kind == ISAPACK_MEMORY_DEVICE_LOCAL && !has_device_pool_) {
    return MakeError(ISAPACK_STATUS_NOT_FOUND, agent_.name + " has no device-local memory pool");
  }
  const HsaApi& api = hsa_->api();
  void* ptr = nullptr;
  const hsa_amd_memory_pool_t pool =
      kind == ISAPACK_MEMORY_HOST_VISIBLE ? host_pool_ : device_pool_;
  hsa_status_t status = api.hsa_amd_memory_pool_allocate(pool, size, 0, &ptr);
  if (status != HSA_STATUS_SUCCESS) {
    return MakeError(ISAPACK_STATUS_OUT_OF_MEMORY, "allocating " + std::to_string(size) +
                                                       " bytes failed: " + hsa_->Describe(status));
  }
  if (kind == ISAPACK_MEMORY_HOST_VISIBLE) {
    status = api.hsa_amd_agents_allow_access(1, &agent_.agent, nullptr, ptr);
    if (status != HSA_STATUS_SUCCESS) {
      api.hsa_amd_memory_pool_free(ptr);
      return Hsa(*hsa_, "granting " + agent_.name + " access to host memory", status);
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  allocations_.insert(ptr);
  return ptr;
}

Status Device::Free(void* ptr) {
  if (ptr == nullptr) return {};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (allocations_.erase(ptr) == 0) {
      return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                       "this device did not allocate the pointer passed to free");
    }
  }
  hsa_->api().hsa_amd_memory_pool_free(ptr);
  return {};
}

uint16_t Device::WorkgroupSize() const {
  const uint32_t max = agent_.workgroup_max_size ? agent_.workgroup_max_size : 256;
  return static_cast<uint16_t>(std::min<uint32_t>(256, max));
}

Geometry Device::StrideGeometry(uint64_t work_items) const {
  const uint16_t workgroup = WorkgroupSize();
  Geometry geometry;
  geometry.workgroup[0] = workgroup;
  // Kernels loop grid-stride: a bounded grid, whole workgroups, covers any
  // length; no work items at all is a dispatch that completes at once.
  geometry.grid[0] =
      work_items == 0
          ? 0
          : static_cast<uint32_t>(std::max<uint64_t>(
                (std::min(work_items, kMaxGridItems) + workgroup - 1) / workgroup * workgroup,
                workgroup));
  return geometry;
}

Expected<Completion*> Device::Launch(const LoadedKernel& kernel,
                                     const isapack_dispatch_t& dispatch) {
  const std::string what = "dispatching " + kernel.name + ": ";
  if (kernel.executable == nullptr || kernel.executable->owner() != this) {
    return MakeError(
        ISAPACK_STATUS_INVALID_ARGUMENT,
        what + "the kernel was loaded on another device; load its catalog on this one");
  }
  if (!kernel.problem.empty()) return MakeError(ISAPACK_STATUS_NOT_FOUND, kernel.problem);
  if (dispatch.kernarg_size != kernel.kernarg_size) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     what + "kernarg_size is " + std::to_string(dispatch.kernarg_size) +
                         " bytes but the kernel's metadata gives " +
                         std::to_string(kernel.kernarg_size) +
                         " bytes of arguments; pass the kernel's argument struct as compiled");
  }
  if (dispatch.kernarg == nullptr && dispatch.kernarg_size != 0)
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT, what + "kernarg is NULL");
  Geometry geometry;
  uint64_t workgroup_items = 1;
  static constexpr const char* kAxes[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    if (dispatch.workgroup_size[d] == 0) {
      return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                       what + "workgroup_size[" + std::to_string(d) + "] (" + kAxes[d] +
                           ") is 0; every dimension is at least 1");
    }
    geometry.grid[d] = dispatch.grid_size[d];
    geometry.workgroup[d] = dispatch.workgroup_size[d];
    workgroup_items *= dispatch.workgroup_size[d];
  }
  const uint32_t agent_max = agent_.workgroup_max_size ? agent_.workgroup_max_size : 1024;
  const uint32_t limit =
      kernel.max_workgroup_size != 0 ? std::min(kernel.max_workgroup_size, agent_max) : agent_max;
  if (workgroup_items > limit) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     what + "a workgroup of " + std::to_string(workgroup_items) +
                         " work items exceeds the limit of " + std::to_string(limit) + " (" +
                         (kernel.max_workgroup_size != 0 && kernel.max_workgroup_size < agent_max
                              ? "the kernel's max_flat_workgroup_size"
                              : agent_.name + "'s largest workgroup") +
                         ")");
  }
  geometry.dynamic_group_segment_size = dispatch.dynamic_group_segment_size;
  return Dispatch(kernel, geometry, dispatch.kernarg, dispatch.kernarg_size);
}

Expected<Completion*> Device::Dispatch(const LoadedKernel& kernel, const Geometry& geometry,
                                       const void* args, size_t args_size) {
  const HsaApi& api = hsa_->api();
  auto completion = std::make_unique<Completion>();
  completion->device = this;
  completion->executable = kernel.executable;
  completion->kernel = kernel.name;
  if (queue_stuck_) {
    return MakeError(ISAPACK_STATUS_TIMEOUT,
                     "the AQL queue of " + agent_.name +
                         " is stuck after an earlier timeout; destroy the device");
  }
  if (geometry.grid[0] == 0 || geometry.grid[1] == 0 || geometry.grid[2] == 0) {
    completion->done = true;  // nothing to do: complete at once
  } else {
    const size_t kernarg_size = std::max<size_t>({kernel.kernarg_segment_size, args_size, 1});
    hsa_status_t status =
        api.hsa_amd_memory_pool_allocate(kernarg_pool_, kernarg_size, 0, &completion->kernarg);
    if (status != HSA_STATUS_SUCCESS) {
      completion->kernarg = nullptr;
      return MakeError(ISAPACK_STATUS_OUT_OF_MEMORY,
                       "allocating kernel arguments failed: " + hsa_->Describe(status));
    }
    // Hidden arguments, which isapack does not fill, stay zero.
    std::memset(completion->kernarg, 0, kernarg_size);
    if (args_size != 0) std::memcpy(completion->kernarg, args, args_size);
    status = api.hsa_signal_create(1, 0, nullptr, &completion->signal);
    if (status != HSA_STATUS_SUCCESS) {
      api.hsa_amd_memory_pool_free(completion->kernarg);
      return Hsa(*hsa_, "creating a completion signal", status);
    }

    const uint64_t index = api.hsa_queue_add_write_index_screlease(queue_, 1);
    const auto deadline = Clock::now() + std::chrono::milliseconds(dispatch_timeout_ms_);
    while (index - api.hsa_queue_load_read_index_scacquire(queue_) >= queue_->size) {
      if (Clock::now() > deadline) {
        // The slot stays reserved: the queue cannot make progress any more.
        queue_stuck_ = true;
        api.hsa_amd_memory_pool_free(completion->kernarg);
        api.hsa_signal_destroy(completion->signal);
        return MakeError(ISAPACK_STATUS_TIMEOUT,
                         "the AQL queue of " + agent_.name + " stayed full for " +
                             std::to_string(dispatch_timeout_ms_) +
                             " ms; the GPU is not processing it: destroy the device");
      }
      std::this_thread::yield();
    }
    auto* packet = static_cast<hsa_kernel_dispatch_packet_t*>(queue_->base_address) +
                   (index & (queue_->size - 1));
    packet->workgroup_size_x = geometry.workgroup[0];
    packet->workgroup_size_y = geometry.workgroup[1];
    packet->workgroup_size_z = geometry.workgroup[2];
    packet->reserved0 = 0;
    packet->grid_size_x = geometry.grid[0];
    packet->grid_size_y = geometry.grid[1];
    packet->grid_size_z = geometry.grid[2];
    packet->private_segment_size = kernel.private_segment_size;
    packet->group_segment_size = kernel.group_segment_size + geometry.dynamic_group_segment_size;
    packet->kernel_object = kernel.object;
    packet->kernarg_address = completion->kernarg;
    packet->reserved2 = 0;
    packet->completion_signal = completion->signal;
    const uint16_t header = (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) |
                            (1 << HSA_PACKET_HEADER_BARRIER) |
                            (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                            (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
    const uint16_t dimensions = geometry.grid[2] > 1 || geometry.workgroup[2] > 1   ? 3
                                : geometry.grid[1] > 1 || geometry.workgroup[1] > 1 ? 2
                                                                                    : 1;
    const uint16_t setup =
        static_cast<uint16_t>(dimensions << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
    // Header and setup go last, in one release store: the packet is valid
    // the moment the packet processor can see its type.
    __atomic_store_n(reinterpret_cast<uint32_t*>(packet), header | (uint32_t{setup} << 16),
                     __ATOMIC_RELEASE);
    api.hsa_signal_store_screlease(queue_->doorbell_signal, static_cast<hsa_signal_value_t>(index));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  completions_.insert(completion.get());
  return completion.release();
}

Expected<Completion*> Device::Fill(void* dst, size_t length, uint64_t pattern, uint32_t width) {
  if (width != 1 && width != 2 && width != 4 && width != 8) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     "pattern_width is " + std::to_string(width) + "; use 1, 2, 4 or 8");
  }
  if (dst == nullptr && length != 0)
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT, "dst is NULL");
  const uintptr_t address = reinterpret_cast<uintptr_t>(dst);
  const isapack_fill_args_t args{address, length, pattern, width, 0};
  return Dispatch(*own_kernels_[ISAPACK_KERNEL_FILL],
                  StrideGeometry(WorkUnits(address, length, true)), &args, sizeof(args));
}

Expected<Completion*> Device::Copy(void* dst, const void* src, size_t length) {
  if ((dst == nullptr || src == nullptr) && length != 0) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT, "dst or src is NULL");
  }
  const uintptr_t d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
  if (length != 0 && d < s + length && s < d + length) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT, "the source and destination overlap");
  }
  const isapack_copy_args_t args{d, s, length};
  return Dispatch(*own_kernels_[ISAPACK_KERNEL_COPY],
                  StrideGeometry(WorkUnits(d, length, ((d ^ s) & 15) == 0)), &args, sizeof(args));
}

Status Device::Wait(Completion* completion, uint32_t timeout_ms) {
  if (completion->done) return {};
  const HsaApi& api = hsa_->api();
  const uint32_t limit = timeout_ms ? timeout_ms : dispatch_timeout_ms_;
  const auto deadline = Clock::now() + std::chrono::milliseconds(limit);
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      return MakeError(ISAPACK_STATUS_TIMEOUT, "the " + completion->kernel + " dispatch on " +
                                                   agent_.name + " did not complete within " +
                                                   std::to_string(limit) + " ms");
    }
    const uint64_t hint = static_cast<uint64_t>(left) * timestamp_frequency_ / 1000000000u;
    const hsa_signal_value_t value = api.hsa_signal_wait_scacquire(
        completion->signal, HSA_SIGNAL_CONDITION_LT, 1, hint, HSA_WAIT_STATE_BLOCKED);
    if (value < 1) {
      completion->done = true;
      return {};
    }
  }
}

void Device::FreeCompletion(Completion* completion) {
  const HsaApi& api = hsa_->api();
  if (completion->kernarg != nullptr) api.hsa_amd_memory_pool_free(completion->kernarg);
  if (completion->signal.handle != 0) api.hsa_signal_destroy(completion->signal);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    completions_.erase(completion);
  }
  delete completion;
}

void Device::Release(Completion* completion) {
  // A dispatch still in flight may yet read its arguments: the device keeps
  // it until it is destroyed.
  if (completion->done) FreeCompletion(completion);
}

Status Device::Probe(isapack_probe_report_t* report) {
  const uint32_t wavefront = agent_.wavefront_size ? agent_.wavefront_size : 64;
  const uint16_t workgroup =
      static_cast<uint16_t>(std::min<uint32_t>(2 * wavefront, WorkgroupSize()));
  const uint32_t grid = 2u * workgroup;
  auto output = Allocate(ISAPACK_PROBE_OUTPUT_SIZE(grid), ISAPACK_MEMORY_HOST_VISIBLE);
  if (!output) return output.take_error();
  std::memset(*output, 0, ISAPACK_PROBE_OUTPUT_SIZE(grid));
  const isapack_probe_args_t args{reinterpret_cast<uintptr_t>(*output), grid, 0};
  Geometry geometry;
  geometry.grid[0] = grid;
  geometry.workgroup[0] = workgroup;
  auto completion = Dispatch(*own_kernels_[ISAPACK_KERNEL_PROBE], geometry, &args, sizeof(args));
  if (!completion) {
    (void)Free(*output);
    return completion.take_error();
  }
  Status waited = Wait(*completion, 0);
  Release(*completion);
  if (!waited) return waited;  // the output stays allocated: the kernel may still write it

  isapack_probe_header_t header;
  std::memcpy(&header, *output, sizeof(header));
  std::string problem;
  if (header.magic != ISAPACK_PROBE_MAGIC) {
    problem = "the probe wrote no header";
  } else if (header.grid_size != grid || header.workgroup_size != workgroup) {
    problem = "the probe saw grid " + std::to_string(header.grid_size) + " x " +
              std::to_string(header.workgroup_size) + ", dispatched " + std::to_string(grid) +
              " x " + std::to_string(workgroup);
  } else if (header.wavefront_size != 32 && header.wavefront_size != 64) {
    problem = "the probe reports a wavefront size of " + std::to_string(header.wavefront_size);
  }
  uint32_t verified = 0;
  std::unordered_set<uint32_t> hw_ids;
  for (uint32_t i = 0; problem.empty() && i < grid; ++i) {
    isapack_probe_record_t record;
    std::memcpy(&record, static_cast<uint8_t*>(*output) + sizeof(header) + i * sizeof(record),
                sizeof(record));
    const uint32_t item = i % workgroup;
    const uint32_t wave_first = item / header.wavefront_size * header.wavefront_size;
    const uint32_t lanes = std::min<uint32_t>(header.wavefront_size, workgroup - wave_first);
    if (record.workgroup_id != i / workgroup || record.workitem_id != item ||
        record.active_lanes != lanes) {
      problem = "work item " + std::to_string(i) + " reports workgroup " +
                std::to_string(record.workgroup_id) + ", item " +
                std::to_string(record.workitem_id) + ", " + std::to_string(record.active_lanes) +
                " active lanes";
      break;
    }
    hw_ids.insert(record.hw_id);
    ++verified;
  }
  (void)Free(*output);
  if (!problem.empty()) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT, "probe on " + agent_.name + ": " + problem);
  }
  *report = {header.wavefront_size,
             agent_.wavefront_size,
             grid,
             workgroup,
             verified,
             static_cast<uint32_t>(hw_ids.size()),
             header.hw_id,
             0,
             header.clock};
  return {};
}

}  // namespace isapack
