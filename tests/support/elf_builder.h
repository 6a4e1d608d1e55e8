// Builds small synthetic ELF64 files for tests: an AMDGPU-looking code object
// with chosen header fields, symbols and an optional metadata note. Only
// what the readers under test look at is filled in.
#ifndef ISAPACK_TESTS_SUPPORT_ELF_BUILDER_H_
#define ISAPACK_TESTS_SUPPORT_ELF_BUILDER_H_

#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "isapack/device/kernels.h"

namespace isapack::testing {

struct ElfSpec {
  uint8_t elf_class = 2;               // ELFCLASS64
  uint8_t data = 1;                    // ELFDATA2LSB
  uint8_t os_abi = 64;                 // ELFOSABI_AMDGPU_HSA
  uint8_t abi_version = 3;             // code object v5
  uint16_t type = 3;                   // ET_DYN
  uint16_t machine = 224;              // EM_AMDGPU
  uint32_t flags = 0;                  // e_flags
  std::vector<std::string> symbols;    // defined STT_OBJECT symbols
  std::vector<uint8_t> metadata_note;  // NT_AMDGPU_METADATA descriptor, if not empty
};

inline std::vector<uint8_t> BuildElf(const ElfSpec& spec) {
  std::vector<uint8_t> out(64, 0);
  auto put = [&](size_t at, const void* value, size_t size) {
    std::memcpy(out.data() + at, value, size);
  };
  auto append = [&](const void* data, size_t size) {
    const size_t at = out.size();
    out.resize(at + size);
    std::memcpy(out.data() + at, data, size);
    return at;
  };
  auto align8 = [&] { out.resize((out.size() + 7) & ~size_t{7}, 0); };

  // .strtab
  std::string strtab(1, '\0');
  std::vector<uint32_t> name_offsets;
  for (const std::string& s : spec.symbols) {
    name_offsets.push_back(static_cast<uint32_t>(strtab.size()));
    strtab += s;
    strtab += '\0';
  }
  const size_t strtab_at = append(strtab.data(), strtab.size());
  align8();
  // .symtab: a null symbol, then one defined object per name.
  std::vector<uint8_t> symtab(24, 0);
  for (uint32_t offset : name_offsets) {
    uint8_t sym[24] = {};
    std::memcpy(sym, &offset, 4);
    sym[4] = (1 << 4) | 1;  // STB_GLOBAL, STT_OBJECT
    const uint16_t shndx = 1;
    std::memcpy(sym + 6, &shndx, 2);
    const uint64_t size = 64;
    std::memcpy(sym + 16, &size, 8);
    symtab.insert(symtab.end(), sym, sym + 24);
  }
  const size_t symtab_at = append(symtab.data(), symtab.size());
  // .note with one AMDGPU note.
  size_t note_at = 0, note_size = 0;
  if (!spec.metadata_note.empty()) {
    align8();
    std::vector<uint8_t> note(12, 0);
    const uint32_t name_size = 7, desc_size = static_cast<uint32_t>(spec.metadata_note.size()),
                   type = 32;
    std::memcpy(note.data(), &name_size, 4);
    std::memcpy(note.data() + 4, &desc_size, 4);
    std::memcpy(note.data() + 8, &type, 4);
    const char name[8] = "AMDGPU";
    note.insert(note.end(), name, name + 8);
    note.insert(note.end(), spec.metadata_note.begin(), spec.metadata_note.end());
    note.resize((note.size() + 3) & ~size_t{3}, 0);
    note_at = append(note.data(), note.size());
    note_size = note.size();
  }
  const std::string shstrtab = std::string("\0.strtab\0.symtab\0.shstrtab\0.note\0", 33);
  const size_t shstrtab_at = append(shstrtab.data(), shstrtab.size());
  align8();
  // Section headers: null, .strtab, .symtab, .shstrtab[, .note].
  const size_t shoff = out.size();
  auto section = [&](uint32_t name, uint32_t type, uint64_t offset, uint64_t size, uint32_t link,
                     uint64_t entsize) {
    uint8_t sh[64] = {};
    std::memcpy(sh, &name, 4);
    std::memcpy(sh + 4, &type, 4);
    std::memcpy(sh + 24, &offset, 8);
    std::memcpy(sh + 32, &size, 8);
    std::memcpy(sh + 40, &link, 4);
    std::memcpy(sh + 56, &entsize, 8);
    append(sh, 64);
  };
  section(0, 0, 0, 0, 0, 0);
  section(1, 3, strtab_at, strtab.size(), 0, 0);
  section(9, 2, symtab_at, symtab.size(), 1, 24);
  section(17, 3, shstrtab_at, shstrtab.size(), 0, 0);
  uint16_t shnum = 4;
  if (note_size > 0) {
    section(27, 7, note_at, note_size, 0, 0);
    ++shnum;
  }
  // ELF header.
  const uint8_t ident[16] = {
      0x7f, 'E', 'L', 'F', spec.elf_class, spec.data, 1, spec.os_abi, spec.abi_version};
  put(0, ident, 16);
  put(0x10, &spec.type, 2);
  put(0x12, &spec.machine, 2);
  const uint32_t version = 1;
  put(0x14, &version, 4);
  put(0x28, &shoff, 8);
  put(0x30, &spec.flags, 4);
  const uint16_t ehsize = 64, shentsize = 64, shstrndx = 3;
  put(0x34, &ehsize, 2);
  put(0x3a, &shentsize, 2);
  put(0x3c, &shnum, 2);
  put(0x3e, &shstrndx, 2);
  return out;
}

// The kernel descriptor symbols every isapack code object must hold.
inline std::vector<std::string> AllKernelDescriptors() {
  return std::vector<std::string>(std::begin(isapack_kernel_descriptor_names),
                                  std::end(isapack_kernel_descriptor_names));
}

}  // namespace isapack::testing

#endif  // ISAPACK_TESTS_SUPPORT_ELF_BUILDER_H_
