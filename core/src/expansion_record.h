// What the configure step reports about an expansion: the summary lines it
// prints and the machine-readable record it writes (<build>/isapack-targets.json,
// also embedded in the catalog). Both come from here only; CMake prints the
// lines and reads the record (cmake/IsapackGpuTargets.cmake).
#ifndef ISAPACK_CORE_EXPANSION_RECORD_H_
#define ISAPACK_CORE_EXPANSION_RECORD_H_

#include <string>
#include <vector>

#include "expansion.h"

namespace isapack {

// The configure step's inputs besides the expansion options.
struct ExpansionContext {
  std::vector<std::string> selectors;  // as the variable held them (a CMake list, split)
  std::string selectors_from;  // ISAPACK_GPU_TARGETS, GPU_TARGETS, AMDGPU_TARGETS or default
  std::string isapack_version;
  std::string compiler_path;
  std::string compiler_version;  // e.g. 19.1.7
  std::string
      compiler_probe;  // how the supported list was found, e.g. "from clang --print-supported-cpus"
  // The device library the expansion is for (isapack_add_device_library's
  // name); empty for isapack's own build. Recorded as "library" and named in
  // the summary.
  std::string library;
};

// The error configure prints for a failed expansion: the expansion's own
// message, except that a list of separators only names the variable it came
// from.
std::string ConfigureErrorMessage(const ExpansionContext& context, const ExpansionOptions& options,
                                  const std::string& expansion_error);

// The record (schema 1), as JSON text: selectors, where they came from,
// mode, compiler, code objects with what each covers, covered targets,
// left-out targets. (The JSON library stays in the .cc: configure compiles
// this, and each file that includes the library takes seconds.)
std::string ExpansionRecordText(const ExpansionContext& context, const ExpansionOptions& options,
                                const Expansion& expansion);

// The summary configure prints, one line per message, without the "-- ".
std::vector<std::string> ExpansionSummary(const ExpansionContext& context,
                                          const ExpansionOptions& options,
                                          const Expansion& expansion);

}  // namespace isapack

#endif  // ISAPACK_CORE_EXPANSION_RECORD_H_
