#include "code_object.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "bounded_read.h"

namespace isapack {
namespace {

// ELF64 layout constants (System V gABI); read field by field, never cast.
constexpr size_t kEhdrSize = 64;
constexpr size_t kShdrSize = 64;
constexpr size_t kSymSize = 24;
constexpr uint32_t kShtSymtab = 2;
constexpr uint32_t kShtNote = 7;
constexpr uint32_t kShtNobits = 8;
constexpr uint32_t kShtDynsym = 11;
constexpr uint32_t kNtAmdgpuMetadata = 32;
constexpr uint16_t kShnUndef = 0;
constexpr size_t kMaxSymbols = 1 << 20;

Error Corrupt(std::string message) {
  return MakeError(ISAPACK_STATUS_DATA_CORRUPT, std::move(message));
}

struct Section {
  uint32_t type;
  uint64_t flags;
  uint64_t address;
  uint64_t offset;
  uint64_t size;
  uint32_t link;
  uint64_t entry_size;
};

// The section headers, bounds-checked.
Expected<std::vector<Section>> ReadSections(std::span<const uint8_t> image) {
  if (image.size() < kEhdrSize) {
    return Corrupt("file of " + std::to_string(image.size()) +
                   " bytes is shorter than an ELF64 header");
  }
  const uint64_t shoff = Load<uint64_t>(image, 0x28);
  const uint16_t shentsize = Load<uint16_t>(image, 0x3a);
  const uint16_t shnum = Load<uint16_t>(image, 0x3c);
  std::vector<Section> sections;
  if (shnum == 0) return sections;
  if (shentsize != kShdrSize) {
    return Corrupt("ELF section header size is " + std::to_string(shentsize) + ", expected 64");
  }
  if (!InBounds(shoff, uint64_t{shnum} * kShdrSize, image.size())) {
    return Corrupt("ELF section header table lies outside the file");
  }
  sections.reserve(shnum);
  for (uint16_t i = 0; i < shnum; ++i) {
    const size_t at = shoff + size_t{i} * kShdrSize;
    Section s{Load<uint32_t>(image, at + 4),  Load<uint64_t>(image, at + 8),
              Load<uint64_t>(image, at + 16), Load<uint64_t>(image, at + 24),
              Load<uint64_t>(image, at + 32), Load<uint32_t>(image, at + 40),
              Load<uint64_t>(image, at + 56)};
    if (s.type != kShtNobits && !InBounds(s.offset, s.size, image.size())) {
      return Corrupt("ELF section " + std::to_string(i) + " lies outside the file");
    }
    sections.push_back(s);
  }
  return sections;
}

FeatureSetting DecodeFeatureV4(uint32_t bits) {
  switch (bits) {
    case 0:
      return FeatureSetting::kUnsupported;
    case 1:
      return FeatureSetting::kAny;
    case 2:
      return FeatureSetting::kOff;
    default:
      return FeatureSetting::kOn;
  }
}

std::string Hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

std::string MachName(uint8_t mach) {
  if (const ProcessorInfo* p = FindProcessorByMach(mach)) return std::string(p->name);
  if (const GenericInfo* g = FindGenericByMach(mach)) return std::string(g->name);
  return "unknown";
}

}  // namespace

unsigned CodeObjectVersionFromAbi(uint8_t abi_version) {
  return abi_version >= 1 && abi_version <= 4 ? abi_version + 2u : 0u;
}

uint8_t AbiFromCodeObjectVersion(unsigned code_object_version) {
  return code_object_version >= 3 && code_object_version <= 6
             ? static_cast<uint8_t>(code_object_version - 2)
             : 0;
}

uint32_t CodeObjectFlags(const TargetId& id, uint8_t generic_version) {
  auto bits = [](FeatureSetting setting, FeatureSupport support) -> uint32_t {
    if (support == FeatureSupport::kNone) return 0;
    switch (setting) {
      case FeatureSetting::kUnsupported:
        return 0;
      case FeatureSetting::kAny:
        return 1;
      case FeatureSetting::kOff:
        return 2;
      case FeatureSetting::kOn:
        return 3;
    }
    return 0;
  };
  return uint32_t{id.mach()} | bits(id.xnack, id.xnack_support()) << 8 |
         bits(id.sramecc, id.sramecc_support()) << 10 |
         (id.is_generic() ? uint32_t{generic_version} << 24 : 0u);
}

Expected<CodeObjectHeader> ReadCodeObjectHeader(std::span<const uint8_t> image) {
  if (image.size() < kEhdrSize) {
    return Corrupt("file is " + std::to_string(image.size()) +
                   " bytes, shorter than an ELF64 header (64 bytes)");
  }
  if (std::memcmp(image.data(),
                  "\x7f"
                  "ELF",
                  4) != 0)
    return Corrupt("not an ELF file");
  if (image[4] != 2)
    return Corrupt("not a 64-bit ELF file (EI_CLASS " + std::to_string(image[4]) + ")");
  if (image[5] != 1) return Corrupt("not a little-endian ELF file");
  CodeObjectHeader h;
  h.os_abi = image[7];
  h.abi_version = image[8];
  h.type = Load<uint16_t>(image, 0x10);
  h.machine = Load<uint16_t>(image, 0x12);
  h.flags = Load<uint32_t>(image, 0x30);
  h.mach = static_cast<uint8_t>(h.flags & 0xff);
  if (h.os_abi == kElfOsAbiAmdgpuHsa)
    h.code_object_version = CodeObjectVersionFromAbi(h.abi_version);
  if (h.code_object_version >= 4) {
    h.xnack = DecodeFeatureV4((h.flags >> 8) & 3);
    h.sramecc = DecodeFeatureV4((h.flags >> 10) & 3);
  } else if (h.code_object_version == 3) {
    h.xnack = (h.flags & 0x100) ? FeatureSetting::kOn : FeatureSetting::kOff;
    h.sramecc = (h.flags & 0x200) ? FeatureSetting::kOn : FeatureSetting::kOff;
  }
  if (h.code_object_version >= 6) h.generic_version = static_cast<uint8_t>(h.flags >> 24);
  return h;
}

Expected<TargetId> TargetIdOfHeader(const CodeObjectHeader& header) {
  TargetId id;
  id.processor = FindProcessorByMach(header.mach);
  if (id.processor == nullptr) id.generic = FindGenericByMach(header.mach);
  if (header.mach == 0) {
    return MakeError(ISAPACK_STATUS_NOT_FOUND,
                     "the ELF header names no processor (e_flags " + Hex(header.flags) +
                         "); code objects v2 and older keep their ISA in a note");
  }
  if (id.processor == nullptr && id.generic == nullptr) {
    return MakeError(ISAPACK_STATUS_NOT_FOUND,
                     "unknown AMDGPU machine ID " + Hex(header.mach) + " in e_flags " +
                         Hex(header.flags) + "; it is newer than this isapack's target table");
  }
  // Features the processor cannot carry are never part of its target ID.
  auto keep = [](FeatureSetting setting, FeatureSupport support) {
    if (support != FeatureSupport::kSupported) return FeatureSetting::kAny;
    return setting == FeatureSetting::kUnsupported ? FeatureSetting::kAny : setting;
  };
  id.xnack = keep(header.xnack, id.xnack_support());
  id.sramecc = keep(header.sramecc, id.sramecc_support());
  return id;
}

Expected<std::vector<CodeObjectSymbol>> ReadSymbols(std::span<const uint8_t> image) {
  auto header = ReadCodeObjectHeader(image);
  if (!header) return header.take_error();
  auto sections = ReadSections(image);
  if (!sections) return sections.take_error();
  const Section* table = nullptr;
  for (const Section& s : *sections) {
    if (s.type == kShtSymtab) table = &s;
  }
  if (table == nullptr) {
    for (const Section& s : *sections) {
      if (s.type == kShtDynsym) table = &s;
    }
  }
  std::vector<CodeObjectSymbol> symbols;
  if (table == nullptr) return symbols;
  if (table->entry_size != kSymSize || table->size % kSymSize != 0) {
    return Corrupt("ELF symbol table has entry size " + std::to_string(table->entry_size));
  }
  if (table->link >= sections->size()) return Corrupt("ELF symbol table links to no string table");
  const Section& strings = (*sections)[table->link];
  if (strings.type == kShtNobits) return Corrupt("ELF symbol string table has no contents");
  const size_t count = table->size / kSymSize;
  if (count > kMaxSymbols)
    return Corrupt("ELF symbol table has " + std::to_string(count) + " entries");
  const auto names = image.subspan(strings.offset, strings.size);
  for (size_t i = 0; i < count; ++i) {
    const size_t at = table->offset + i * kSymSize;
    const uint32_t name = Load<uint32_t>(image, at);
    const uint8_t info = image[at + 4];
    const uint16_t shndx = Load<uint16_t>(image, at + 6);
    if (shndx == kShnUndef || name == 0) continue;
    if (name >= names.size()) return Corrupt("ELF symbol name lies outside its string table");
    const void* end = std::memchr(names.data() + name, 0, names.size() - name);
    if (end == nullptr) return Corrupt("ELF symbol name is not terminated");
    const size_t length = static_cast<const uint8_t*>(end) - (names.data() + name);
    symbols.push_back({std::string_view(reinterpret_cast<const char*>(names.data() + name), length),
                       static_cast<uint8_t>(info & 0xf), Load<uint64_t>(image, at + 8),
                       Load<uint64_t>(image, at + 16)});
  }
  return symbols;
}

namespace {

// Calls visit(owner, type, descriptor) for each note of each SHT_NOTE
// section until it returns true; returns whether one did.
template <typename Visit>
Expected<bool> ForEachNote(std::span<const uint8_t> image, Visit&& visit) {
  auto sections = ReadSections(image);
  if (!sections) return sections.take_error();
  for (const Section& s : *sections) {
    if (s.type != kShtNote) continue;
    const auto notes = image.subspan(s.offset, s.size);
    size_t at = 0;
    while (notes.size() - at >= 12) {
      const uint32_t name_size = Load<uint32_t>(notes, at);
      const uint32_t desc_size = Load<uint32_t>(notes, at + 4);
      const uint32_t type = Load<uint32_t>(notes, at + 8);
      const uint64_t name_at = at + 12;
      const uint64_t desc_at = name_at + ((uint64_t{name_size} + 3) & ~uint64_t{3});
      const uint64_t next = desc_at + ((uint64_t{desc_size} + 3) & ~uint64_t{3});
      if (!InBounds(name_at, name_size, notes.size()) ||
          !InBounds(desc_at, desc_size, notes.size())) {
        return Corrupt("ELF note runs past the end of its section");
      }
      std::string_view owner(reinterpret_cast<const char*>(notes.data() + name_at), name_size);
      if (!owner.empty() && owner.back() == '\0') owner.remove_suffix(1);
      if (visit(owner, type, notes.subspan(desc_at, desc_size))) return true;
      if (next > notes.size()) break;
      at = next;
    }
  }
  return false;
}

}  // namespace

Expected<std::span<const uint8_t>> FindMetadataNote(std::span<const uint8_t> image) {
  std::span<const uint8_t> found;
  auto visited =
      ForEachNote(image, [&](std::string_view owner, uint32_t type, std::span<const uint8_t> desc) {
        if (owner != "AMDGPU" || type != kNtAmdgpuMetadata) return false;
        found = desc;
        return true;
      });
  if (!visited) return visited.take_error();
  return found;
}

Expected<LegacyCodeObjectInfo> ReadLegacyCodeObjectInfo(std::span<const uint8_t> image) {
  constexpr uint32_t kNtAmdHsaCodeObjectVersion = 1;
  constexpr uint32_t kNtAmdHsaIsaVersion = 3;
  LegacyCodeObjectInfo info;
  bool have_isa = false;
  auto visited =
      ForEachNote(image, [&](std::string_view owner, uint32_t type, std::span<const uint8_t> desc) {
        if (owner != "AMD") return false;
        if (type == kNtAmdHsaCodeObjectVersion && desc.size() >= 8) {
          info.code_object_major = Load<uint32_t>(desc, 0);
          info.code_object_minor = Load<uint32_t>(desc, 4);
        } else if (type == kNtAmdHsaIsaVersion && desc.size() >= 16) {
          // u16 vendor name size, u16 architecture name size, u32 major, minor, stepping.
          info.isa = {static_cast<uint8_t>(Load<uint32_t>(desc, 4)),
                      static_cast<uint8_t>(Load<uint32_t>(desc, 8)),
                      static_cast<uint8_t>(Load<uint32_t>(desc, 12))};
          have_isa = true;
        }
        return false;
      });
  if (!visited) return visited.take_error();
  if (!have_isa)
    return Corrupt("the code object names no ISA: it has no NT_AMD_HSA_ISA_VERSION note");
  for (const ProcessorInfo& p : Processors()) {
    if (p.isa.major == info.isa.major && p.isa.minor == info.isa.minor &&
        p.isa.stepping == info.isa.stepping) {
      info.processor = &p;
    }
  }
  return info;
}

Expected<std::span<const uint8_t>> ReadAtAddress(std::span<const uint8_t> image, uint64_t address,
                                                 uint64_t size) {
  auto sections = ReadSections(image);
  if (!sections) return sections.take_error();
  for (const Section& s : *sections) {
    if (s.type == kShtNobits || (s.flags & 2) == 0) continue;  // SHF_ALLOC only
    if (address >= s.address && InBounds(address - s.address, size, s.size)) {
      return image.subspan(s.offset + (address - s.address), size);
    }
  }
  return Corrupt("no section holds " + std::to_string(size) + " bytes at address " + Hex(address));
}

Expected<std::vector<ElfSection>> ReadElfSections(std::span<const uint8_t> image) {
  auto header = ReadCodeObjectHeader(image);
  if (!header) return header.take_error();
  auto sections = ReadSections(image);
  if (!sections) return sections.take_error();
  const uint16_t shstrndx = Load<uint16_t>(image, 0x3e);
  std::span<const uint8_t> names;
  if (shstrndx < sections->size() && (*sections)[shstrndx].type != kShtNobits) {
    names = image.subspan((*sections)[shstrndx].offset, (*sections)[shstrndx].size);
  }
  const size_t shoff = Load<uint64_t>(image, 0x28);
  std::vector<ElfSection> out;
  for (size_t i = 0; i < sections->size(); ++i) {
    const Section& s = (*sections)[i];
    const uint32_t name = Load<uint32_t>(image, shoff + i * kShdrSize);
    std::string_view text;
    if (name < names.size()) {
      const void* end = std::memchr(names.data() + name, 0, names.size() - name);
      if (end != nullptr) {
        text = std::string_view(reinterpret_cast<const char*>(names.data() + name),
                                static_cast<const uint8_t*>(end) - (names.data() + name));
      }
    }
    out.push_back({text, s.type, s.flags, s.address, s.offset, s.size});
  }
  return out;
}

Expected<size_t> ElfImageSize(std::span<const uint8_t> image) {
  auto sections = ReadSections(image);
  if (!sections) return sections.take_error();
  uint64_t end = kEhdrSize;
  const uint64_t shoff = Load<uint64_t>(image, 0x28);
  end = std::max<uint64_t>(end, shoff + uint64_t{Load<uint16_t>(image, 0x3c)} * kShdrSize);
  for (const Section& s : *sections) {
    if (s.type != kShtNobits) end = std::max(end, s.offset + s.size);
  }
  const uint64_t phoff = Load<uint64_t>(image, 0x20);
  const uint16_t phentsize = Load<uint16_t>(image, 0x36);
  const uint16_t phnum = Load<uint16_t>(image, 0x38);
  if (phnum != 0) {
    if (phentsize != 56 || !InBounds(phoff, uint64_t{phnum} * 56, image.size())) {
      return Corrupt("ELF program header table lies outside the file");
    }
    for (uint16_t i = 0; i < phnum; ++i) {
      const size_t at = phoff + size_t{i} * 56;
      const uint64_t offset = Load<uint64_t>(image, at + 8);
      const uint64_t file_size = Load<uint64_t>(image, at + 32);
      if (!InBounds(offset, file_size, image.size()))
        return Corrupt("ELF segment lies outside the file");
      end = std::max(end, offset + file_size);
    }
  }
  if (end > image.size()) return Corrupt("ELF image is truncated");
  return static_cast<size_t>(end);
}

std::vector<std::string> ValidateCodeObject(std::span<const uint8_t> image,
                                            const CodeObjectExpectation& expected) {
  std::vector<std::string> problems;
  auto header = ReadCodeObjectHeader(image);
  if (!header) return {header.error().message};
  const CodeObjectHeader& h = *header;
  const TargetId& target = expected.target;
  if (h.machine != kElfMachineAmdgpu) {
    problems.push_back("e_machine is " + std::to_string(h.machine) + ", expected 224 (EM_AMDGPU)");
  }
  if (h.os_abi != kElfOsAbiAmdgpuHsa) {
    problems.push_back("OS/ABI is " + std::to_string(h.os_abi) + ", expected 64 (AMDGPU HSA)");
  }
  const uint8_t abi = AbiFromCodeObjectVersion(expected.code_object_version);
  if (h.abi_version != abi) {
    problems.push_back("ABI version is " + std::to_string(h.abi_version) + ", expected " +
                       std::to_string(abi) + " (code object v" +
                       std::to_string(expected.code_object_version) + ")");
  }
  if (h.type != kElfTypeDyn) {
    problems.push_back("e_type is " + std::to_string(h.type) + ", expected 3 (ET_DYN)");
  }
  if (h.mach != target.mach()) {
    problems.push_back("e_flags machine ID is " + Hex(h.mach) + " (" + MachName(h.mach) +
                       "), expected " + Hex(target.mach()) + " (" + std::string(target.name()) +
                       ")");
  }
  if (target.is_generic() && h.generic_version < 1) {
    problems.push_back("generic version is 0, expected at least 1 for generic target " +
                       std::string(target.name()));
  } else if (!target.is_generic() && h.generic_version != 0) {
    problems.push_back("generic version is " + std::to_string(h.generic_version) +
                       ", expected 0 for exact target " + std::string(target.name()));
  }
  auto check_feature = [&](const char* feature, FeatureSetting actual, FeatureSupport support,
                           FeatureSetting requested) {
    // Always-on features (gfx125x xnack) have no trustworthy bits.
    if (support == FeatureSupport::kAlways) return;
    const FeatureSetting wanted =
        support == FeatureSupport::kNone ? FeatureSetting::kUnsupported : requested;
    if (actual != wanted) {
      problems.push_back(std::string(feature) + " is " + std::string(ToString(actual)) +
                         ", expected " + std::string(ToString(wanted)));
    }
  };
  if (h.code_object_version >= 4) {
    check_feature("xnack", h.xnack, target.xnack_support(), target.xnack);
    check_feature("sramecc", h.sramecc, target.sramecc_support(), target.sramecc);
  }
  auto symbols = ReadSymbols(image);
  if (!symbols) {
    problems.push_back(symbols.error().message);
    return problems;
  }
  for (const std::string& descriptor : expected.kernel_descriptors) {
    bool found = false;
    for (const CodeObjectSymbol& symbol : *symbols) found = found || symbol.name == descriptor;
    if (!found) problems.push_back("kernel descriptor " + descriptor + " is missing");
  }
  return problems;
}

}  // namespace isapack
