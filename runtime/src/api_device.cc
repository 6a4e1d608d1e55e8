// C API: selection, devices, memory, dispatches, the probe, any program's
// executables and kernels, and agent lists.
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "agents.h"
#include "api_internal.h"
#include "device.h"
#include "embedded_catalog.h"
#include "isapack/isapack.h"
#include "selection.h"
#include "status.h"

using isapack::Guard;
using isapack::NullArgument;
using isapack::ToStatus;

struct isapack_device_s {
  std::unique_ptr<isapack::Device> device;
};

struct isapack_completion_s {
  isapack::Completion* completion;
};

struct isapack_agent_list_s {
  struct Entry {
    isapack::GpuAgent agent;
    std::string isa_names;
    std::string code_object;
    isapack_status_code_t code = ISAPACK_STATUS_OK;
    std::string message;
    std::string trace;
  };
  std::unique_ptr<isapack::HsaLibrary> hsa;
  std::vector<Entry> entries;
};

namespace {

// Executable and kernel handles are the objects themselves.
isapack::Executable* ExecutableOf(isapack_executable_t handle) {
  return reinterpret_cast<isapack::Executable*>(handle);
}
const isapack::LoadedKernel* KernelOf(isapack_kernel_t handle) {
  return reinterpret_cast<const isapack::LoadedKernel*>(handle);
}
isapack::Device* DeviceOf(const isapack::Executable* executable) {
  return const_cast<isapack::Device*>(static_cast<const isapack::Device*>(executable->owner()));
}

isapack_status_t StartDispatch(isapack::Expected<isapack::Completion*> started,
                               isapack_completion_t* out, bool wait) {
  if (!started) return ToStatus(started.take_error());
  isapack::Completion* completion = *started;
  isapack::Device* device = completion->device;
  if (wait) {
    isapack::Status status = device->Wait(completion, 0);
    device->Release(completion);
    return ToStatus(std::move(status));
  }
  *out = new isapack_completion_s{completion};
  return nullptr;
}

}  // namespace

extern "C" {

ISAPACK_API isapack_status_t isapack_select(const char* const* isa_names, size_t isa_count,
                                            size_t* out_entry, char* trace_buffer,
                                            size_t trace_capacity, size_t* out_trace_length) {
  if (isa_names == nullptr && isa_count != 0) return NullArgument("isa_names");
  if (out_entry == nullptr) return NullArgument("out_entry");
  *out_entry = ISAPACK_NO_ENTRY;
  if (isa_count == 0) return ToStatus(ISAPACK_STATUS_INVALID_ARGUMENT, "the ISA list is empty");
  if (isa_count > isapack::kMaxAgentIsas) {
    return ToStatus(ISAPACK_STATUS_INVALID_ARGUMENT,
                    "an agent lists at most " + std::to_string(isapack::kMaxAgentIsas) + " ISAs");
  }
  return Guard([&]() -> isapack_status_t {
    const auto& catalog = isapack::EmbeddedCatalog();
    if (!catalog) return ToStatus(catalog.error());
    isapack::TargetId isas[isapack::kMaxAgentIsas];
    for (size_t i = 0; i < isa_count; ++i) {
      if (isa_names[i] == nullptr) return NullArgument("an ISA name");
      const isapack::TargetIdParse parse = isapack::ParseIsaName(isa_names[i], &isas[i]);
      if (parse.error != isapack::TargetIdError::kOk) {
        return ToStatus(ISAPACK_STATUS_INVALID_ARGUMENT,
                        isapack::DescribeTargetIdError(isa_names[i], parse));
      }
    }
    const std::span<const isapack::TargetId> agent(isas, isa_count);
    const isapack::Selection selection =
        isapack::Select(agent, *catalog, {isapack::RetargetAllowed(true)});
    if (trace_buffer != nullptr || out_trace_length != nullptr) {
      const std::string trace = isapack::FormatTrace(selection, agent, *catalog);
      if (out_trace_length != nullptr) *out_trace_length = trace.size();
      if (trace_buffer != nullptr && trace_capacity > 0) {
        const size_t n = std::min(trace.size(), trace_capacity - 1);
        std::memcpy(trace_buffer, trace.data(), n);
        trace_buffer[n] = '\0';
      }
    }
    if (!selection.ok()) return ToStatus(isapack::SelectionError(selection, agent, *catalog, ""));
    *out_entry = selection.entry;
    return nullptr;
  });
}

// disable_retarget took the tail padding; callers built before it pass the
// same struct_size, and isapack_device_options_init zeroes it for them.
static_assert(sizeof(void*) != 8 || sizeof(isapack_device_options_t) == 40);

ISAPACK_API void isapack_device_options_init(isapack_device_options_t* options) {
  if (options == nullptr) return;
  *options = isapack_device_options_t{};
  options->struct_size = sizeof(isapack_device_options_t);
}

ISAPACK_API isapack_status_t isapack_device_create(const isapack_device_options_t* options,
                                                   isapack_device_t* out_device) {
  if (out_device == nullptr) return NullArgument("out_device");
  *out_device = nullptr;
  isapack_device_options_t defaults;
  isapack_device_options_init(&defaults);
  if (options == nullptr) options = &defaults;
  if (options->struct_size != sizeof(isapack_device_options_t)) {
    return ToStatus(ISAPACK_STATUS_INVALID_ARGUMENT,
                    "options->struct_size is " + std::to_string(options->struct_size) +
                        ", expected " + std::to_string(sizeof(isapack_device_options_t)) +
                        "; initialise options with isapack_device_options_init");
  }
  return Guard([&]() -> isapack_status_t {
    auto device = isapack::Device::Create(*options);
    if (!device) return ToStatus(device.take_error());
    *out_device = new isapack_device_s{std::move(*device)};
    return nullptr;
  });
}

ISAPACK_API void isapack_device_destroy(isapack_device_t device) {
  delete device;
}

ISAPACK_API isapack_status_t isapack_device_info(isapack_device_t device,
                                                 isapack_device_info_t* out_info) {
  if (device == nullptr) return NullArgument("device");
  if (out_info == nullptr) return NullArgument("out_info");
  device->device->FillInfo(out_info);
  return nullptr;
}

ISAPACK_API isapack_status_t isapack_device_alloc(isapack_device_t device, size_t size,
                                                  isapack_memory_kind_t kind, void** out_ptr) {
  if (device == nullptr) return NullArgument("device");
  if (out_ptr == nullptr) return NullArgument("out_ptr");
  *out_ptr = nullptr;
  return Guard([&]() -> isapack_status_t {
    auto ptr = device->device->Allocate(size, kind);
    if (!ptr) return ToStatus(ptr.take_error());
    *out_ptr = *ptr;
    return nullptr;
  });
}

ISAPACK_API isapack_status_t isapack_device_free(isapack_device_t device, void* ptr) {
  if (device == nullptr) return NullArgument("device");
  return ToStatus(device->device->Free(ptr));
}

ISAPACK_API isapack_status_t isapack_device_fill(isapack_device_t device, void* dst, size_t length,
                                                 uint64_t pattern, uint32_t pattern_width) {
  if (device == nullptr) return NullArgument("device");
  return Guard([&] {
    return StartDispatch(device->device->Fill(dst, length, pattern, pattern_width), nullptr, true);
  });
}

ISAPACK_API isapack_status_t isapack_device_copy(isapack_device_t device, void* dst,
                                                 const void* src, size_t length) {
  if (device == nullptr) return NullArgument("device");
  return Guard(
      [&] { return StartDispatch(device->device->Copy(dst, src, length), nullptr, true); });
}

ISAPACK_API isapack_status_t isapack_device_fill_async(isapack_device_t device, void* dst,
                                                       size_t length, uint64_t pattern,
                                                       uint32_t pattern_width,
                                                       isapack_completion_t* out_completion) {
  if (device == nullptr) return NullArgument("device");
  if (out_completion == nullptr) return NullArgument("out_completion");
  *out_completion = nullptr;
  return Guard([&] {
    return StartDispatch(device->device->Fill(dst, length, pattern, pattern_width), out_completion,
                         false);
  });
}

ISAPACK_API isapack_status_t isapack_device_copy_async(isapack_device_t device, void* dst,
                                                       const void* src, size_t length,
                                                       isapack_completion_t* out_completion) {
  if (device == nullptr) return NullArgument("device");
  if (out_completion == nullptr) return NullArgument("out_completion");
  *out_completion = nullptr;
  return Guard(
      [&] { return StartDispatch(device->device->Copy(dst, src, length), out_completion, false); });
}

ISAPACK_API isapack_status_t isapack_completion_wait(isapack_completion_t completion,
                                                     uint32_t timeout_ms) {
  if (completion == nullptr) return NullArgument("completion");
  return ToStatus(completion->completion->device->Wait(completion->completion, timeout_ms));
}

ISAPACK_API void isapack_completion_release(isapack_completion_t completion) {
  if (completion == nullptr) return;
  completion->completion->device->Release(completion->completion);
  delete completion;
}

ISAPACK_API isapack_status_t isapack_device_probe(isapack_device_t device,
                                                  isapack_probe_report_t* out_report) {
  if (device == nullptr) return NullArgument("device");
  if (out_report == nullptr) return NullArgument("out_report");
  return Guard([&] { return ToStatus(device->device->Probe(out_report)); });
}

ISAPACK_API isapack_status_t isapack_device_load(isapack_device_t device, isapack_catalog_t catalog,
                                                 isapack_executable_t* out_executable) {
  if (out_executable == nullptr) return NullArgument("out_executable");
  *out_executable = nullptr;
  if (device == nullptr) return NullArgument("device");
  if (catalog == nullptr) return NullArgument("catalog");
  return Guard([&]() -> isapack_status_t {
    auto loaded = device->device->Load(isapack::SourceOf(catalog));
    if (!loaded) return ToStatus(loaded.take_error());
    *out_executable = reinterpret_cast<isapack_executable_t>(*loaded);
    return nullptr;
  });
}

ISAPACK_API isapack_status_t isapack_executable_unload(isapack_executable_t executable) {
  if (executable == nullptr) return nullptr;
  isapack::Executable* loaded = ExecutableOf(executable);
  return Guard([&] { return ToStatus(DeviceOf(loaded)->Unload(loaded)); });
}

ISAPACK_API isapack_status_t isapack_executable_info(isapack_executable_t executable,
                                                     isapack_executable_info_t* out_info) {
  if (executable == nullptr) return NullArgument("executable");
  if (out_info == nullptr) return NullArgument("out_info");
  const isapack::Executable* loaded = ExecutableOf(executable);
  *out_info = {loaded->code_object().c_str(), loaded->catalog_entry(),
               loaded->selection_trace().c_str(), loaded->kernels().size()};
  return nullptr;
}

ISAPACK_API const char* isapack_executable_kernel_name(isapack_executable_t executable,
                                                       size_t index) {
  if (executable == nullptr) return nullptr;
  const auto& kernels = ExecutableOf(executable)->kernels();
  return index < kernels.size() ? kernels[index].name.c_str() : nullptr;
}

ISAPACK_API isapack_status_t isapack_executable_kernel(isapack_executable_t executable,
                                                       const char* name,
                                                       isapack_kernel_t* out_kernel) {
  if (out_kernel == nullptr) return NullArgument("out_kernel");
  *out_kernel = nullptr;
  if (executable == nullptr) return NullArgument("executable");
  if (name == nullptr) return NullArgument("name");
  return Guard([&]() -> isapack_status_t {
    auto kernel = ExecutableOf(executable)->FindKernel(name);
    if (!kernel) return ToStatus(kernel.take_error());
    *out_kernel = reinterpret_cast<isapack_kernel_t>(const_cast<isapack::LoadedKernel*>(*kernel));
    return nullptr;
  });
}

ISAPACK_API isapack_status_t isapack_kernel_info(isapack_kernel_t kernel,
                                                 isapack_kernel_info_t* out_info) {
  if (kernel == nullptr) return NullArgument("kernel");
  if (out_info == nullptr) return NullArgument("out_info");
  const isapack::LoadedKernel* k = KernelOf(kernel);
  *out_info = {k->name.c_str(),      k->kernarg_size,       k->kernarg_segment_size,
               k->kernarg_alignment, k->group_segment_size, k->private_segment_size,
               k->max_workgroup_size};
  return nullptr;
}

ISAPACK_API void isapack_dispatch_init(isapack_dispatch_t* dispatch) {
  if (dispatch == nullptr) return;
  *dispatch = isapack_dispatch_t{};
  dispatch->struct_size = sizeof(isapack_dispatch_t);
  for (int d = 0; d < 3; ++d) {
    dispatch->grid_size[d] = 1;
    dispatch->workgroup_size[d] = 1;
  }
}

namespace {

isapack_status_t LaunchKernel(isapack_device_t device, isapack_kernel_t kernel,
                              const isapack_dispatch_t* dispatch, isapack_completion_t* out,
                              bool wait) {
  if (device == nullptr) return NullArgument("device");
  if (kernel == nullptr) return NullArgument("kernel");
  if (dispatch == nullptr) return NullArgument("dispatch");
  if (dispatch->struct_size != sizeof(isapack_dispatch_t)) {
    return ToStatus(ISAPACK_STATUS_INVALID_ARGUMENT,
                    "dispatch->struct_size is " + std::to_string(dispatch->struct_size) +
                        ", expected " + std::to_string(sizeof(isapack_dispatch_t)) +
                        "; initialise the dispatch with isapack_dispatch_init");
  }
  return Guard([&] {
    return StartDispatch(device->device->Launch(*KernelOf(kernel), *dispatch), out, wait);
  });
}

}  // namespace

ISAPACK_API isapack_status_t isapack_device_dispatch_async(isapack_device_t device,
                                                           isapack_kernel_t kernel,
                                                           const isapack_dispatch_t* dispatch,
                                                           isapack_completion_t* out_completion) {
  if (out_completion == nullptr) return NullArgument("out_completion");
  *out_completion = nullptr;
  return LaunchKernel(device, kernel, dispatch, out_completion, false);
}

ISAPACK_API isapack_status_t isapack_device_dispatch(isapack_device_t device,
                                                     isapack_kernel_t kernel,
                                                     const isapack_dispatch_t* dispatch) {
  return LaunchKernel(device, kernel, dispatch, nullptr, true);
}

ISAPACK_API isapack_status_t isapack_agent_list_create(const char* libhsa_path,
                                                       isapack_agent_list_t* out_list) {
  if (out_list == nullptr) return NullArgument("out_list");
  *out_list = nullptr;
  return Guard([&]() -> isapack_status_t {
    auto hsa = isapack::HsaLibrary::Load(libhsa_path);
    if (!hsa) return ToStatus(hsa.take_error());
    if (isapack::Status status = isapack::InitializeHsa(**hsa); !status)
      return ToStatus(std::move(status));
    auto agents = isapack::EnumerateAgents(**hsa);
    (*hsa)->api().hsa_shut_down();
    if (!agents) return ToStatus(agents.take_error());
    const auto& catalog = isapack::EmbeddedCatalog();
    if (!catalog) return ToStatus(catalog.error());
    auto list = std::make_unique<isapack_agent_list_s>();
    for (isapack::GpuAgent& gpu : agents->gpus) {
      isapack_agent_list_s::Entry entry;
      for (const std::string& name : gpu.isa_names) {
        entry.isa_names += (entry.isa_names.empty() ? "" : " ") + name;
      }
      const isapack::Selection selection =
          isapack::Select(gpu.isas, *catalog, {isapack::RetargetAllowed(true)});
      entry.trace = isapack::FormatTrace(selection, gpu.isas, *catalog);
      if (selection.ok()) {
        entry.code_object = std::string(catalog->entry(selection.entry).target_id);
        if (selection.retargeted) entry.code_object += ", " + isapack::RetargetClause(selection);
      } else {
        isapack::Error error = isapack::SelectionError(selection, gpu.isas, *catalog, gpu.product);
        entry.code = error.code;
        entry.message = std::move(error.message);
      }
      entry.agent = std::move(gpu);
      list->entries.push_back(std::move(entry));
    }
    list->hsa = std::move(*hsa);
    *out_list = list.release();
    return nullptr;
  });
}

ISAPACK_API size_t isapack_agent_list_count(isapack_agent_list_t list) {
  return list == nullptr ? 0 : list->entries.size();
}

ISAPACK_API isapack_status_t isapack_agent_list_get(isapack_agent_list_t list, size_t index,
                                                    isapack_agent_info_t* out_info) {
  if (list == nullptr) return NullArgument("list");
  if (out_info == nullptr) return NullArgument("out_info");
  if (index >= list->entries.size()) {
    return ToStatus(ISAPACK_STATUS_NOT_FOUND, "agent " + std::to_string(index) + " does not exist");
  }
  const auto& e = list->entries[index];
  *out_info = {e.agent.ordinal,
               e.agent.name.c_str(),
               e.agent.product.c_str(),
               e.agent.uuid.c_str(),
               e.isa_names.c_str(),
               e.code_object.empty() ? nullptr : e.code_object.c_str(),
               e.code,
               e.message.c_str(),
               e.trace.c_str()};
  return nullptr;
}

ISAPACK_API const char* isapack_agent_list_hsa_library(isapack_agent_list_t list) {
  return list == nullptr ? nullptr : list->hsa->path().c_str();
}

ISAPACK_API const char* isapack_agent_list_simulation(isapack_agent_list_t list) {
  return list == nullptr || list->hsa->simulation().empty() ? nullptr
                                                            : list->hsa->simulation().c_str();
}

ISAPACK_API void isapack_agent_list_free(isapack_agent_list_t list) {
  delete list;
}

}  // extern "C"
