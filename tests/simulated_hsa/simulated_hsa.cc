// isapack's SIMULATED HSA runtime: a test double, not a GPU runtime.
//
// It exports the HSA entry points libisapack calls, so tests and distro CI
// can exercise device creation on machines without an AMD GPU. Its agents,
// the ROCr version it imitates and the faults it injects come from the
// environment (README.md). Its code object loader applies ROCr's documented
// checks to the ELF it is given; its queues execute AQL kernel dispatches by
// running the host build of the same device-library kernel sources over the
// grid (isapack's own kernels, or any project's host kernel library: see
// FindHostKernel). Nothing it reports is a hardware result.
#include <dlfcn.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "code_object.h"
#include "host_dispatch.h"
#include "target_id.h"
#include "target_table.h"

#define SIM_API extern "C" __attribute__((visibility("default")))

namespace {

using isapack::FeatureSetting;
using isapack::TargetId;

struct SimIsa {
  std::string name;
};

struct SimPool {
  uint32_t flags;  // HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_*
};

struct SimAgent {
  hsa_device_type_t type = HSA_DEVICE_TYPE_CPU;
  std::string name;
  std::string product;
  std::string uuid;
  TargetId target;  // processor with on/off features (GPUs)
  uint32_t wavefront = 64;
  std::vector<std::unique_ptr<SimIsa>> isas;
  std::vector<std::unique_ptr<SimPool>> pools;
  bool vanished = false;
};

struct SimSymbol {
  std::string name;
  const isapack_host_kernel_t* kernel = nullptr;  // the host build that runs it, if found
  uint32_t kernarg_size = 0;
  uint32_t group_segment_size = 0;
  uint32_t private_segment_size = 0;
  const SimAgent* agent = nullptr;
};

struct SimReader {
  const uint8_t* data;
  size_t size;
};

struct SimExecutable {
  bool frozen = false;
  std::vector<std::unique_ptr<SimSymbol>> symbols;
};

struct SimQueue;

struct SimSignal {
  std::atomic<int64_t> value{0};
  std::mutex mutex;
  std::condition_variable changed;
  SimQueue* doorbell_of = nullptr;

  // Notifies while holding the lock: a waiter that sees the new value may
  // destroy the signal at once, so nothing may touch it after unlocking.
  void Set(int64_t v) {
    std::lock_guard<std::mutex> lock(mutex);
    value.store(v, std::memory_order_release);
    changed.notify_all();
  }
};

struct SimQueue {
  hsa_queue_t queue{};  // first member: hsa_queue_t* converts to SimQueue*
  std::atomic<uint64_t> write_index{0};
  std::atomic<uint64_t> read_index{0};
  SimAgent* agent = nullptr;
  void* ring = nullptr;
  SimSignal* doorbell = nullptr;
  std::thread worker;
  bool stop = false;  // guarded by doorbell->mutex
};

struct Config {
  std::vector<std::string> agent_specs;
  unsigned rocr_major = 6, rocr_minor = 4;
  unsigned max_code_object_version = 6;
  bool generic_support = true;
  // ROCr before 5.3 has no agents for gfx94x and gfx11 or newer (inferred
  // from the ROCm 5.2 release; Debian 12's 5.2.3 knows gfx1036).
  bool knows_gfx94x_and_gfx11 = true;
  std::set<std::string> faults;
  std::vector<void*> host_libraries;  // ISAPACK_SIMULATED_HSA_HOST_KERNELS, opened once
  bool Fault(const char* name) const { return faults.count(name) != 0; }
};

struct Runtime {
  std::mutex mutex;
  std::atomic<int> refcount{0};  // written under mutex, read anywhere
  Config config;
  std::vector<std::unique_ptr<SimAgent>> agents;  // CPU first, then GPUs
  std::map<void*, size_t> allocations;
  std::set<SimSignal*> signals;
  std::set<SimQueue*> queues;
  std::set<SimExecutable*> executables;
  std::set<SimReader*> readers;
  int isa_iterations = 0;  // for the "vanish" fault
};

Runtime& R() {
  static Runtime runtime;
  return runtime;
}

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find(separator, start);
    const std::string part =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!part.empty()) parts.push_back(part);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return parts;
}

bool Initialized() {
  return R().refcount > 0;
}

// Opens the host kernel libraries ISAPACK_SIMULATED_HSA_HOST_KERNELS lists
// (':'-separated paths). Each stays loaded for the life of the process:
// executables keep pointers to its kernels.
bool OpenHostLibraries(Config* config) {
  static std::map<std::string, void*> opened;  // guarded by R().mutex (hsa_init holds it)
  const char* list = std::getenv("ISAPACK_SIMULATED_HSA_HOST_KERNELS");
  for (const std::string& path : Split(list ? list : "", ':')) {
    void*& handle = opened[path];
    if (handle == nullptr) handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      std::fprintf(stderr,
                   "isapack simulated HSA: ISAPACK_SIMULATED_HSA_HOST_KERNELS names '%s', which "
                   "does not load: %s\n",
                   path.c_str(), dlerror());
      opened.erase(path);
      return false;
    }
    config->host_libraries.push_back(handle);
  }
  return true;
}

// The host build of the kernel whose descriptor symbol is `symbol`
// ("saxpy.kd"): isapack's own kernels, then isapack_host_kernel_<name> in the
// program and the libraries it loaded globally, then in the host kernel
// libraries ISAPACK_SIMULATED_HSA_HOST_KERNELS lists. nullptr when none has
// it, or when the one found is of another host kernel ABI.
const isapack_host_kernel_t* FindHostKernel(const std::string& symbol, const Config& config) {
  const std::string name =
      symbol.size() > 3 && symbol.ends_with(".kd") ? symbol.substr(0, symbol.size() - 3) : symbol;
  if (const isapack_host_kernel_t* own = isapack_host_find_kernel(name.c_str())) return own;
  const std::string exported = ISAPACK_HOST_KERNEL_SYMBOL_PREFIX + name;
  void* found = dlsym(RTLD_DEFAULT, exported.c_str());
  for (size_t i = 0; found == nullptr && i < config.host_libraries.size(); ++i)
    found = dlsym(config.host_libraries[i], exported.c_str());
  const auto* kernel = static_cast<const isapack_host_kernel_t*>(found);
  if (kernel == nullptr || kernel->abi_version != ISAPACK_HOST_KERNEL_ABI_VERSION) return nullptr;
  return kernel;
}

// Reads the environment: agents, the imitated ROCr, faults and host kernel
// libraries.
bool Configure(Config* config) {
  const char* agents = std::getenv("ISAPACK_SIMULATED_HSA_AGENTS");
  config->agent_specs = Split(agents ? agents : "gfx1103", ';');
  if (const char* rocr = std::getenv("ISAPACK_SIMULATED_HSA_ROCR")) {
    if (std::sscanf(rocr, "%u.%u", &config->rocr_major, &config->rocr_minor) != 2) {
      std::fprintf(stderr,
                   "isapack simulated HSA: ISAPACK_SIMULATED_HSA_ROCR='%s' is not MAJOR.MINOR\n",
                   rocr);
      return false;
    }
  }
  const unsigned version = config->rocr_major * 100 + config->rocr_minor;
  // ROCr reads code object v5 from 5.0 and v6 from 6.2; generic code objects
  // load from 6.4, which also lists each agent's generic ISA.
  config->max_code_object_version = version >= 602 ? 6 : version >= 500 ? 5 : 4;
  config->generic_support = version >= isapack::kFirstRocrWithGenericIsas;
  config->knows_gfx94x_and_gfx11 = version >= 503;
  if (const char* faults = std::getenv("ISAPACK_SIMULATED_HSA_FAULTS")) {
    for (const std::string& fault : Split(faults, ',')) config->faults.insert(fault);
  }
  return OpenHostLibraries(config);
}

FeatureSetting OnOff(FeatureSetting setting, isapack::FeatureSupport support) {
  if (support != isapack::FeatureSupport::kSupported) return FeatureSetting::kAny;
  return setting == FeatureSetting::kAny ? FeatureSetting::kOff : setting;
}

bool BuildAgents(Runtime& r) {
  auto cpu = std::make_unique<SimAgent>();
  cpu->type = HSA_DEVICE_TYPE_CPU;
  cpu->name = "isapack simulated CPU";
  cpu->pools.push_back(
      std::make_unique<SimPool>(SimPool{HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT |
                                        HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED}));
  r.agents.push_back(std::move(cpu));
  if (r.config.Fault("no-gpu")) return true;
  unsigned index = 0;
  for (const std::string& spec : r.config.agent_specs) {
    const std::vector<std::string> fields = Split(spec, ',');
    auto gpu = std::make_unique<SimAgent>();
    gpu->type = HSA_DEVICE_TYPE_GPU;
    const isapack::TargetIdParse parse = isapack::ParseIsaName(fields.at(0), &gpu->target);
    if (parse.error != isapack::TargetIdError::kOk || gpu->target.processor == nullptr) {
      std::fprintf(stderr, "isapack simulated HSA: agent '%s': %s\n", spec.c_str(),
                   parse.error != isapack::TargetIdError::kOk
                       ? isapack::DescribeTargetIdError(fields.at(0), parse).c_str()
                       : "an agent is an exact processor, not a generic target");
      return false;
    }
    const isapack::ProcessorInfo& p = *gpu->target.processor;
    if (!r.config.knows_gfx94x_and_gfx11 &&
        (p.isa.major >= 11 || (p.isa.major == 9 && p.isa.minor == 4))) {
      continue;  // this ROCr creates no agent for a GPU it does not know
    }
    // Agents always run with xnack/sramecc on or off, never "any".
    gpu->target.sramecc = OnOff(gpu->target.sramecc, p.sramecc);
    gpu->target.xnack = OnOff(gpu->target.xnack, p.xnack);
    gpu->name = std::string(p.name);
    gpu->product =
        (p.product.empty() ? std::string(p.name) : std::string(p.product)) + " (simulated)";
    char uuid[21];
    std::snprintf(uuid, sizeof(uuid), "GPU-5153%012x", index);
    gpu->uuid = uuid;
    for (size_t i = 1; i < fields.size(); ++i) {
      if (fields[i].rfind("uuid=", 0) == 0) gpu->uuid = fields[i].substr(5, 20);
      if (fields[i].rfind("product=", 0) == 0) gpu->product = fields[i].substr(8, 63);
    }
    gpu->wavefront = p.isa.major >= 10 ? 32 : 64;
    gpu->isas.push_back(std::make_unique<SimIsa>(SimIsa{gpu->target.ToIsaName()}));
    if (r.config.generic_support) {
      if (const std::optional<TargetId> generic = isapack::GenericIsaOf(gpu->target)) {
        gpu->isas.push_back(std::make_unique<SimIsa>(SimIsa{generic->ToIsaName()}));
      }
    }
    gpu->pools.push_back(
        std::make_unique<SimPool>(SimPool{HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED}));
    r.agents.push_back(std::move(gpu));
    ++index;
  }
  return true;
}

SimAgent* AgentOf(hsa_agent_t agent) {
  for (const auto& candidate : R().agents) {
    if (reinterpret_cast<uint64_t>(candidate.get()) == agent.handle) return candidate.get();
  }
  return nullptr;
}

SimSignal* SignalOf(hsa_signal_t signal) {
  return reinterpret_cast<SimSignal*>(signal.handle);
}

template <size_t N>
void CopyName(void* out, const std::string& name) {
  std::memset(out, 0, N);
  std::memcpy(out, name.data(), std::min(name.size(), N - 1));
}

// ROCr's checks when loading a code object for an agent, in ROCr's order.
hsa_status_t CheckLoad(const SimAgent& agent, std::span<const uint8_t> image,
                       const Config& config) {
  auto header = isapack::ReadCodeObjectHeader(image);
  if (!header || header->machine != isapack::kElfMachineAmdgpu ||
      header->os_abi != isapack::kElfOsAbiAmdgpuHsa) {
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  if (header->code_object_version == 0 ||
      header->code_object_version > config.max_code_object_version) {
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  auto object = isapack::TargetIdOfHeader(*header);
  if (!object || (object->generic != nullptr && !config.generic_support)) {
    return HSA_STATUS_ERROR_INVALID_ISA_NAME;
  }
  const isapack::ProcessorInfo& processor = *agent.target.processor;
  if (object->processor != nullptr && object->processor != &processor) {
    return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
  }
  if (object->generic != nullptr && (object->generic != isapack::GenericOf(processor) ||
                                     header->generic_version < processor.generic_version)) {
    return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
  }
  auto mode_ok = [](FeatureSetting object_setting, FeatureSetting agent_setting) {
    return object_setting == FeatureSetting::kAny ||
           object_setting == FeatureSetting::kUnsupported || object_setting == agent_setting;
  };
  if (!mode_ok(header->xnack, agent.target.xnack) ||
      !mode_ok(header->sramecc, agent.target.sramecc)) {
    return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
  }
  return HSA_STATUS_SUCCESS;
}

void RunQueue(SimQueue* q) {
  auto* packets = static_cast<hsa_kernel_dispatch_packet_t*>(q->ring);
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(q->doorbell->mutex);
      q->doorbell->changed.wait(
          lock, [&] { return q->stop || q->read_index.load() < q->write_index.load(); });
      if (q->stop) return;
    }
    const uint64_t index = q->read_index.load();
    hsa_kernel_dispatch_packet_t* slot = &packets[index & (q->queue.size - 1)];
    const uint16_t header = __atomic_load_n(&slot->header, __ATOMIC_ACQUIRE);
    const uint8_t type = static_cast<uint8_t>((header >> HSA_PACKET_HEADER_TYPE) & 0xff);
    if (type == HSA_PACKET_TYPE_INVALID) {
      // Reserved but not yet published: wait for the doorbell again.
      std::unique_lock<std::mutex> lock(q->doorbell->mutex);
      q->doorbell->changed.wait_for(lock, std::chrono::milliseconds(1));
      continue;
    }
    hsa_kernel_dispatch_packet_t packet = *slot;
    bool complete = true;
    if (type == HSA_PACKET_TYPE_KERNEL_DISPATCH) {
      const auto* symbol = reinterpret_cast<const SimSymbol*>(packet.kernel_object);
      if (R().config.Fault("hang")) {
        complete = false;  // consumed, never completed
      } else if (symbol != nullptr && symbol->kernel != nullptr) {
        isapack_host_dispatch(symbol->kernel,
                              reinterpret_cast<const isapack_dispatch_packet_t*>(&packet),
                              q->agent->wavefront);
      }
    }
    __atomic_store_n(&slot->header,
                     static_cast<uint16_t>(HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE),
                     __ATOMIC_RELEASE);
    q->read_index.store(index + 1);
    if (complete && packet.completion_signal.handle != 0) {
      SimSignal* signal = SignalOf(packet.completion_signal);
      signal->Set(signal->value.load() - 1);
    }
  }
}

}  // namespace

// --- isapack's own entry points: what this library is ----------------------

SIM_API const char* isapack_simulated_hsa_description() {
  return "isapack simulated HSA runtime (a test double: kernels run as the host build of the "
         "device "
         "library on the CPU; no GPU is used)";
}

// Why a loaded kernel (its kernel object) cannot run here, or NULL when its
// host build was found. libisapack asks when it looks a kernel up, so that a
// missing host build is an error naming the fix, not a dispatch that
// silently does nothing.
SIM_API const char* isapack_simulated_hsa_kernel_problem(uint64_t kernel_object) {
  static thread_local std::string message;
  const auto* symbol = reinterpret_cast<const SimSymbol*>(kernel_object);
  if (symbol == nullptr) return "no kernel object";
  if (symbol->kernel != nullptr) return nullptr;
  const std::string name = symbol->name.substr(0, symbol->name.size() - 3);
  message = "the simulated HSA runtime has no host build of kernel '" + name +
            "' (no " ISAPACK_HOST_KERNEL_SYMBOL_PREFIX + name + " of host kernel ABI " +
            std::to_string(ISAPACK_HOST_KERNEL_ABI_VERSION) +
            " in the program, its libraries or ISAPACK_SIMULATED_HSA_HOST_KERNELS): build the "
            "kernel sources for the host (isapack_add_device_library(... HOST_LIBRARY)) and link "
            "that library into the program, or list it in ISAPACK_SIMULATED_HSA_HOST_KERNELS";
  return message.c_str();
}

// Objects still alive (allocations, signals, queues, executables, readers):
// tests check it is 0 once everything was released.
SIM_API size_t isapack_simulated_hsa_live_objects() {
  Runtime& r = R();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.allocations.size() + r.signals.size() + r.queues.size() + r.executables.size() +
         r.readers.size();
}

// --- Runtime -----------------------------------------------------------------

SIM_API hsa_status_t hsa_init() {
  Runtime& r = R();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.refcount > 0) {
    ++r.refcount;
    return HSA_STATUS_SUCCESS;
  }
  Config config;
  if (!Configure(&config)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (config.Fault("init")) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  r.config = config;
  r.agents.clear();
  r.isa_iterations = 0;
  if (!BuildAgents(r)) {
    r.agents.clear();
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  r.refcount = 1;
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_shut_down() {
  Runtime& r = R();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.refcount == 0) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (--r.refcount == 0) r.agents.clear();
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_status_string(hsa_status_t status, const char** text) {
  if (text == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (status) {
    case HSA_STATUS_SUCCESS:
      *text = "HSA_STATUS_SUCCESS: The function has been executed successfully.";
      break;
    case HSA_STATUS_ERROR_OUT_OF_RESOURCES:
      *text =
          "HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary "
          "resources. "
          "(simulated)";
      break;
    case HSA_STATUS_ERROR_INVALID_CODE_OBJECT:
      *text = "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: The code object is invalid. (simulated)";
      break;
    case HSA_STATUS_ERROR_INVALID_ISA_NAME:
      *text = "HSA_STATUS_ERROR_INVALID_ISA_NAME: The ISA name is invalid. (simulated)";
      break;
    case HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS:
      *text =
          "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: The arguments passed to a functions are not "
          "compatible. (simulated)";
      break;
    case HSA_STATUS_ERROR_INVALID_AGENT:
      *text = "HSA_STATUS_ERROR_INVALID_AGENT: The agent is invalid. (simulated)";
      break;
    case HSA_STATUS_ERROR_NOT_INITIALIZED:
      *text =
          "HSA_STATUS_ERROR_NOT_INITIALIZED: An API other than hsa_init has been invoked while the "
          "reference count of the HSA runtime is 0. (simulated)";
      break;
    default:
      *text = "HSA_STATUS_ERROR: A generic error has occurred. (simulated)";
      break;
  }
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_system_get_info(hsa_system_info_t attribute, void* value) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (attribute != HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *static_cast<uint64_t*>(value) = 1000000000;  // timestamps are nanoseconds
  return HSA_STATUS_SUCCESS;
}

// --- Agents and ISAs ---------------------------------------------------------

SIM_API hsa_status_t hsa_iterate_agents(hsa_status_t (*callback)(hsa_agent_t, void*), void* data) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  for (const auto& agent : R().agents) {
    if (agent->vanished) continue;
    const hsa_status_t status =
        callback(hsa_agent_t{reinterpret_cast<uint64_t>(agent.get())}, data);
    if (status == HSA_STATUS_INFO_BREAK) return HSA_STATUS_SUCCESS;
    if (status != HSA_STATUS_SUCCESS) return status;
  }
  return HSA_STATUS_SUCCESS;
}

// HSA passes AMD extension attributes (hsa_amd_agent_info_t, 0xA000 and up)
// through hsa_agent_info_t, outside that enum's range: read the raw value
// without loading it as the enum (UBSan's enum check would rightly object).
int RawAttribute(const hsa_agent_info_t& attribute) {
  std::underlying_type_t<hsa_agent_info_t> raw;
  std::memcpy(&raw, &attribute, sizeof(raw));
  return static_cast<int>(raw);
}

SIM_API hsa_status_t hsa_agent_get_info(hsa_agent_t handle, hsa_agent_info_t attribute,
                                        void* value) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  SimAgent* agent = AgentOf(handle);
  if (agent == nullptr || agent->vanished) return HSA_STATUS_ERROR_INVALID_AGENT;
  switch (RawAttribute(attribute)) {
    case HSA_AGENT_INFO_NAME:
      CopyName<64>(value, agent->name);
      break;
    case HSA_AGENT_INFO_VENDOR_NAME:
      CopyName<64>(value, "isapack simulation");
      break;
    case HSA_AGENT_INFO_DEVICE:
      *static_cast<hsa_device_type_t*>(value) = agent->type;
      break;
    case HSA_AGENT_INFO_PROFILE:
      *static_cast<hsa_profile_t*>(value) = HSA_PROFILE_BASE;
      break;
    case HSA_AGENT_INFO_WAVEFRONT_SIZE:
      *static_cast<uint32_t*>(value) = agent->wavefront;
      break;
    case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
      *static_cast<uint32_t*>(value) = 1024;
      break;
    case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
      *static_cast<uint32_t*>(value) = 4096;
      break;
    case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
      CopyName<64>(value, agent->product);
      break;
    case HSA_AMD_AGENT_INFO_UUID:
      CopyName<21>(value, agent->uuid);
      break;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_agent_iterate_isas(hsa_agent_t handle,
                                            hsa_status_t (*callback)(hsa_isa_t, void*),
                                            void* data) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  SimAgent* agent = AgentOf(handle);
  if (agent == nullptr || agent->vanished) return HSA_STATUS_ERROR_INVALID_AGENT;
  for (const auto& isa : agent->isas) {
    const hsa_status_t status = callback(hsa_isa_t{reinterpret_cast<uint64_t>(isa.get())}, data);
    if (status != HSA_STATUS_SUCCESS)
      return status == HSA_STATUS_INFO_BREAK ? HSA_STATUS_SUCCESS : status;
  }
  // "vanish": the GPU disappears once it has been enumerated (a reset, a
  // hot-unplug, a driver crash between discovery and use).
  if (R().config.Fault("vanish")) agent->vanished = true;
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void* value) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const auto* sim = reinterpret_cast<const SimIsa*>(isa.handle);
  if (sim == nullptr) return HSA_STATUS_ERROR_INVALID_ISA;
  if (attribute == HSA_ISA_INFO_NAME_LENGTH) {
    *static_cast<uint32_t*>(value) = static_cast<uint32_t>(sim->name.size());
  } else if (attribute == HSA_ISA_INFO_NAME) {
    std::memcpy(value, sim->name.data(), sim->name.size());
  } else {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

// --- Code objects and executables -------------------------------------------

SIM_API hsa_status_t hsa_code_object_reader_create_from_memory(const void* code_object, size_t size,
                                                               hsa_code_object_reader_t* reader) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (code_object == nullptr || size == 0 || reader == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // Like ROCr, the reader does not copy: the memory must stay valid.
  auto* sim = new SimReader{static_cast<const uint8_t*>(code_object), size};
  std::lock_guard<std::mutex> lock(R().mutex);
  R().readers.insert(sim);
  reader->handle = reinterpret_cast<uint64_t>(sim);
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_code_object_reader_destroy(hsa_code_object_reader_t reader) {
  auto* sim = reinterpret_cast<SimReader*>(reader.handle);
  std::lock_guard<std::mutex> lock(R().mutex);
  if (R().readers.erase(sim) == 0) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  delete sim;
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_executable_create_alt(hsa_profile_t, hsa_default_float_rounding_mode_t,
                                               const char*, hsa_executable_t* executable) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  auto* sim = new SimExecutable();
  std::lock_guard<std::mutex> lock(R().mutex);
  R().executables.insert(sim);
  executable->handle = reinterpret_cast<uint64_t>(sim);
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_executable_load_agent_code_object(hsa_executable_t executable,
                                                           hsa_agent_t handle,
                                                           hsa_code_object_reader_t reader,
                                                           const char*, hsa_loaded_code_object_t*) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  auto* exec = reinterpret_cast<SimExecutable*>(executable.handle);
  auto* sim_reader = reinterpret_cast<SimReader*>(reader.handle);
  SimAgent* agent = AgentOf(handle);
  if (agent == nullptr || agent->vanished) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (exec->frozen) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  if (R().config.Fault("load-reject")) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  const std::span<const uint8_t> image(sim_reader->data, sim_reader->size);
  if (hsa_status_t status = CheckLoad(*agent, image, R().config); status != HSA_STATUS_SUCCESS)
    return status;
  auto symbols = isapack::ReadSymbols(image);
  if (!symbols) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  for (const isapack::CodeObjectSymbol& symbol : *symbols) {
    if (symbol.name.size() < 4 || symbol.name.substr(symbol.name.size() - 3) != ".kd") continue;
    auto descriptor = isapack::ReadAtAddress(image, symbol.value, 64);
    if (!descriptor) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    auto sim_symbol = std::make_unique<SimSymbol>();
    sim_symbol->name = std::string(symbol.name);
    sim_symbol->agent = agent;
    sim_symbol->kernel = FindHostKernel(sim_symbol->name, R().config);
    // amd_kernel_code descriptor: group, private, kernarg sizes at 0, 4, 8.
    std::memcpy(&sim_symbol->group_segment_size, descriptor->data(), 4);
    std::memcpy(&sim_symbol->private_segment_size, descriptor->data() + 4, 4);
    std::memcpy(&sim_symbol->kernarg_size, descriptor->data() + 8, 4);
    exec->symbols.push_back(std::move(sim_symbol));
  }
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_executable_freeze(hsa_executable_t executable, const char*) {
  auto* exec = reinterpret_cast<SimExecutable*>(executable.handle);
  if (exec->frozen) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  exec->frozen = true;
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_executable_destroy(hsa_executable_t executable) {
  auto* exec = reinterpret_cast<SimExecutable*>(executable.handle);
  std::lock_guard<std::mutex> lock(R().mutex);
  if (R().executables.erase(exec) == 0) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  delete exec;
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_executable_get_symbol_by_name(hsa_executable_t executable,
                                                       const char* name, const hsa_agent_t* agent,
                                                       hsa_executable_symbol_t* symbol) {
  auto* exec = reinterpret_cast<SimExecutable*>(executable.handle);
  if (!exec->frozen) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  for (const auto& candidate : exec->symbols) {
    if (candidate->name == name && (agent == nullptr || AgentOf(*agent) == candidate->agent)) {
      symbol->handle = reinterpret_cast<uint64_t>(candidate.get());
      return HSA_STATUS_SUCCESS;
    }
  }
  return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
}

SIM_API hsa_status_t hsa_executable_symbol_get_info(hsa_executable_symbol_t symbol,
                                                    hsa_executable_symbol_info_t attribute,
                                                    void* value) {
  const auto* sim = reinterpret_cast<const SimSymbol*>(symbol.handle);
  switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
      *static_cast<uint64_t*>(value) = symbol.handle;
      break;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
      *static_cast<uint32_t*>(value) = sim->kernarg_size;
      break;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
      *static_cast<uint32_t*>(value) = 16;
      break;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
      *static_cast<uint32_t*>(value) = sim->group_segment_size;
      break;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
      *static_cast<uint32_t*>(value) = sim->private_segment_size;
      break;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

// --- Signals -------------------------------------------------------------------

SIM_API hsa_status_t hsa_signal_create(hsa_signal_value_t initial, uint32_t, const hsa_agent_t*,
                                       hsa_signal_t* signal) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  auto* sim = new SimSignal();
  sim->value = initial;
  std::lock_guard<std::mutex> lock(R().mutex);
  R().signals.insert(sim);
  signal->handle = reinterpret_cast<uint64_t>(sim);
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_signal_destroy(hsa_signal_t signal) {
  SimSignal* sim = SignalOf(signal);
  std::lock_guard<std::mutex> lock(R().mutex);
  if (R().signals.erase(sim) == 0) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  delete sim;
  return HSA_STATUS_SUCCESS;
}

SIM_API void hsa_signal_store_screlease(hsa_signal_t signal, hsa_signal_value_t value) {
  SimSignal* sim = SignalOf(signal);
  if (sim->doorbell_of != nullptr) {
    // Ringing a doorbell: the packet processor looks at the queue again.
    std::lock_guard<std::mutex> lock(sim->mutex);
    sim->value.store(value);
    sim->changed.notify_all();
    return;
  }
  sim->Set(value);
}

SIM_API hsa_signal_value_t hsa_signal_wait_scacquire(hsa_signal_t signal,
                                                     hsa_signal_condition_t condition,
                                                     hsa_signal_value_t compare,
                                                     uint64_t timeout_hint, hsa_wait_state_t) {
  SimSignal* sim = SignalOf(signal);
  auto satisfied = [&] {
    const hsa_signal_value_t v = sim->value.load(std::memory_order_acquire);
    switch (condition) {
      case HSA_SIGNAL_CONDITION_EQ:
        return v == compare;
      case HSA_SIGNAL_CONDITION_NE:
        return v != compare;
      case HSA_SIGNAL_CONDITION_LT:
        return v < compare;
      case HSA_SIGNAL_CONDITION_GTE:
        return v >= compare;
    }
    return false;
  };
  std::unique_lock<std::mutex> lock(sim->mutex);
  sim->changed.wait_for(
      lock, std::chrono::nanoseconds(std::min<uint64_t>(timeout_hint, 3600000000000ull)),
      satisfied);
  return sim->value.load(std::memory_order_acquire);
}

// --- Queues ---------------------------------------------------------------------

SIM_API hsa_status_t hsa_queue_create(hsa_agent_t handle, uint32_t size, hsa_queue_type32_t type,
                                      void (*)(hsa_status_t, hsa_queue_t*, void*), void*, uint32_t,
                                      uint32_t, hsa_queue_t** queue) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  SimAgent* agent = AgentOf(handle);
  if (agent == nullptr || agent->vanished || agent->type != HSA_DEVICE_TYPE_GPU)
    return HSA_STATUS_ERROR_INVALID_AGENT;
  if (size == 0 || (size & (size - 1)) != 0 || size > 4096)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (R().config.Fault("queue-create")) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  auto* q = new SimQueue();
  q->agent = agent;
  q->ring = std::aligned_alloc(64, size_t{size} * 64);
  for (uint32_t i = 0; i < size; ++i) {
    auto* packet = static_cast<hsa_kernel_dispatch_packet_t*>(q->ring) + i;
    std::memset(packet, 0, sizeof(*packet));
    packet->header = HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE;
  }
  q->doorbell = new SimSignal();
  q->doorbell->doorbell_of = q;
  q->queue.type = type;
  q->queue.base_address = q->ring;
  q->queue.doorbell_signal.handle = reinterpret_cast<uint64_t>(q->doorbell);
  q->queue.size = size;
  q->queue.id = reinterpret_cast<uint64_t>(q);
  q->worker = std::thread(RunQueue, q);
  std::lock_guard<std::mutex> lock(R().mutex);
  R().queues.insert(q);
  *queue = &q->queue;
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_queue_destroy(hsa_queue_t* queue) {
  auto* q = reinterpret_cast<SimQueue*>(queue);
  {
    std::lock_guard<std::mutex> lock(R().mutex);
    if (R().queues.erase(q) == 0) return HSA_STATUS_ERROR_INVALID_QUEUE;
  }
  {
    std::lock_guard<std::mutex> lock(q->doorbell->mutex);
    q->stop = true;
  }
  q->doorbell->changed.notify_all();
  q->worker.join();
  std::free(q->ring);
  delete q->doorbell;
  delete q;
  return HSA_STATUS_SUCCESS;
}

SIM_API uint64_t hsa_queue_add_write_index_screlease(const hsa_queue_t* queue, uint64_t value) {
  auto* q = reinterpret_cast<SimQueue*>(const_cast<hsa_queue_t*>(queue));
  return q->write_index.fetch_add(value);
}

SIM_API uint64_t hsa_queue_load_read_index_scacquire(const hsa_queue_t* queue) {
  return reinterpret_cast<const SimQueue*>(queue)->read_index.load();
}

// --- Memory --------------------------------------------------------------------

SIM_API hsa_status_t hsa_amd_agent_iterate_memory_pools(
    hsa_agent_t handle, hsa_status_t (*callback)(hsa_amd_memory_pool_t, void*), void* data) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  SimAgent* agent = AgentOf(handle);
  if (agent == nullptr || agent->vanished) return HSA_STATUS_ERROR_INVALID_AGENT;
  for (const auto& pool : agent->pools) {
    const hsa_status_t status =
        callback(hsa_amd_memory_pool_t{reinterpret_cast<uint64_t>(pool.get())}, data);
    if (status != HSA_STATUS_SUCCESS)
      return status == HSA_STATUS_INFO_BREAK ? HSA_STATUS_SUCCESS : status;
  }
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t pool,
                                                  hsa_amd_memory_pool_info_t attribute,
                                                  void* value) {
  const auto* sim = reinterpret_cast<const SimPool*>(pool.handle);
  switch (attribute) {
    case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
      *static_cast<hsa_amd_segment_t*>(value) = HSA_AMD_SEGMENT_GLOBAL;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
      *static_cast<uint32_t*>(value) = sim->flags;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_SIZE:
      *static_cast<size_t*>(value) = size_t{1} << 32;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
      *static_cast<bool*>(value) = true;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:
      *static_cast<size_t*>(value) = 4096;
      break;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT:
      *static_cast<size_t*>(value) = 4096;
      break;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t, size_t size, uint32_t,
                                                  void** ptr) {
  if (!Initialized()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (size == 0 || ptr == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (R().config.Fault("alloc")) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  const size_t rounded = (size + 4095) / 4096 * 4096;
  void* memory = std::aligned_alloc(4096, rounded);
  if (memory == nullptr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  std::lock_guard<std::mutex> lock(R().mutex);
  R().allocations[memory] = rounded;
  *ptr = memory;
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_amd_memory_pool_free(void* ptr) {
  std::lock_guard<std::mutex> lock(R().mutex);
  if (R().allocations.erase(ptr) == 0) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  std::free(ptr);
  return HSA_STATUS_SUCCESS;
}

SIM_API hsa_status_t hsa_amd_agents_allow_access(uint32_t count, const hsa_agent_t* agents,
                                                 const uint32_t*, const void* ptr) {
  std::lock_guard<std::mutex> lock(R().mutex);
  if (count == 0 || agents == nullptr || R().allocations.count(const_cast<void*>(ptr)) == 0) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}
