// GPU names as people write them: a gfx name, a target ID, an HSA ISA name
// or a product name ("Radeon 780M"), resolved through the target table, and
// the closest known spelling when a name is unknown.
#ifndef ISAPACK_CORE_GPU_NAMES_H_
#define ISAPACK_CORE_GPU_NAMES_H_

#include <string>
#include <string_view>

#include "error.h"
#include "target_id.h"
#include "target_table.h"

namespace isapack {

// gfx name, target ID or product name (case-insensitive, "AMD " prefix and
// extra spaces ignored, as are the trailing words "Laptop", "iGPU" and "CDNA"
// of TheRock's names) -> processor; nullptr when unknown (generic targets
// are not processors).
const ProcessorInfo* FindProcessorByAnyName(std::string_view name);

// The same names as a target: a target ID keeps its features ("gfx90a:xnack+"),
// a product name gives the processor with every feature "any". An unknown
// name is INVALID_ARGUMENT with DescribeUnknownGpu's message.
Expected<TargetId> ResolveGpuName(std::string_view name);

// "unknown GPU 'Radeon 78OM': did you mean 'Radeon 780M' (gfx1103)? `isapack
// targets` lists every name". The suggestion is the gfx or product name
// nearest by edit distance, left out when none is within a third of its length.
// A generic target gets "'gfx11-generic' is a generic target, not a GPU: name
// one of its processors (gfx1100 ...)".
std::string DescribeUnknownGpu(std::string_view name);

}  // namespace isapack

#endif  // ISAPACK_CORE_GPU_NAMES_H_
