// Rewrites a private copy of a generic code object (code object v6) into a
// code object v5 for one member processor of its family, so that a ROCr
// without generic support (< 6.4) can load it. By LLVM's definition a
// generic object is valid machine code for every member processor; only the
// fields listed in docs/retargeting.md say "generic": EI_ABIVERSION, the
// e_flags machine ID, generic version and feature bits, and the metadata
// note's amdhsa.target. Nothing else changes except the note's size (the
// exact target's name is shorter; the freed bytes become zero padding after
// the note). Pure bytes: no HSA.
#ifndef ISAPACK_CORE_RETARGET_H_
#define ISAPACK_CORE_RETARGET_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "error.h"
#include "target_id.h"

namespace isapack {

// The code object version a retargeted object gets.
inline constexpr unsigned kRetargetCodeObjectVersion = 5;

// A generic target and one processor of its family. The only way to make one
// is Of(), which refuses a processor outside the family, so a rewrite to a
// foreign processor cannot be expressed.
class GenericMember {
 public:
  // `generic` must be a generic target ID whose family contains `processor`;
  // otherwise nullopt.
  static std::optional<GenericMember> Of(const TargetId& generic, const ProcessorInfo& processor);

  const TargetId& generic() const { return generic_; }
  // The exact target the rewrite produces: the processor with the
  // generic's xnack/sramecc settings where the generic has the feature, and
  // "any" where only the processor has it (sramecc on gfx906 under
  // gfx9-generic), which is what clang writes for such a processor and
  // what ROCr >= 6.4 does when it loads the generic object itself. The
  // name is therefore never longer than the generic's, so the metadata
  // note never grows.
  const TargetId& retargeted() const { return retargeted_; }

 private:
  GenericMember(const TargetId& generic, const TargetId& retargeted)
      : generic_(generic), retargeted_(retargeted) {}
  TargetId generic_;
  TargetId retargeted_;
};

// The e_flags of the retargeted object: the processor's machine ID, its
// xnack/sramecc bits (v4+ encoding), generic version 0.
uint32_t RetargetedFlags(const GenericMember& member);

// Checks that `image` has the documented shape of a generic code object for
// member.generic() (ELF header, e_flags, one NT_AMDGPU_METADATA note with
// amdhsa.target and amdhsa.version [1, 2], inside a note section that a
// PT_NOTE segment covers exactly) and returns the rewritten copy. Fails with
// ISAPACK_STATUS_DATA_CORRUPT naming the first field that does not fit; the
// input is never modified.
Expected<std::vector<uint8_t>> RetargetToMember(std::span<const uint8_t> image,
                                                const GenericMember& member);

}  // namespace isapack

#endif  // ISAPACK_CORE_RETARGET_H_
