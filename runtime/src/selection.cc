#include "selection.h"

#include <cstdlib>
#include <cstring>

#include "code_object.h"

namespace isapack {
namespace {

void Record(Selection* selection, size_t entry, size_t isa, Verdict verdict) {
  if (selection->trace_size == selection->trace.size()) {
    selection->trace_truncated = true;
    return;
  }
  selection->trace[selection->trace_size++] = {static_cast<uint16_t>(entry),
                                               static_cast<uint8_t>(isa), verdict};
}

int ExplicitFeatures(const TargetId& id) {
  return (id.sramecc == FeatureSetting::kOn || id.sramecc == FeatureSetting::kOff) +
         (id.xnack == FeatureSetting::kOn || id.xnack == FeatureSetting::kOff);
}

bool FeaturesMatch(const TargetId& object, const TargetId& agent) {
  return FeatureCompatible(object.sramecc, agent.sramecc) &&
         FeatureCompatible(object.xnack, agent.xnack);
}

// True when the agent's ISA list holds the generic ISA `generic`.
bool ListsGeneric(std::span<const TargetId> agent_isas, const GenericInfo* generic) {
  for (const TargetId& isa : agent_isas) {
    if (isa.generic == generic) return true;
  }
  return false;
}

// The candidates of one kind (exact or generic) for agent ISA `isa`: the
// compatible one naming the most feature modes wins, ties go to catalog order.
size_t BestCandidate(std::span<const TargetId> agent_isas, size_t isa, const Catalog& catalog,
                     bool generic, SelectionOptions options, Selection* selection) {
  const TargetId& agent = agent_isas[isa];
  const GenericInfo* agent_generic = GenericOf(*agent.processor);
  size_t best = kNoEntry;
  int best_explicit = -1;
  for (size_t i = 0; i < catalog.size(); ++i) {
    const CatalogEntry& entry = catalog.entry(i);
    const TargetId& object = entry.target;
    if (object.processor == nullptr && object.generic == nullptr) continue;
    if (generic ? (agent_generic == nullptr || object.generic != agent_generic)
                : object.processor != agent.processor) {
      continue;
    }
    // A retargeted object carries the member's settings (retarget.h), which
    // is what the agent must accept.
    const bool retarget = generic && options.retarget && !ListsGeneric(agent_isas, agent_generic);
    const TargetId loaded =
        retarget ? GenericMember::Of(object, *agent.processor)->retargeted() : object;
    if (!FeaturesMatch(loaded, agent)) {
      Record(selection, i, isa, Verdict::kFeatureMismatch);
      continue;
    }
    if (generic) {
      const uint8_t generic_version = static_cast<uint8_t>(entry.e_flags >> 24);
      if (generic_version < agent.processor->generic_version) {
        Record(selection, i, isa, Verdict::kGenericVersionTooLow);
        continue;
      }
      if (!retarget && !ListsGeneric(agent_isas, agent_generic)) {
        Record(selection, i, isa, Verdict::kGenericNotListed);
        selection->blocked_by_missing_generic_isa = true;
        continue;
      }
    }
    if (ExplicitFeatures(object) > best_explicit) {
      if (best != kNoEntry) Record(selection, best, isa, Verdict::kLessSpecific);
      best = i;
      best_explicit = ExplicitFeatures(object);
      selection->retargeted = retarget;
      if (retarget) selection->retargeted_to = loaded;
    } else {
      Record(selection, i, isa, Verdict::kLessSpecific);
    }
  }
  return best;
}

std::string_view VerdictText(Verdict verdict) {
  switch (verdict) {
    case Verdict::kSelected:
      return "selected";
    case Verdict::kLessSpecific:
      return "compatible, but another entry names more of the agent's feature modes";
    case Verdict::kFeatureMismatch:
      return "rejected: built for a different xnack/sramecc mode than the agent's";
    case Verdict::kGenericNotListed:
      return "rejected: generic code object, but the agent's ISA list has no generic ISA "
             "(ROCr < 6.4 cannot load generic code objects)";
    case Verdict::kGenericVersionTooLow:
      return "rejected: its generic version is older than the processor's membership";
    case Verdict::kSelectedRetargeted:
      return "selected";  // FormatTrace names the target
  }
  return "";
}

std::string CatalogTargets(const Catalog& catalog) {
  std::string targets;
  for (size_t i = 0; i < catalog.size(); ++i) {
    targets += (targets.empty() ? "" : " ") + std::string(catalog.entry(i).target_id);
  }
  return targets;
}

}  // namespace

bool RetargetAllowed(bool requested) {
  const char* value = secure_getenv("ISAPACK_RETARGET");
  return requested && !(value != nullptr && std::strcmp(value, "0") == 0);
}

Selection Select(std::span<const TargetId> agent_isas, const Catalog& catalog,
                 SelectionOptions options) {
  Selection selection;
  for (size_t isa = 0; isa < agent_isas.size(); ++isa) {
    // Generic ISAs in the list only announce generic support.
    if (agent_isas[isa].processor == nullptr) continue;
    for (bool generic : {false, true}) {
      selection.retargeted = false;
      const size_t best = BestCandidate(agent_isas, isa, catalog, generic, options, &selection);
      if (best != kNoEntry) {
        selection.entry = best;
        selection.isa = isa;
        Record(&selection, best, isa,
               selection.retargeted ? Verdict::kSelectedRetargeted : Verdict::kSelected);
        return selection;
      }
    }
  }
  return selection;
}

std::string FormatTrace(const Selection& selection, std::span<const TargetId> agent_isas,
                        const Catalog& catalog) {
  std::string text;
  for (size_t isa = 0; isa < agent_isas.size(); ++isa) {
    text += "agent ISA " + agent_isas[isa].ToIsaName() + "\n";
    bool any = false;
    for (size_t r = 0; r < selection.trace_size; ++r) {
      const TraceRecord& record = selection.trace[r];
      if (record.isa != isa) continue;
      any = true;
      text += "  " + std::string(catalog.entry(record.entry).target_id) + ": " +
              std::string(VerdictText(record.verdict));
      if (record.verdict == Verdict::kSelectedRetargeted) text += ", " + RetargetClause(selection);
      text += "\n";
    }
    if (!any && agent_isas[isa].processor != nullptr && selection.ok() && isa > selection.isa) {
      // Select stops at the first ISA with a code object: later ones are not
      // looked at, which says nothing about whether they have one.
      text += "  not considered: " + std::string(catalog.entry(selection.entry).target_id) +
              " was selected for " + agent_isas[selection.isa].ToIsaName() + ", listed earlier\n";
    } else if (!any) {
      text += agent_isas[isa].processor == nullptr
                  ? "  (generic ISA: the HSA runtime can load " +
                        std::string(agent_isas[isa].name()) + " code objects)\n"
                  : "  no code object for " + std::string(agent_isas[isa].name()) +
                        " or its generic target in this build\n";
    }
  }
  if (selection.trace_truncated) text += "  (trace truncated)\n";
  return text;
}

std::string RetargetClause(const Selection& selection) {
  return "retargeted to " + selection.retargeted_to.ToString() + " (code object v" +
         std::to_string(kRetargetCodeObjectVersion) + ") for a ROCr without generic support";
}

std::string CoveringSelectors(const ProcessorInfo& processor) {
  const size_t index = IndexOf(processor);
  const GroupInfo* smallest = nullptr;
  for (const GroupInfo& group : Groups()) {
    if (group.kind != GroupKind::kFamily) continue;
    bool member = false;
    for (uint16_t m : group.members) member = member || m == index;
    if (member && (smallest == nullptr || group.members.size() < smallest->members.size())) {
      smallest = &group;
    }
  }
  std::string selectors(smallest ? smallest->name : processor.name);
  if (const GenericInfo* generic = GenericOf(processor))
    selectors += " or " + std::string(generic->name);
  return selectors;
}

Error SelectionError(const Selection& selection, std::span<const TargetId> agent_isas,
                     const Catalog& catalog, std::string_view product, const CatalogLabel& label) {
  const TargetId* agent = nullptr;
  std::string isa_names;
  for (const TargetId& isa : agent_isas) {
    if (agent == nullptr && isa.processor != nullptr) agent = &isa;
    isa_names += (isa_names.empty() ? "" : " ") + isa.ToIsaName();
  }
  if (agent == nullptr) {
    return MakeError(ISAPACK_STATUS_UNSUPPORTED_DEVICE,
                     "the agent reports no processor ISA (only " +
                         (isa_names.empty() ? std::string("nothing") : isa_names) +
                         "); isapack cannot pick a code object for it");
  }
  const ProcessorInfo& processor = *agent->processor;
  if (product.empty()) product = processor.product;
  const std::string who =
      std::string(processor.name) + (product.empty() ? "" : " (" + std::string(product) + ")");
  if (selection.blocked_by_missing_generic_isa) {
    return MakeError(
        ISAPACK_STATUS_ROCR_TOO_OLD,
        std::string(label.name) + "'s code objects for " + who + " are generic (" +
            std::string(GenericOf(processor)->name) +
            ", code object v6), which needs ROCr >= 6.4, but this HSA runtime lists only " +
            isa_names +
            "; upgrade ROCm, leave retargeting on (unset ISAPACK_RETARGET) or rebuild with "
            "ISAPACK_CODE_OBJECT_MODE=exact");
  }
  return MakeError(ISAPACK_STATUS_UNSUPPORTED_DEVICE,
                   "no code object in " + std::string(label.name) + " matches the GPU " + who +
                       ": the agent reports " + isa_names + "; " + std::string(label.name) +
                       " carries " + CatalogTargets(catalog) +
                       "; rebuild with ISAPACK_GPU_TARGETS including " +
                       CoveringSelectors(processor));
}

}  // namespace isapack
