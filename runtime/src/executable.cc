#include "executable.h"

#include "kernel_metadata.h"
#include "prepare.h"
#include "selection.h"

namespace isapack {
namespace {

Error Hsa(const HsaLibrary& hsa, const std::string& what, hsa_status_t status) {
  return MakeError(ISAPACK_STATUS_HSA_ERROR, what + " failed: " + hsa.Describe(status));
}

// Why HSA refused a code object, and what to do about it.
std::string LoadRejectionHint(hsa_status_t status, const std::string& target, unsigned version,
                              const std::string& isa_names) {
  switch (status) {
    case HSA_STATUS_ERROR_INVALID_CODE_OBJECT:
      return "this HSA runtime cannot read code object v" + std::to_string(version) +
             " (v6 needs ROCr >= 6.2, generic code objects ROCr >= 6.4, v5 ROCr >= 5.0); upgrade "
             "ROCm "
             "or rebuild with ISAPACK_CODE_OBJECT_MODE=exact and an older "
             "ISAPACK_CODE_OBJECT_VERSION";
    case HSA_STATUS_ERROR_INVALID_ISA_NAME:
      return "this HSA runtime does not know the ISA " + target +
             "; it predates the target (generic targets need ROCr >= 6.4): upgrade ROCm or rebuild "
             "with ISAPACK_CODE_OBJECT_MODE=exact";
    case HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS:
      return "the HSA runtime says this agent cannot run " + target +
             " (a processor or xnack/sramecc mode mismatch; the agent reports " + isa_names + ")";
    default:
      return "the HSA runtime rejected " + target;
  }
}

std::string WithoutDescriptorSuffix(std::string_view name) {
  if (name.size() > 3 && name.ends_with(".kd")) name.remove_suffix(3);
  return std::string(name);
}

}  // namespace

Expected<std::unique_ptr<Executable>> Executable::Load(
    const LoadTarget& target, std::shared_ptr<const CatalogSource> source) {
  std::unique_ptr<Executable> executable(new Executable());
  executable->hsa_ = target.hsa;
  executable->owner_ = target.owner;
  executable->source_ = std::move(source);
  const CatalogSource& catalog = *executable->source_;
  const std::string damage_fix = catalog.DamageFix();
  const GpuAgent& agent = *target.agent;
  // Decompress only the chosen object; check its hash and its ELF header
  // against the agent before HSA sees a byte.
  auto prepared = PrepareCodeObject(catalog.catalog(), agent.isas, agent.product, {target.retarget},
                                    {catalog.name(), damage_fix});
  if (!prepared) {
    Error error = prepared.take_error();
    if (!catalog.builtin() && error.code == ISAPACK_STATUS_DATA_CORRUPT &&
        error.message.find(catalog.name()) == std::string::npos) {
      error.message = catalog.name() + ": " + error.message;
    }
    return error;
  }
  const Selection& selection = prepared->selection;
  executable->selection_trace_ = FormatTrace(selection, agent.isas, catalog.catalog());
  executable->catalog_entry_ = selection.entry;
  const CatalogEntry entry = catalog.catalog().entry(selection.entry);
  executable->code_object_ = std::string(entry.target_id);
  if (selection.retargeted) executable->code_object_ += ", " + RetargetClause(selection);
  // A retargeted object reaches HSA as the agent's exact target, v5.
  const std::string loaded =
      selection.retargeted
          ? std::string(entry.target_id) + " retargeted to " + selection.retargeted_to.ToString()
          : executable->code_object_;
  const unsigned version =
      selection.retargeted ? kRetargetCodeObjectVersion : entry.code_object_version;
  if (Status status = executable->LoadImage(target, prepared->image, loaded, version); !status)
    return status.take_error();
  if (Status status = executable->ResolveKernels(target, prepared->image); !status)
    return status.take_error();
  return executable;
}

Status Executable::LoadImage(const LoadTarget& target, const std::vector<uint8_t>& image,
                             const std::string& loaded, unsigned version) {
  const HsaApi& api = hsa_->api();
  const GpuAgent& agent = *target.agent;
  hsa_code_object_reader_t reader;
  hsa_status_t status =
      api.hsa_code_object_reader_create_from_memory(image.data(), image.size(), &reader);
  if (status != HSA_STATUS_SUCCESS) return Hsa(*hsa_, "creating a code object reader", status);
  status = api.hsa_executable_create_alt(agent.profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, "",
                                         &executable_);
  if (status != HSA_STATUS_SUCCESS) {
    api.hsa_code_object_reader_destroy(reader);
    return Hsa(*hsa_, "creating an executable", status);
  }
  created_ = true;
  status = api.hsa_executable_load_agent_code_object(executable_, agent.agent, reader, "", nullptr);
  if (status == HSA_STATUS_SUCCESS) status = api.hsa_executable_freeze(executable_, "");
  api.hsa_code_object_reader_destroy(reader);
  if (status == HSA_STATUS_ERROR_INVALID_AGENT) {
    return MakeError(
        ISAPACK_STATUS_NO_DEVICE,
        "the GPU agent " + agent.name + " (" + agent.uuid +
            ") went away while its code object was loading: " + hsa_->Describe(status));
  }
  if (status != HSA_STATUS_SUCCESS) {
    return MakeError(ISAPACK_STATUS_LOAD_REJECTED,
                     "loading " + loaded + " (code object v" + std::to_string(version) + ") on " +
                         agent.name + " failed: " + hsa_->Describe(status) + "; " +
                         LoadRejectionHint(status, loaded, version, target.isa_names));
  }
  return {};
}

Status Executable::ResolveKernels(const LoadTarget& target, const std::vector<uint8_t>& image) {
  auto metadata = ReadKernelMetadata(image);
  if (!metadata) {
    return MakeError(metadata.error().code, "the code object " + code_object_ + " of " +
                                                source_->name() + ": " + metadata.error().message);
  }
  const HsaApi& api = hsa_->api();
  for (const KernelMetadata& meta : *metadata) {
    LoadedKernel kernel;
    kernel.executable = this;
    kernel.name = meta.name;
    kernel.kernarg_size = meta.explicit_kernarg_size();
    kernel.max_workgroup_size = meta.max_flat_workgroup_size;
    hsa_executable_symbol_t symbol;
    hsa_status_t status = api.hsa_executable_get_symbol_by_name(executable_, meta.symbol.c_str(),
                                                                &target.agent->agent, &symbol);
    if (status != HSA_STATUS_SUCCESS)
      return Hsa(*hsa_, "finding kernel " + meta.symbol + " of " + code_object_, status);
    const std::pair<hsa_executable_symbol_info_t, void*> queries[] = {
        {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kernel.object},
        {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernel.kernarg_segment_size},
        {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT, &kernel.kernarg_alignment},
        {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &kernel.group_segment_size},
        {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &kernel.private_segment_size},
    };
    for (const auto& [query, value] : queries) {
      status = api.hsa_executable_symbol_get_info(symbol, query, value);
      if (status != HSA_STATUS_SUCCESS)
        return Hsa(*hsa_, "describing kernel " + meta.symbol + " of " + code_object_, status);
    }
    if (kernel.kernarg_segment_size < kernel.kernarg_size) {
      return MakeError(
          ISAPACK_STATUS_DATA_CORRUPT,
          "kernel " + meta.name + " of " + code_object_ + " has a kernarg segment of " +
              std::to_string(kernel.kernarg_segment_size) + " bytes, smaller than its " +
              std::to_string(kernel.kernarg_size) + " bytes of arguments; " + source_->DamageFix());
    }
    kernel.problem = hsa_->SimulatedKernelProblem(kernel.object);
    kernel_list_ += (kernel_list_.empty() ? "" : ", ") + kernel.name;
    kernels_.push_back(std::move(kernel));
  }
  return {};
}

Expected<const LoadedKernel*> Executable::FindKernel(std::string_view name) const {
  const std::string wanted = WithoutDescriptorSuffix(name);
  for (const LoadedKernel& kernel : kernels_) {
    if (kernel.name != wanted) continue;
    if (!kernel.problem.empty()) return MakeError(ISAPACK_STATUS_NOT_FOUND, kernel.problem);
    return &kernel;
  }
  return MakeError(ISAPACK_STATUS_NOT_FOUND,
                   "the code object " + code_object_ + " of " + source_->name() +
                       " has no kernel '" + wanted + "'; its kernels are " +
                       (kernel_list_.empty() ? std::string("none") : kernel_list_));
}

Executable::~Executable() {
  if (created_) hsa_->api().hsa_executable_destroy(executable_);
}

}  // namespace isapack
