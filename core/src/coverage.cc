#include "coverage.h"

#include <cstdio>

#include "target_table.h"

namespace isapack {
namespace {

int ExplicitFeatures(const TargetId& id) {
  return (id.sramecc == FeatureSetting::kOn || id.sramecc == FeatureSetting::kOff) +
         (id.xnack == FeatureSetting::kOn || id.xnack == FeatureSetting::kOff);
}

bool FeaturesMatch(const TargetId& object, const TargetId& gpu) {
  return FeatureCompatible(object.sramecc, gpu.sramecc) &&
         FeatureCompatible(object.xnack, gpu.xnack);
}

std::string IsaText(const IsaVersion& isa) {
  char text[16];
  std::snprintf(text, sizeof(text), "%u.%u.%u", isa.major, isa.minor, isa.stepping);
  return text;
}

}  // namespace

std::string_view ToString(CoverageWay way) {
  switch (way) {
    case CoverageWay::kExact:
      return "exact";
    case CoverageWay::kGeneric:
      return "generic";
    case CoverageWay::kGenericRetargeted:
      return "generic-retargeted";
    case CoverageWay::kNotCovered:
      break;
  }
  return "not-covered";
}

CoverageAnswer CoverProcessor(const TargetId& gpu, std::span<const CoverageObject> objects,
                              unsigned rocr) {
  CoverageAnswer answer;
  if (gpu.processor == nullptr) return answer;
  // Exact: the compatible object naming the most feature modes.
  int best = -1;
  for (const CoverageObject& object : objects) {
    if (object.target.processor != gpu.processor || !FeaturesMatch(object.target, gpu)) continue;
    if (ExplicitFeatures(object.target) > best) {
      best = ExplicitFeatures(object.target);
      answer.way = CoverageWay::kExact;
      answer.object = object.target.ToString();
    }
  }
  if (answer.way == CoverageWay::kExact) return answer;

  const GenericInfo* family = GenericOf(*gpu.processor);
  std::string too_old;  // a generic object that needs a newer ROCr
  for (const CoverageObject& object : objects) {
    if (family == nullptr || object.target.generic != family) continue;
    if (object.generic_version < gpu.processor->generic_version) continue;
    if (!FeaturesMatch(object.target, gpu)) continue;
    if (rocr >= kFirstRocrWithGenericIsas) {
      answer.way = CoverageWay::kGeneric;
      answer.object = object.target.ToString();
      return answer;
    }
    if (object.retargetable) {
      answer.way = CoverageWay::kGenericRetargeted;
      answer.object = object.target.ToString();
      return answer;
    }
    if (too_old.empty()) too_old = object.target.ToString();
  }
  if (!too_old.empty()) {
    answer.hint = "needs ROCr >= 6.4 to load the generic code object " + too_old;
    return answer;
  }
  // A sibling's exact object (gfx1031 with only gfx1030 inside): what users
  // do is pretend to be the sibling.
  for (const CoverageObject& object : objects) {
    const ProcessorInfo* sibling = object.target.processor;
    if (sibling == nullptr || sibling == gpu.processor) continue;
    if (sibling->isa.major != gpu.processor->isa.major ||
        sibling->isa.minor != gpu.processor->isa.minor) {
      continue;
    }
    answer.hint = "only " + object.target.ToString() +
                  " inside; would need HSA_OVERRIDE_GFX_VERSION=" + IsaText(sibling->isa) +
                  " or an ISA-fallback patch";
    return answer;
  }
  return answer;
}

}  // namespace isapack
