// libFuzzer target: the generic-to-exact rewriter (core/src/retarget.cc)
// on untrusted bytes, for every member of the generic the header names. Each
// input also runs with its header patched to look like gfx10-3-generic, so
// the note and MessagePack paths see mutated bytes too. Whatever the
// rewriter produces must pass the validator as the member's exact target v5,
// up to the problems the input already had (as the generic object it claims
// to be); otherwise abort.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "code_object.h"
#include "retarget.h"
#include "support/elf_builder.h"
#include "target_table.h"

namespace {

void RetargetToEveryMember(std::span<const uint8_t> image) {
  auto header = isapack::ReadCodeObjectHeader(image);
  if (!header) return;
  auto target = isapack::TargetIdOfHeader(*header);
  if (!target || !target->is_generic()) return;
  const std::vector<std::string> input_problems =
      isapack::ValidateCodeObject(image, {*target, 6, isapack::testing::AllKernelDescriptors()});
  for (uint16_t index : target->generic->members) {
    auto member = isapack::GenericMember::Of(*target, isapack::Processors()[index]);
    if (!member) std::abort();  // every listed member is in the family
    auto out = isapack::RetargetToMember(image, *member);
    if (!out) continue;
    for (const std::string& problem : isapack::ValidateCodeObject(
             *out, {member->retargeted(), 5, isapack::testing::AllKernelDescriptors()})) {
      // A problem the input already had (a damaged symbol table, a missing
      // kernel descriptor) is the input's, not the rewriter's.
      const bool inherited =
          std::find(input_problems.begin(), input_problems.end(), problem) != input_problems.end();
      if (!inherited) std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  RetargetToEveryMember(std::span<const uint8_t>(data, size));
  if (size >= 64) {
    std::vector<uint8_t> patched(data, data + size);
    patched[7] = 64;                    // ELFOSABI_AMDGPU_HSA
    patched[8] = 4;                     // code object v6
    const uint32_t flags = 0x01000053;  // gfx10-3-generic, generic version 1
    std::memcpy(patched.data() + 0x30, &flags, sizeof(flags));
    RetargetToEveryMember(patched);
  }
  return 0;
}
