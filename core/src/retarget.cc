#include "retarget.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "bounded_read.h"
#include "code_object.h"

namespace isapack {
namespace {

constexpr size_t kPhdrSize = 56;
constexpr uint32_t kPtNote = 4;
constexpr uint32_t kShtNote = 7;
constexpr uint32_t kNtAmdgpuMetadata = 32;
constexpr uint8_t kAbiV6 = 4;
// e_flags bits a code object v6 may use: machine ID, xnack, sramecc, generic version.
constexpr uint32_t kKnownFlagBits = 0xff000fffu;
constexpr int kMaxMsgpackDepth = 32;

Error Refuse(const GenericMember& member, const std::string& what) {
  return MakeError(ISAPACK_STATUS_DATA_CORRUPT, "cannot retarget " + member.generic().ToString() +
                                                    " to " + member.retargeted().ToString() + ": " +
                                                    what);
}

// The setting a member processor gets for one feature (see retargeted()).
FeatureSetting MemberSetting(FeatureSetting generic_setting, FeatureSupport generic_support) {
  return generic_support == FeatureSupport::kNone ? FeatureSetting::kAny : generic_setting;
}

// A MessagePack value's extent: the offset just past the value at `at`, or
// nothing when it is malformed, truncated or nested too deep.
struct Msgpack {
  std::span<const uint8_t> bytes;

  std::optional<uint64_t> BigEndian(size_t at, size_t width) const {
    if (!InBounds(at, width, bytes.size())) return std::nullopt;
    uint64_t value = 0;
    for (size_t i = 0; i < width; ++i) value = (value << 8) | bytes[at + i];
    return value;
  }

  // Header of a string, array or map: {offset of the payload, length/count}.
  struct Header {
    size_t payload;
    uint64_t count;
  };
  std::optional<Header> Counted(size_t at, uint8_t fix_base, uint8_t fix_mask,
                                uint8_t wide8) const {
    const uint8_t tag = bytes[at];
    if ((tag & ~fix_mask) == fix_base) return Header{at + 1, static_cast<uint64_t>(tag & fix_mask)};
    for (size_t i = 0, width = 1; i < 3; ++i, width *= 2) {
      if (wide8 == 0 || size_t{tag} != wide8 + i) continue;
      auto count = BigEndian(at + 1, width);
      if (!count) return std::nullopt;
      return Header{at + 1 + width, *count};
    }
    return std::nullopt;
  }
  std::optional<Header> String(size_t at) const {
    if (at >= bytes.size()) return std::nullopt;
    auto header = Counted(at, 0xa0, 0x1f, 0xd9);
    if (!header || !InBounds(header->payload, header->count, bytes.size())) return std::nullopt;
    return header;
  }
  // An array (fix 0x90, 16/32-bit 0xdc/0xdd) or map (0x80, 0xde/0xdf).
  std::optional<Header> Container(size_t at, uint8_t fix_base, uint8_t tag16) const {
    if (at >= bytes.size()) return std::nullopt;
    auto header = Counted(at, fix_base, 0x0f, 0);
    if (!header && (bytes[at] == tag16 || bytes[at] == tag16 + 1)) {
      const size_t width = bytes[at] == tag16 ? 2 : 4;
      auto count = BigEndian(at + 1, width);
      if (count) header = Header{at + 1 + width, *count};
    }
    return header;
  }
  std::optional<Header> Array(size_t at) const { return Container(at, 0x90, 0xdc); }
  std::optional<Header> Map(size_t at) const { return Container(at, 0x80, 0xde); }
  std::optional<uint64_t> Unsigned(size_t at) const {
    if (at >= bytes.size()) return std::nullopt;
    const uint8_t tag = bytes[at];
    if (tag <= 0x7f) return tag;
    if (tag >= 0xcc && tag <= 0xcf) return BigEndian(at + 1, size_t{1} << (tag - 0xcc));
    return std::nullopt;
  }

  std::optional<size_t> Skip(size_t at, int depth) const {
    if (at >= bytes.size() || depth > kMaxMsgpackDepth) return std::nullopt;
    const uint8_t tag = bytes[at];
    auto sized = [&](size_t header, uint64_t size) -> std::optional<size_t> {
      if (!InBounds(at + header, size, bytes.size())) return std::nullopt;
      return at + header + size;
    };
    auto counted = [&](size_t header, size_t width, uint64_t extra) -> std::optional<size_t> {
      auto size = BigEndian(at + 1, width);
      if (!size) return std::nullopt;
      return sized(header, *size + extra);
    };
    auto elements = [&](std::optional<Header> header, uint64_t per_entry) -> std::optional<size_t> {
      if (!header || header->count > bytes.size()) return std::nullopt;
      size_t next = header->payload;
      for (uint64_t i = 0; i < header->count * per_entry; ++i) {
        auto end = Skip(next, depth + 1);
        if (!end) return std::nullopt;
        next = *end;
      }
      return next;
    };
    if (tag <= 0x7f || tag >= 0xe0 || tag == 0xc0 || tag == 0xc2 || tag == 0xc3) return at + 1;
    if ((tag & 0xf0) == 0x80 || tag == 0xde || tag == 0xdf) return elements(Map(at), 2);
    if ((tag & 0xf0) == 0x90 || tag == 0xdc || tag == 0xdd) return elements(Array(at), 1);
    if ((tag & 0xe0) == 0xa0 || (tag >= 0xd9 && tag <= 0xdb)) {
      auto header = String(at);
      if (!header) return std::nullopt;
      return header->payload + header->count;
    }
    switch (tag) {
      case 0xc4:
        return counted(2, 1, 0);  // bin 8
      case 0xc5:
        return counted(3, 2, 0);  // bin 16
      case 0xc6:
        return counted(5, 4, 0);  // bin 32
      case 0xc7:
        return counted(3, 1, 0);  // ext 8
      case 0xc8:
        return counted(4, 2, 0);  // ext 16
      case 0xc9:
        return counted(6, 4, 0);  // ext 32
      case 0xca:
        return sized(1, 4);
      case 0xcb:
        return sized(1, 8);
      case 0xcc:
      case 0xd0:
        return sized(1, 1);
      case 0xcd:
      case 0xd1:
        return sized(1, 2);
      case 0xce:
      case 0xd2:
        return sized(1, 4);
      case 0xcf:
      case 0xd3:
        return sized(1, 8);
      case 0xd4:
        return sized(2, 1);
      case 0xd5:
        return sized(2, 2);
      case 0xd6:
        return sized(2, 4);
      case 0xd7:
        return sized(2, 8);
      case 0xd8:
        return sized(2, 16);
      default:
        return std::nullopt;  // 0xc1 is never used
    }
  }
};

// A byte range of the metadata to replace.
struct Splice {
  size_t begin;
  size_t end;
  std::vector<uint8_t> bytes;
};

std::vector<uint8_t> EncodeString(std::string_view text) {
  std::vector<uint8_t> out;
  if (text.size() <= 31) {
    out.push_back(static_cast<uint8_t>(0xa0 | text.size()));
  } else {
    out.push_back(0xd9);
    out.push_back(static_cast<uint8_t>(text.size()));
  }
  out.insert(out.end(), text.begin(), text.end());
  return out;
}

// The metadata note with amdhsa.target and amdhsa.version rewritten.
Expected<std::vector<uint8_t>> RewriteMetadata(std::span<const uint8_t> note,
                                               const GenericMember& member) {
  const Msgpack pack{note};
  auto map = pack.Map(0);
  if (!map) return Refuse(member, "the metadata note is not a MessagePack map");
  std::vector<Splice> splices;
  bool have_target = false, have_version = false;
  size_t at = map->payload;
  for (uint64_t i = 0; i < map->count; ++i) {
    auto key = pack.String(at);
    if (!key) return Refuse(member, "a metadata key is not a string");
    const std::string_view name(reinterpret_cast<const char*>(note.data() + key->payload),
                                key->count);
    const size_t value = key->payload + key->count;
    auto end = pack.Skip(value, 1);
    if (!end)
      return Refuse(member, "the metadata value of '" + std::string(name) + "' is malformed");
    if (name == "amdhsa.target") {
      auto text = pack.String(value);
      const std::string expected = member.generic().ToIsaName();
      if (!text || std::string_view(reinterpret_cast<const char*>(note.data() + text->payload),
                                    text->count) != expected) {
        return Refuse(member, "metadata amdhsa.target is not '" + expected + "'");
      }
      splices.push_back({value, *end, EncodeString(member.retargeted().ToIsaName())});
      have_target = true;
    } else if (name == "amdhsa.version") {
      auto array = pack.Array(value);
      std::optional<uint64_t> major, minor;
      if (array && array->count == 2) {
        major = pack.Unsigned(array->payload);
        if (auto second = pack.Skip(array->payload, 2)) minor = pack.Unsigned(*second);
      }
      if (!major || !minor || *major != 1 || *minor != 2) {
        return Refuse(member,
                      "metadata amdhsa.version is not [1, 2] (the only version LLVM writes for "
                      "code objects v5 and v6)");
      }
      splices.push_back({value, *end, {0x92, 0x01, 0x02}});
      have_version = true;
    }
    at = *end;
  }
  if (at != note.size()) return Refuse(member, "the metadata note has bytes after its map");
  if (!have_target) return Refuse(member, "the metadata has no amdhsa.target");
  if (!have_version) return Refuse(member, "the metadata has no amdhsa.version");
  std::sort(splices.begin(), splices.end(),
            [](const Splice& a, const Splice& b) { return a.begin < b.begin; });
  std::vector<uint8_t> out;
  size_t copied = 0;
  for (const Splice& splice : splices) {
    out.insert(out.end(), note.begin() + copied, note.begin() + splice.begin);
    out.insert(out.end(), splice.bytes.begin(), splice.bytes.end());
    copied = splice.end;
  }
  out.insert(out.end(), note.begin() + copied, note.end());
  return out;
}

uint64_t Align4(uint64_t size) {
  return (size + 3) & ~uint64_t{3};
}

Status CheckHeader(const CodeObjectHeader& h, const GenericMember& member) {
  const TargetId& generic = member.generic();
  if (h.machine != kElfMachineAmdgpu)
    return Refuse(member, "e_machine is " + std::to_string(h.machine));
  if (h.type != kElfTypeDyn)
    return Refuse(member, "e_type is " + std::to_string(h.type) + ", not ET_DYN");
  if (h.os_abi != kElfOsAbiAmdgpuHsa)
    return Refuse(member, "EI_OSABI is " + std::to_string(h.os_abi));
  if (h.abi_version != kAbiV6) {
    return Refuse(member,
                  "EI_ABIVERSION is " + std::to_string(h.abi_version) + ", not 4 (code object v6)");
  }
  if ((h.flags & ~kKnownFlagBits) != 0) return Refuse(member, "e_flags has reserved bits set");
  if (h.mach != generic.mach()) {
    return Refuse(member, "the e_flags machine ID is " + std::to_string(h.mach) + ", not " +
                              std::string(generic.name()) + "'s");
  }
  if (h.generic_version < std::max<uint8_t>(1, member.retargeted().processor->generic_version)) {
    return Refuse(member, "the e_flags generic version " + std::to_string(h.generic_version) +
                              " is older than the processor's membership");
  }
  auto expected = [](FeatureSetting setting, FeatureSupport support) {
    return support == FeatureSupport::kNone ? FeatureSetting::kUnsupported : setting;
  };
  if (h.xnack != expected(generic.xnack, generic.xnack_support())) {
    return Refuse(member, "the e_flags xnack field is " + std::string(ToString(h.xnack)));
  }
  if (h.sramecc != expected(generic.sramecc, generic.sramecc_support())) {
    return Refuse(member, "the e_flags sramecc field is " + std::string(ToString(h.sramecc)));
  }
  return {};
}

template <typename T>
void Store(std::vector<uint8_t>& bytes, size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof(T));
}

}  // namespace

std::optional<GenericMember> GenericMember::Of(const TargetId& generic,
                                               const ProcessorInfo& processor) {
  if (generic.generic == nullptr || GenericOf(processor) != generic.generic) return std::nullopt;
  TargetId retargeted;
  retargeted.processor = &processor;
  retargeted.xnack = MemberSetting(generic.xnack, generic.generic->xnack);
  retargeted.sramecc = MemberSetting(generic.sramecc, generic.generic->sramecc);
  return GenericMember(generic, retargeted);
}

uint32_t RetargetedFlags(const GenericMember& member) {
  return CodeObjectFlags(member.retargeted());
}

Expected<std::vector<uint8_t>> RetargetToMember(std::span<const uint8_t> image,
                                                const GenericMember& member) {
  auto header = ReadCodeObjectHeader(image);
  if (!header) return Refuse(member, header.error().message);
  if (Status status = CheckHeader(*header, member); !status) return status.take_error();

  auto note = FindMetadataNote(image);
  if (!note) return Refuse(member, note.error().message);
  if (note->empty()) return Refuse(member, "it has no NT_AMDGPU_METADATA note");
  auto sections = ReadElfSections(image);
  if (!sections) return Refuse(member, sections.error().message);
  const size_t desc_at = static_cast<size_t>(note->data() - image.data());
  size_t section_index = sections->size();
  for (size_t i = 0; i < sections->size(); ++i) {
    const ElfSection& s = (*sections)[i];
    if (s.type == kShtNote && desc_at >= s.offset && desc_at - s.offset < s.size) section_index = i;
  }
  if (section_index == sections->size())
    return Refuse(member, "no note section holds the metadata note");
  const ElfSection& section = (*sections)[section_index];
  // The note header: namesz 7, descsz, type, "AMDGPU\0" padded to 8.
  constexpr size_t kNoteHeader = 12 + 8;
  if (desc_at - section.offset < kNoteHeader)
    return Refuse(member, "the metadata note header is malformed");
  const size_t note_at = desc_at - kNoteHeader;
  if (Load<uint32_t>(image, note_at) != 7 ||
      Load<uint32_t>(image, note_at + 8) != kNtAmdgpuMetadata ||
      std::memcmp(image.data() + note_at + 12, "AMDGPU\0", 8) != 0) {
    return Refuse(member, "the metadata note's name is not 'AMDGPU'");
  }

  auto metadata = RewriteMetadata(*note, member);
  if (!metadata) return metadata.take_error();
  const uint64_t old_padded = Align4(note->size());
  const uint64_t new_padded = Align4(metadata->size());
  if (new_padded > old_padded) return Refuse(member, "the rewritten metadata note would be larger");
  const uint64_t shrink = old_padded - new_padded;
  const uint64_t section_end = section.offset + section.size;
  if (desc_at + old_padded > section_end)
    return Refuse(member, "the metadata note runs past its section");

  // The PT_NOTE segment that covers the note section, exactly.
  const uint64_t phoff = Load<uint64_t>(image, 0x20);
  const uint16_t phnum = Load<uint16_t>(image, 0x38);
  if (phnum != 0 && (Load<uint16_t>(image, 0x36) != kPhdrSize ||
                     !InBounds(phoff, uint64_t{phnum} * kPhdrSize, image.size()))) {
    return Refuse(member, "the program header table lies outside the file");
  }
  size_t note_segment = SIZE_MAX;
  for (uint16_t i = 0; i < phnum; ++i) {
    const size_t at = phoff + size_t{i} * kPhdrSize;
    if (Load<uint32_t>(image, at) != kPtNote) continue;
    const uint64_t offset = Load<uint64_t>(image, at + 8);
    const uint64_t file_size = Load<uint64_t>(image, at + 32);
    if (offset == section.offset && file_size == section.size &&
        Load<uint64_t>(image, at + 40) == file_size) {
      note_segment = at;
    }
  }
  if (note_segment == SIZE_MAX)
    return Refuse(member, "no PT_NOTE segment covers exactly the note section");

  std::vector<uint8_t> out(image.begin(), image.end());
  out[8] = AbiFromCodeObjectVersion(kRetargetCodeObjectVersion);
  Store<uint32_t>(out, 0x30, RetargetedFlags(member));
  Store<uint32_t>(out, note_at + 4, static_cast<uint32_t>(metadata->size()));
  std::fill(out.begin() + desc_at, out.begin() + desc_at + new_padded, uint8_t{0});
  std::copy(metadata->begin(), metadata->end(), out.begin() + desc_at);
  // Notes after this one move up; the freed tail of the section becomes zeros.
  std::copy(image.begin() + desc_at + old_padded, image.begin() + section_end,
            out.begin() + desc_at + new_padded);
  std::fill(out.begin() + (section_end - shrink), out.begin() + section_end, uint8_t{0});
  const size_t shdr_at = Load<uint64_t>(image, 0x28) + section_index * 64;
  Store<uint64_t>(out, shdr_at + 32, section.size - shrink);
  Store<uint64_t>(out, note_segment + 32, section.size - shrink);
  Store<uint64_t>(out, note_segment + 40, section.size - shrink);
  return out;
}

}  // namespace isapack
