#include "prepare.h"

#include <iterator>
#include <string>
#include <utility>

#include "code_object.h"
#include "retarget.h"
#include "target_table.h"

namespace isapack {
namespace {

// The kernel descriptors ("<name>.kd") a code object defines.
std::vector<std::string> KernelDescriptors(std::span<const uint8_t> image) {
  std::vector<std::string> descriptors;
  auto symbols = ReadSymbols(image);
  if (!symbols) return descriptors;
  for (const CodeObjectSymbol& symbol : *symbols) {
    if (symbol.name.size() > 3 && symbol.name.ends_with(".kd"))
      descriptors.emplace_back(symbol.name);
  }
  return descriptors;
}

// Rewrites the verified generic object for the agent's processor, then
// validates the result as that exact target, with every kernel the generic
// object had, before HSA sees it.
Expected<PreparedCodeObject> Retarget(PreparedCodeObject prepared, const TargetId& generic,
                                      const TargetId& isa) {
  const std::optional<GenericMember> member = GenericMember::Of(generic, *isa.processor);
  if (!member) {
    return MakeError(ISAPACK_STATUS_INTERNAL, "selection chose " + generic.ToString() +
                                                  " to retarget for " + isa.ToString() +
                                                  ", which is not in its family");
  }
  auto rewritten = RetargetToMember(prepared.image, *member);
  if (!rewritten) return rewritten.take_error();
  const std::vector<std::string> problems = ValidateCodeObject(
      *rewritten,
      {member->retargeted(), kRetargetCodeObjectVersion, KernelDescriptors(prepared.image)});
  if (!problems.empty()) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT, "the code object retargeted from " +
                                                      generic.ToString() + " to " +
                                                      member->retargeted().ToString() +
                                                      " does not validate: " + problems.front());
  }
  prepared.image = std::move(*rewritten);
  return prepared;
}

}  // namespace

Expected<PreparedCodeObject> PrepareCodeObject(const Catalog& catalog,
                                               std::span<const TargetId> agent_isas,
                                               std::string_view product, SelectionOptions options,
                                               const CatalogLabel& label) {
  PreparedCodeObject prepared;
  prepared.selection = Select(agent_isas, catalog, options);
  const Selection& selection = prepared.selection;
  if (!selection.ok()) return SelectionError(selection, agent_isas, catalog, product, label);
  const CatalogEntry entry = catalog.entry(selection.entry);

  if (Status status = catalog.DecodeTo(selection.entry, &prepared.image); !status)
    return status.error();
  auto header = ReadCodeObjectHeader(prepared.image);
  if (!header) return header.take_error();
  auto object = TargetIdOfHeader(*header);
  const TargetId& isa = agent_isas[selection.isa];
  const bool same_target =
      object && (object->processor == isa.processor ||
                 (object->generic != nullptr && object->generic == GenericOf(*isa.processor)));
  if (header->flags != entry.e_flags || !same_target ||
      !FeatureCompatible(header->xnack, isa.xnack) ||
      !FeatureCompatible(header->sramecc, isa.sramecc)) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT,
                     "the code object " + std::string(entry.target_id) + " of " +
                         std::string(label.name) + " (e_flags " + std::to_string(header->flags) +
                         ") does not fit agent ISA " + isa.ToIsaName() + "; " +
                         std::string(label.damage_fix));
  }
  if (selection.retargeted) return Retarget(std::move(prepared), *object, isa);
  return prepared;
}

}  // namespace isapack
