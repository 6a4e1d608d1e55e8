// HSA agent discovery: the GPU agents in HSA's order with what isapack needs
// to know about each (names, UUID, ISA list, limits), and the CPU agent that
// owns host memory pools.
#ifndef ISAPACK_RUNTIME_AGENTS_H_
#define ISAPACK_RUNTIME_AGENTS_H_

#include <string>
#include <vector>

#include "error.h"
#include "hsa_library.h"
#include "selection.h"
#include "target_id.h"

namespace isapack {

struct GpuAgent {
  hsa_agent_t agent{};
  uint32_t ordinal = 0;                // index among GPU agents
  std::string name;                    // HSA_AGENT_INFO_NAME, e.g. "gfx1103"
  std::string product;                 // HSA_AMD_AGENT_INFO_PRODUCT_NAME
  std::string uuid;                    // HSA_AMD_AGENT_INFO_UUID, e.g. "GPU-0e12865a3bf5b7ab"
  std::vector<std::string> isa_names;  // HSA ISA names, priority order
  std::vector<TargetId> isas;          // parsed; unparsable names are skipped
  uint32_t wavefront_size = 0;
  uint32_t workgroup_max_size = 0;
  uint32_t queue_max_size = 0;
  hsa_profile_t profile = HSA_PROFILE_BASE;
};

struct AgentSet {
  std::vector<GpuAgent> gpus;
  hsa_agent_t cpu{};
  bool has_cpu = false;
};

// Enumerates agents of an initialised HSA runtime.
Expected<AgentSet> EnumerateAgents(const HsaLibrary& hsa);

// Loads the HSA library and initialises it; the error says why not (no
// driver, permissions, missing library).
Status InitializeHsa(const HsaLibrary& hsa);

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_AGENTS_H_
