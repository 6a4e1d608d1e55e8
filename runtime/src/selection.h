// Picks the catalog entry for an agent from its HSA ISA list. For each ISA in
// the agent's priority order: an exact code object whose explicit feature
// modes match (the more explicit the better), then one built for "any";
// then the generic object of the processor's family, but only when the
// agent's ISA list contains that generic ISA (how a ROCr with generic
// support, >= 6.4, shows itself; older ROCr rejects generic objects).
//
// Select() neither allocates nor formats: the trace is a fixed array of
// records. Messages are built only when asked for.
#ifndef ISAPACK_RUNTIME_SELECTION_H_
#define ISAPACK_RUNTIME_SELECTION_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "catalog.h"
#include "error.h"
#include "target_id.h"

namespace isapack {

inline constexpr size_t kMaxAgentIsas = 8;
inline constexpr size_t kMaxTraceRecords = 32;
inline constexpr size_t kNoEntry = SIZE_MAX;

// Why a candidate was taken or passed over.
enum class Verdict : uint8_t {
  kSelected,             // the chosen entry
  kLessSpecific,         // matches, but another match names more feature modes
  kFeatureMismatch,      // an explicit xnack/sramecc mode differs from the agent's
  kGenericNotListed,     // generic object, but the agent lists no generic ISA
  kGenericVersionTooLow, // generic object older than the processor's family membership
};

struct TraceRecord {
  uint16_t entry;   // catalog index
  uint8_t isa;      // index into the agent's ISA list
  Verdict verdict;
};

struct Selection {
  size_t entry = kNoEntry;  // chosen catalog index
  size_t isa = 0;           // the agent ISA it was chosen for
  // A generic object would have matched had ROCr listed the generic ISA.
  bool blocked_by_missing_generic_isa = false;
  std::array<TraceRecord, kMaxTraceRecords> trace{};
  size_t trace_size = 0;
  bool trace_truncated = false;

  bool ok() const { return entry != kNoEntry; }
};

// Runs the selection. `agent_isas` are parsed ISA names in priority order.
Selection Select(std::span<const TargetId> agent_isas, const Catalog& catalog);

// Human-readable trace: one line per agent ISA, then one per candidate.
std::string FormatTrace(const Selection& selection, std::span<const TargetId> agent_isas,
                        const Catalog& catalog);

// The error for a failed selection: ROCR_TOO_OLD when only a generic object
// matched, else UNSUPPORTED_DEVICE naming the agent's ISAs and product, the
// code objects this build carries and the selector that would cover it.
// `product` may be empty (then the target table's product name is used).
Error SelectionError(const Selection& selection, std::span<const TargetId> agent_isas,
                     const Catalog& catalog, std::string_view product);

// The selectors that would cover `processor`: its smallest TheRock family
// (or the processor itself when no family lists it) and its generic target.
std::string CoveringSelectors(const ProcessorInfo& processor);

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_SELECTION_H_
