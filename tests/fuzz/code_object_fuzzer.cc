// libFuzzer target: the ELF code-object readers and validator and the
// AMDGPU metadata note reader (msgpack), on untrusted bytes.
#include <cstdint>
#include <span>

#include "code_object.h"
#include "kernel_metadata.h"
#include "support/elf_builder.h"
#include "target_table.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> image(data, size);
  auto header = isapack::ReadCodeObjectHeader(image);
  if (header) (void)isapack::TargetIdOfHeader(*header);
  (void)isapack::ReadSymbols(image);
  (void)isapack::ReadElfSections(image);
  (void)isapack::ElfImageSize(image);
  (void)isapack::ReadLegacyCodeObjectInfo(image);
  auto note = isapack::FindMetadataNote(image);
  if (note && !note->empty()) {
    (void)isapack::ReadMetadataNote(*note);
  }
  (void)isapack::ReadKernelMetadata(image);
  // The metadata reader on the raw bytes too: most inputs are not ELF files.
  (void)isapack::ReadMetadataNote(image);
  if (header && header->code_object_version >= 4) {
    isapack::CodeObjectExpectation expected;
    if (auto target = isapack::TargetIdOfHeader(*header)) {
      expected.target = *target;
      expected.code_object_version = header->code_object_version;
      expected.kernel_descriptors = isapack::testing::AllKernelDescriptors();
      (void)isapack::ValidateCodeObject(image, expected);
    }
  }
  return 0;
}
