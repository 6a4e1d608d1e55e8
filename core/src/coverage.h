// Which GPUs a set of code objects runs on, and how: the rule `isapack
// coverage` applies to the code objects it finds in files and packages. It
// is the runtime's selection rule (runtime/src/selection.cc) asked the other
// way round, for a GPU that is not in this machine and a ROCr that may not
// be installed: an exact code object with compatible features first, then
// the processor's generic object when the consumer's ROCr loads generic code
// objects (>= 6.4) or libisapack rewrites it (objects of an isapack catalog).
#ifndef ISAPACK_CORE_COVERAGE_H_
#define ISAPACK_CORE_COVERAGE_H_

#include <span>
#include <string>
#include <string_view>

#include "target_id.h"

namespace isapack {

enum class CoverageWay : uint8_t {
  kExact,              // an exact code object for the processor
  kGeneric,            // the processor's generic object, loaded as it is
  kGenericRetargeted,  // the generic object, rewritten by libisapack for an older ROCr
  kNotCovered,
};

// "exact", "generic", "generic-retargeted", "not-covered".
std::string_view ToString(CoverageWay way);

// One code object found in a file.
struct CoverageObject {
  TargetId target;
  unsigned generic_version = 0;  // of a generic object (e_flags bits 24-31)
  bool retargetable = false;     // in an isapack catalog: libisapack retargets it
};

struct CoverageAnswer {
  CoverageWay way = CoverageWay::kNotCovered;
  std::string object;  // the covering object's target ID; empty when not covered
  // Not covered: what users end up doing, or what would make it load
  // ("needs ROCr >= 6.4 ...", "would need HSA_OVERRIDE_GFX_VERSION=10.3.0 ...").
  std::string hint;
};

// Whether `objects` cover GPU `gpu` (a processor; a feature "any" means the
// GPU's mode is unknown and either must do) for a ROCr of version `rocr`
// (major * 100 + minor).
CoverageAnswer CoverProcessor(const TargetId& gpu, std::span<const CoverageObject> objects,
                              unsigned rocr);

// The newest ROCr the rule knows of: every generic object loads.
inline constexpr unsigned kNewestRocr = 9999;

}  // namespace isapack

#endif  // ISAPACK_CORE_COVERAGE_H_
