// Reads and validates AMDGPU code objects (ELF64, EM_AMDGPU). Every read is
// bounds-checked against the image; nothing is assumed about alignment. Used
// by the build-time validator, the runtime (before HSA sees a byte), the
// simulated HSA runtime and `isapack inspect`.
#ifndef ISAPACK_CORE_CODE_OBJECT_H_
#define ISAPACK_CORE_CODE_OBJECT_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "error.h"
#include "target_id.h"

namespace isapack {

inline constexpr uint16_t kElfMachineAmdgpu = 224;  // EM_AMDGPU
inline constexpr uint8_t kElfOsAbiAmdgpuHsa = 64;   // ELFOSABI_AMDGPU_HSA
inline constexpr uint16_t kElfTypeDyn = 3;          // ET_DYN

// The fields of an AMDGPU ELF header that identify its target.
struct CodeObjectHeader {
  uint16_t type = 0;                                      // e_type
  uint16_t machine = 0;                                   // e_machine
  uint8_t os_abi = 0;                                     // e_ident[EI_OSABI]
  uint8_t abi_version = 0;                                // e_ident[EI_ABIVERSION]
  uint32_t flags = 0;                                     // e_flags
  unsigned code_object_version = 0;                       // 3..6 from abi_version; 0 when unknown
  uint8_t mach = 0;                                       // e_flags & 0xff
  FeatureSetting xnack = FeatureSetting::kUnsupported;    // e_flags 9:8 (v4+)
  FeatureSetting sramecc = FeatureSetting::kUnsupported;  // e_flags 11:10 (v4+)
  uint8_t generic_version = 0;                            // e_flags 31:24 (v6); 0 for exact targets
};

// The code object version an ELF ABI version encodes (1→3 … 4→6), or 0.
unsigned CodeObjectVersionFromAbi(uint8_t abi_version);
// The ELF ABI version of a code object version (3→1 … 6→4), or 0.
uint8_t AbiFromCodeObjectVersion(unsigned code_object_version);

// Reads the ELF header. Fails for anything that is not a little-endian ELF64
// file of at least a full header. Does not allocate on success.
Expected<CodeObjectHeader> ReadCodeObjectHeader(std::span<const uint8_t> image);

// The e_flags a code object (v4 and later) for `id` carries, the one
// encoder: the machine, then xnack (bits 8-9) and sramecc (bits 10-11) as
// 1 any / 2 off / 3 on (0 where the processor has no such feature) and, for
// a generic target, `generic_version` in bits 24-31.
uint32_t CodeObjectFlags(const TargetId& id, uint8_t generic_version = 1);

// The target ID the header describes (processor or generic, with the feature
// settings the flags record); fails when the machine ID is unknown.
Expected<TargetId> TargetIdOfHeader(const CodeObjectHeader& header);

// A defined symbol of the code object.
struct CodeObjectSymbol {
  std::string_view name;  // points into the image
  uint8_t type = 0;       // STT_*
  uint64_t value = 0;     // st_value
  uint64_t size = 0;      // st_size
};

// The symbols of .symtab (or .dynsym when there is no .symtab).
Expected<std::vector<CodeObjectSymbol>> ReadSymbols(std::span<const uint8_t> image);

// The descriptor of the NT_AMDGPU_METADATA note (msgpack), or an empty span
// when the code object has none (code object v2).
Expected<std::span<const uint8_t>> FindMetadataNote(std::span<const uint8_t> image);

// Reads `size` bytes at virtual address `address` (a kernel descriptor, say),
// through the section that holds it.
Expected<std::span<const uint8_t>> ReadAtAddress(std::span<const uint8_t> image, uint64_t address,
                                                 uint64_t size);

// What code objects v1 and v2 (ELF ABI version 0) say about themselves in
// their "AMD" notes: NT_AMD_HSA_CODE_OBJECT_VERSION and NT_AMD_HSA_ISA_VERSION.
struct LegacyCodeObjectInfo {
  unsigned code_object_major = 0;  // 1 or 2
  unsigned code_object_minor = 0;
  IsaVersion isa{};                          // e.g. 7.0.0
  const ProcessorInfo* processor = nullptr;  // from the ISA version, if known
};

Expected<LegacyCodeObjectInfo> ReadLegacyCodeObjectInfo(std::span<const uint8_t> image);

// A section of any little-endian ELF64 file (host binaries included).
struct ElfSection {
  std::string_view name;  // from .shstrtab; empty when unnamed
  uint32_t type = 0;      // SHT_*
  uint64_t flags = 0;
  uint64_t address = 0;
  uint64_t offset = 0;  // file offset (meaningless for SHT_NOBITS)
  uint64_t size = 0;
};

// The section headers with names, bounds-checked against the image.
Expected<std::vector<ElfSection>> ReadElfSections(std::span<const uint8_t> image);

// The extent of an ELF image that starts at image[0]: the end of its last
// section, program segment or section header table. Used to carve code
// objects embedded in larger files.
Expected<size_t> ElfImageSize(std::span<const uint8_t> image);

// What the build asked for: the code object's target ID and version, and the
// kernel descriptor symbols ("<kernel>.kd") its device library defines.
struct CodeObjectExpectation {
  TargetId target;
  unsigned code_object_version = 0;
  std::vector<std::string> kernel_descriptors;
};

// Checks a built code object against what the build asked for: EM_AMDGPU,
// OS/ABI HSA, the ABI version, ET_DYN, the machine ID from the target table,
// a generic version exactly for generic objects, the xnack/sramecc fields
// ("any" unless the target ID names a mode) and every expected kernel
// descriptor. Returns one message per
// mismatch; empty when the object is as expected.
std::vector<std::string> ValidateCodeObject(std::span<const uint8_t> image,
                                            const CodeObjectExpectation& expected);

}  // namespace isapack

#endif  // ISAPACK_CORE_CODE_OBJECT_H_
