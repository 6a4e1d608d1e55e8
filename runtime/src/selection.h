// Picks the catalog entry for an agent from its HSA ISA list. For each ISA in
// the agent's priority order: an exact code object whose explicit feature
// modes match (the more explicit the better), then one built for "any";
// then the generic object of the processor's family. When the agent's ISA
// list contains that generic ISA (how a ROCr with generic support, >= 6.4,
// shows itself) the object loads as it is; otherwise, unless retargeting is
// off, it is chosen to be rewritten as a code object v5 for the agent's
// processor (retarget.h), which every ROCr >= 5.0 loads.
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
#include "retarget.h"
#include "target_id.h"

namespace isapack {

inline constexpr size_t kMaxAgentIsas = 8;
inline constexpr size_t kMaxTraceRecords = 32;
inline constexpr size_t kNoEntry = SIZE_MAX;

// Why a candidate was taken or passed over.
enum class Verdict : uint8_t {
  kSelected,              // the chosen entry
  kLessSpecific,          // matches, but another match names more feature modes
  kFeatureMismatch,       // an explicit xnack/sramecc mode differs from the agent's
  kGenericNotListed,      // generic object, but the agent lists no generic ISA
  kGenericVersionTooLow,  // generic object older than the processor's family membership
  kSelectedRetargeted,    // the chosen entry, to be rewritten for the agent's processor
};

struct TraceRecord {
  uint16_t entry;  // catalog index
  uint8_t isa;     // index into the agent's ISA list
  Verdict verdict;
};

struct Selection {
  size_t entry = kNoEntry;  // chosen catalog index
  size_t isa = 0;           // the agent ISA it was chosen for
  // The chosen entry is generic and the agent lists no generic ISA: it is
  // rewritten for `retargeted_to` (the agent's processor) before loading.
  bool retargeted = false;
  TargetId retargeted_to;
  // A generic object would have matched had ROCr listed the generic ISA
  // (only with retargeting off).
  bool blocked_by_missing_generic_isa = false;
  std::array<TraceRecord, kMaxTraceRecords> trace{};
  size_t trace_size = 0;
  bool trace_truncated = false;

  bool ok() const { return entry != kNoEntry; }
};

struct SelectionOptions {
  bool retarget = true;  // choose generic objects for agents that list no generic ISA
};

// Runs the selection. `agent_isas` are parsed ISA names in priority order.
Selection Select(std::span<const TargetId> agent_isas, const Catalog& catalog,
                 SelectionOptions options = {});

// Whether retargeting is allowed: `requested` unless ISAPACK_RETARGET=0 is set
// (read with secure_getenv, so setuid programs ignore it).
bool RetargetAllowed(bool requested);

// Human-readable trace: one line per agent ISA, then one per candidate.
std::string FormatTrace(const Selection& selection, std::span<const TargetId> agent_isas,
                        const Catalog& catalog);

// How messages name a catalog and what to do when it is damaged: the one
// built into libisapack by default, another (isapack_add_device_library's,
// a file) by its name.
struct CatalogLabel {
  std::string_view name = "this build";
  std::string_view damage_fix = "the installed library is damaged: reinstall libisapack";
};

// The error for a failed selection: ROCR_TOO_OLD when only a generic object
// matched, else UNSUPPORTED_DEVICE naming the agent's ISAs and product, the
// code objects the catalog carries and the selector that would cover it.
// `product` may be empty (then the target table's product name is used).
Error SelectionError(const Selection& selection, std::span<const TargetId> agent_isas,
                     const Catalog& catalog, std::string_view product,
                     const CatalogLabel& label = {});

// "retargeted to gfx1036 (code object v5) for a ROCr without generic
// support", for a retargeted selection.
std::string RetargetClause(const Selection& selection);

// The selectors that would cover `processor`: its smallest TheRock family
// (or the processor itself when no family lists it) and its generic target.
std::string CoveringSelectors(const ProcessorInfo& processor);

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_SELECTION_H_
