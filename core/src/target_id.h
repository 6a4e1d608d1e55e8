// Target IDs and HSA ISA names: parsing, canonical formatting and matching.
//   target ID:     gfx90a:sramecc+:xnack-   (processor or generic, features)
//   HSA ISA name:  amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-
// Parsing and formatting never allocate: they run on the selection path.
#ifndef ISAPACK_CORE_TARGET_ID_H_
#define ISAPACK_CORE_TARGET_ID_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "target_table.h"

namespace isapack {

// A target-ID feature's setting. In a target ID, kAny means "not named"; in
// an ELF header, kUnsupported means the field is 0 (the processor lacks it).
enum class FeatureSetting : uint8_t { kUnsupported, kAny, kOff, kOn };

std::string_view ToString(FeatureSetting setting);

// A parsed target ID: exactly one of `processor` and `generic` is set.
struct TargetId {
  const ProcessorInfo* processor = nullptr;
  const GenericInfo* generic = nullptr;
  FeatureSetting sramecc = FeatureSetting::kAny;
  FeatureSetting xnack = FeatureSetting::kAny;

  bool is_generic() const { return generic != nullptr; }
  std::string_view name() const { return generic ? generic->name : processor->name; }
  uint8_t mach() const { return generic ? generic->mach : processor->mach; }
  FeatureSupport sramecc_support() const { return generic ? generic->sramecc : processor->sramecc; }
  FeatureSupport xnack_support() const { return generic ? generic->xnack : processor->xnack; }

  // Canonical spelling (sramecc before xnack) into buffer; returns the full
  // length, writing at most capacity-1 characters and a NUL.
  size_t Format(char* buffer, size_t capacity) const;
  std::string ToString() const;
  // The HSA ISA name, "amdgcn-amd-amdhsa--" + canonical target ID.
  std::string ToIsaName() const;

  friend bool operator==(const TargetId& a, const TargetId& b) {
    return a.processor == b.processor && a.generic == b.generic && a.sramecc == b.sramecc &&
           a.xnack == b.xnack;
  }
};

inline constexpr std::string_view kIsaNamePrefix = "amdgcn-amd-amdhsa--";

enum class TargetIdError : uint8_t {
  kOk,
  kEmpty,               // nothing to parse
  kUnknownProcessor,    // the processor is neither in the processor nor the generic table
  kMalformedFeature,    // a feature is not sramecc+/-, xnack+/-
  kDuplicateFeature,    // a feature is named twice
  kUnsupportedFeature,  // the processor lacks the feature
  kFeatureAlwaysOn,     // the feature is always on and never named (gfx125x xnack)
  kNotAnIsaName,        // an ISA name without the amdgcn-amd-amdhsa-- prefix
};

// The result of a parse: on error, `at` is the offending part of the input.
struct TargetIdParse {
  TargetIdError error = TargetIdError::kOk;
  std::string_view at;
};

// Parses a target ID. Features may come in any order; the result is
// canonical. Does not allocate.
TargetIdParse ParseTargetId(std::string_view text, TargetId* out);

// Parses an HSA ISA name, or (accept_bare) a bare target ID. Does not allocate.
TargetIdParse ParseIsaName(std::string_view text, TargetId* out, bool accept_bare = true);

// The first ROCr release (major * 100 + minor) that loads generic code
// objects and lists generic ISAs: 6.4.
inline constexpr unsigned kFirstRocrWithGenericIsas = 604;

// The generic ISA such a ROCr lists after an agent's own ISA: the
// processor's generic target, with the agent's feature settings where the
// generic has the feature. Nothing for a processor without a generic, or
// when `agent_isa` is itself generic.
std::optional<TargetId> GenericIsaOf(const TargetId& agent_isa);

// A message for a failed parse, naming the problem and what is valid.
std::string DescribeTargetIdError(std::string_view input, const TargetIdParse& parse);

// True when code built with setting `object` runs on a device whose setting
// is `device`: "any" or "unsupported" code runs in either mode; an explicit
// mode must equal the device's (an unknown device mode never matches it).
bool FeatureCompatible(FeatureSetting object, FeatureSetting device);

}  // namespace isapack

#endif  // ISAPACK_CORE_TARGET_ID_H_
