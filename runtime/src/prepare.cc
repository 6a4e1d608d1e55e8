#include "prepare.h"

#include <iterator>
#include <string>
#include <utility>

#include "code_object.h"
#include "isapack/device/kernels.h"
#include "retarget.h"
#include "target_table.h"

namespace isapack {
namespace {

// Rewrites the verified generic object for the agent's processor, then
// validates the result as that exact target before HSA sees it.
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
      *rewritten, {member->retargeted(), kRetargetCodeObjectVersion,
                   std::vector<std::string>(std::begin(isapack_kernel_descriptor_names),
                                            std::end(isapack_kernel_descriptor_names))});
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
                                               std::string_view product, SelectionOptions options) {
  PreparedCodeObject prepared;
  prepared.selection = Select(agent_isas, catalog, options);
  const Selection& selection = prepared.selection;
  if (!selection.ok()) return SelectionError(selection, agent_isas, catalog, product);
  const CatalogEntry entry = catalog.entry(selection.entry);

  prepared.image.resize(entry.uncompressed_size);
  if (Status status = catalog.Decompress(selection.entry, prepared.image); !status)
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
                     "the embedded code object " + std::string(entry.target_id) + " (e_flags " +
                         std::to_string(header->flags) + ") does not fit agent ISA " +
                         isa.ToIsaName() +
                         "; the installed library is damaged: reinstall libisapack");
  }
  if (selection.retargeted) return Retarget(std::move(prepared), *object, isa);
  return prepared;
}

}  // namespace isapack
