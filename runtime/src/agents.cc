#include "agents.h"

#include <cstring>

namespace isapack {
namespace {

struct IterationState {
  const HsaLibrary* hsa;
  AgentSet* set;
  hsa_status_t failure = HSA_STATUS_SUCCESS;
};

// HSA's AMD extension queries share hsa_agent_get_info with values outside
// hsa_agent_info_t's enumerators (as ROCr's own callers do).
hsa_agent_info_t AmdAgentInfo(hsa_amd_agent_info_t query) {
  return static_cast<hsa_agent_info_t>(static_cast<int>(query));
}

template <size_t N>
std::string FixedString(const char (&text)[N]) {
  return std::string(text, strnlen(text, N));
}

hsa_status_t CollectIsa(hsa_isa_t isa, void* data) {
  auto* state = static_cast<std::pair<const HsaApi*, GpuAgent*>*>(data);
  uint32_t length = 0;
  hsa_status_t status = state->first->hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &length);
  if (status != HSA_STATUS_SUCCESS) return status;
  if (length > 1024) return HSA_STATUS_ERROR_INVALID_ISA;
  std::string name(length + 1, '\0');
  status = state->first->hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name.data());
  if (status != HSA_STATUS_SUCCESS) return status;
  name.resize(strnlen(name.c_str(), name.size()));
  TargetId id;
  if (ParseIsaName(name, &id, /*accept_bare=*/false).error == TargetIdError::kOk &&
      state->second->isas.size() < kMaxAgentIsas) {
    state->second->isas.push_back(id);
  }
  state->second->isa_names.push_back(std::move(name));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t CollectAgent(hsa_agent_t agent, void* data) {
  auto* state = static_cast<IterationState*>(data);
  const HsaApi& api = state->hsa->api();
  hsa_device_type_t type;
  hsa_status_t status = api.hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
  if (status != HSA_STATUS_SUCCESS) return state->failure = status;
  if (type == HSA_DEVICE_TYPE_CPU) {
    if (!state->set->has_cpu) {
      state->set->cpu = agent;
      state->set->has_cpu = true;
    }
    return HSA_STATUS_SUCCESS;
  }
  if (type != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_SUCCESS;
  GpuAgent gpu;
  gpu.agent = agent;
  gpu.ordinal = static_cast<uint32_t>(state->set->gpus.size());
  char name[64] = {}, product[64] = {}, uuid[21] = {};
  if ((status = api.hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, name)) != HSA_STATUS_SUCCESS ||
      (status = api.hsa_agent_get_info(agent, AmdAgentInfo(HSA_AMD_AGENT_INFO_PRODUCT_NAME),
                                       product)) != HSA_STATUS_SUCCESS ||
      (status = api.hsa_agent_get_info(agent, AmdAgentInfo(HSA_AMD_AGENT_INFO_UUID), uuid)) !=
          HSA_STATUS_SUCCESS ||
      (status = api.hsa_agent_get_info(agent, HSA_AGENT_INFO_WAVEFRONT_SIZE,
                                       &gpu.wavefront_size)) != HSA_STATUS_SUCCESS ||
      (status = api.hsa_agent_get_info(agent, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE,
                                       &gpu.workgroup_max_size)) != HSA_STATUS_SUCCESS ||
      (status = api.hsa_agent_get_info(agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE,
                                       &gpu.queue_max_size)) != HSA_STATUS_SUCCESS ||
      (status = api.hsa_agent_get_info(agent, HSA_AGENT_INFO_PROFILE, &gpu.profile)) !=
          HSA_STATUS_SUCCESS) {
    return state->failure = status;
  }
  gpu.name = FixedString(name);
  gpu.product = FixedString(product);
  gpu.uuid = FixedString(uuid);
  std::pair<const HsaApi*, GpuAgent*> isa_state(&api, &gpu);
  status = api.hsa_agent_iterate_isas(agent, CollectIsa, &isa_state);
  if (status != HSA_STATUS_SUCCESS) return state->failure = status;
  state->set->gpus.push_back(std::move(gpu));
  return HSA_STATUS_SUCCESS;
}

}  // namespace

Status InitializeHsa(const HsaLibrary& hsa) {
  const hsa_status_t status = hsa.api().hsa_init();
  if (status == HSA_STATUS_SUCCESS) return {};
  return DiagnoseInitFailure(hsa.Describe(status), CheckKfdAccess());
}

Expected<AgentSet> EnumerateAgents(const HsaLibrary& hsa) {
  AgentSet set;
  IterationState state{&hsa, &set};
  const hsa_status_t status = hsa.api().hsa_iterate_agents(CollectAgent, &state);
  if (status != HSA_STATUS_SUCCESS || state.failure != HSA_STATUS_SUCCESS) {
    return MakeError(
        ISAPACK_STATUS_HSA_ERROR,
        "enumerating HSA agents failed: " +
            hsa.Describe(state.failure != HSA_STATUS_SUCCESS ? state.failure : status));
  }
  return set;
}

}  // namespace isapack
