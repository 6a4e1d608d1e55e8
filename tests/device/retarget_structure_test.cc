// For every generic code object of this build and every member processor
// the build covers with it: the generic object retargeted by libisapack's
// rewriter (core/src/retarget.cc) against the same kernels compiled by
// the build's own rule for that processor as code object v5. Structure must
// be identical except the fields docs/retargeting.md documents:
//   - layout: file offsets and addresses (the rewrite keeps the generic's
//     layout with a gap after the shrunken note; the compiler lays out afresh),
//     hence kernel_code_entry_byte_offset in each kernel descriptor;
//   - .text and what follows from it (function symbol sizes, the executable
//     segment, and where .text differs the register layout the code was
//     compiled for: granulated VGPR/SGPR counts and USER_SGPR_COUNT in the
//     kernel descriptor, .sgpr_count/.vgpr_count in the metadata), since
//     generic code avoids member instructions and carries every member's
//     workarounds (gfx11-generic: gfx1100/gfx1102's UserSGPRInit16Bug);
// The pairs come from retarget-pairs.txt, written by tests/CMakeLists.txt.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "bounded_read.h"
#include "code_object.h"
#include "retarget.h"
#include "support/elf_builder.h"
#include "support/test_paths.h"

namespace isapack {
namespace {

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

TargetId Target(const std::string& text) {
  TargetId id;
  EXPECT_EQ(ParseTargetId(text, &id).error, TargetIdError::kOk) << text;
  return id;
}

// The raw section header fields that do not depend on layout.
struct SectionShape {
  std::string name;
  uint32_t type, link, info;
  uint64_t flags, align, entry_size, size;
  bool operator==(const SectionShape&) const = default;
};

std::vector<SectionShape> Shapes(std::span<const uint8_t> image) {
  auto sections = ReadElfSections(image);
  EXPECT_TRUE(sections);
  std::vector<SectionShape> shapes;
  const uint64_t shoff = Load<uint64_t>(image, 0x28);
  for (size_t i = 0; i < sections->size(); ++i) {
    const size_t at = shoff + i * 64;
    const ElfSection& s = (*sections)[i];
    shapes.push_back({std::string(s.name), s.type, Load<uint32_t>(image, at + 40),
                      Load<uint32_t>(image, at + 44), s.flags, Load<uint64_t>(image, at + 48),
                      Load<uint64_t>(image, at + 56), s.size});
  }
  return shapes;
}

struct SegmentShape {
  uint32_t type, flags;
  uint64_t align, file_size, memory_size;
};

std::vector<SegmentShape> Segments(std::span<const uint8_t> image) {
  std::vector<SegmentShape> segments;
  const uint64_t phoff = Load<uint64_t>(image, 0x20);
  for (uint16_t i = 0; i < Load<uint16_t>(image, 0x38); ++i) {
    const size_t at = phoff + size_t{i} * 56;
    segments.push_back({Load<uint32_t>(image, at), Load<uint32_t>(image, at + 4),
                        Load<uint64_t>(image, at + 48), Load<uint64_t>(image, at + 32),
                        Load<uint64_t>(image, at + 40)});
  }
  return segments;
}

nlohmann::json Metadata(std::span<const uint8_t> image) {
  auto note = FindMetadataNote(image);
  EXPECT_TRUE(note);
  return nlohmann::json::from_msgpack(note->begin(), note->end());
}

struct Pair {
  std::string generic_target, generic_file, reference_target, reference_file;
};

std::vector<Pair> Pairs() {
  std::ifstream in(testing::TestPath("BUILD_DIR") + "/tests/retarget-pairs.txt");
  std::vector<Pair> pairs;
  Pair pair;
  while (in >> pair.generic_target >> pair.generic_file >> pair.reference_target >>
         pair.reference_file) {
    pairs.push_back(pair);
  }
  return pairs;
}

// What the comparison found for one pair, beyond the documented fields.
struct Finding {
  bool text_identical = false;
  bool register_layout_differs = false;  // kernel descriptor bytes beyond the entry offset
};

template <typename T>
void Store(std::vector<uint8_t>& bytes, size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof(T));
}

Finding Compare(const Pair& pair) {
  Finding finding;
  const std::vector<uint8_t> generic = ReadFile(pair.generic_file);
  const std::vector<uint8_t> reference = ReadFile(pair.reference_file);
  const TargetId reference_target = Target(pair.reference_target);
  const auto member = GenericMember::Of(Target(pair.generic_target), *reference_target.processor);
  EXPECT_TRUE(member.has_value());
  if (!member) return finding;
  auto rewritten = RetargetToMember(generic, *member);
  EXPECT_TRUE(rewritten) << rewritten.error().message;
  if (!rewritten) return finding;
  const std::vector<uint8_t>& out = *rewritten;
  EXPECT_EQ(ValidateCodeObject(out, {member->retargeted(), 5, testing::AllKernelDescriptors()}),
            std::vector<std::string>{});

  // ELF header: e_ident, type, machine, version, entry, table geometry; e_flags
  // exactly equal.
  EXPECT_TRUE(std::equal(out.begin(), out.begin() + 16, reference.begin())) << "e_ident";
  for (size_t at : {0x10, 0x12, 0x14, 0x18, 0x20, 0x34, 0x36, 0x38, 0x3a, 0x3c, 0x3e}) {
    EXPECT_EQ(Load<uint16_t>(out, at), Load<uint16_t>(reference, at)) << "ELF header offset " << at;
  }
  EXPECT_EQ(Load<uint32_t>(out, 0x30), Load<uint32_t>(reference, 0x30)) << "e_flags";

  // Sections: same names, kinds and sizes, except .text.
  std::vector<SectionShape> ours = Shapes(out), theirs = Shapes(reference);
  EXPECT_EQ(ours.size(), theirs.size());
  for (size_t i = 0; i < std::min(ours.size(), theirs.size()); ++i) {
    if (ours[i].name == ".text") ours[i].size = theirs[i].size;
    EXPECT_TRUE(ours[i] == theirs[i]) << "section " << theirs[i].name;
  }
  auto text = [](std::span<const uint8_t> image) {
    std::vector<uint8_t> bytes;
    auto sections = ReadElfSections(image);
    if (!sections) return bytes;
    for (const ElfSection& s : *sections) {
      if (s.name == ".text")
        bytes.assign(image.begin() + s.offset, image.begin() + s.offset + s.size);
    }
    return bytes;
  };
  finding.text_identical = text(out) == text(reference);

  // Segments: same kinds; sizes equal except the executable one when .text differs.
  const std::vector<SegmentShape> our_segments = Segments(out),
                                  their_segments = Segments(reference);
  EXPECT_EQ(our_segments.size(), their_segments.size());
  for (size_t i = 0; i < std::min(our_segments.size(), their_segments.size()); ++i) {
    const SegmentShape& a = our_segments[i];
    const SegmentShape& b = their_segments[i];
    EXPECT_EQ(a.type, b.type) << "segment " << i;
    EXPECT_EQ(a.flags, b.flags) << "segment " << i;
    EXPECT_EQ(a.align, b.align) << "segment " << i;
    if (a.type == 1 && (a.flags & 3) == 0) {  // PT_LOAD, neither executable nor writable
      // The read-only PT_LOAD holds the note: the rewrite keeps the generic's
      // layout, the compiler packs after the shorter note (alignment up to 64).
      EXPECT_LE(b.file_size, a.file_size) << "segment " << i;
      EXPECT_LE(a.file_size - b.file_size, 64u) << "segment " << i;
      EXPECT_EQ(a.file_size, a.memory_size) << "segment " << i;
    } else if (!(a.flags & 1) || finding.text_identical) {
      EXPECT_EQ(a.file_size, b.file_size) << "segment " << i;
      EXPECT_EQ(a.memory_size, b.memory_size) << "segment " << i;
    }
  }

  // Symbols: same names, types and sizes (function sizes follow .text);
  // kernel descriptors byte for byte but for the entry offset.
  auto our_symbols = ReadSymbols(out);
  auto their_symbols = ReadSymbols(reference);
  EXPECT_TRUE(our_symbols && their_symbols);
  EXPECT_EQ(our_symbols->size(), their_symbols->size());
  for (size_t i = 0; i < std::min(our_symbols->size(), their_symbols->size()); ++i) {
    const CodeObjectSymbol& a = (*our_symbols)[i];
    const CodeObjectSymbol& b = (*their_symbols)[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.type, b.type) << a.name;
    if (a.type != 2 || finding.text_identical) {  // STT_FUNC sizes follow .text
      EXPECT_EQ(a.size, b.size) << a.name;
    }
    if (!a.name.ends_with(".kd")) continue;
    auto ka = ReadAtAddress(out, a.value, 64);
    auto kb = ReadAtAddress(reference, b.value, 64);
    EXPECT_TRUE(ka && kb) << a.name;
    if (!ka || !kb) continue;
    std::vector<uint8_t> da(ka->begin(), ka->end()), db(kb->begin(), kb->end());
    for (std::vector<uint8_t>* kd : {&da, &db}) {
      std::fill(kd->begin() + 16, kd->begin() + 24,
                uint8_t{0});  // kernel_code_entry_byte_offset: layout
      if (finding.text_identical) continue;
      // The register layout the code was compiled for: granulated VGPR and
      // SGPR counts (compute_pgm_rsrc1 9:0) and USER_SGPR_COUNT
      // (compute_pgm_rsrc2 5:1).
      Store(*kd, 48, Load<uint32_t>(*kd, 48) & ~0x3ffu);
      Store(*kd, 52, Load<uint32_t>(*kd, 52) & ~0x3eu);
    }
    EXPECT_EQ(da, db) << a.name << " kernel descriptor";
    finding.register_layout_differs = finding.register_layout_differs ||
                                      !std::equal(ka->begin(), ka->end(), kb->begin(), kb->end());
  }

  // Metadata: every key and value, amdhsa.target being the retargeted ID.
  nlohmann::json ours_md = Metadata(out), theirs_md = Metadata(reference);
  EXPECT_EQ(ours_md.at("amdhsa.target"), member->retargeted().ToIsaName());
  EXPECT_EQ(theirs_md.at("amdhsa.target"), reference_target.ToIsaName());
  ours_md.erase("amdhsa.target");
  theirs_md.erase("amdhsa.target");
  if (!finding.text_identical) {
    // Register usage of the code: follows .text like the descriptor fields.
    for (nlohmann::json* md : {&ours_md, &theirs_md}) {
      for (nlohmann::json& kernel : md->at("amdhsa.kernels")) {
        for (const char* key : {".sgpr_count", ".vgpr_count", ".agpr_count", ".sgpr_spill_count",
                                ".vgpr_spill_count"}) {
          kernel.erase(key);
        }
      }
    }
  }
  EXPECT_EQ(ours_md, theirs_md);
  return finding;
}

TEST(
    RetargetStructure,
    EveryGenericObjectRetargetedToEveryMemberMatchesTheCompilersV5ObjectInTheDocumentedFieldsOnly) {
  const std::vector<Pair> pairs = Pairs();
  ASSERT_FALSE(pairs.empty());
  size_t identical_text = 0;
  for (const Pair& pair : pairs) {
    SCOPED_TRACE(pair.generic_target + " -> " + pair.reference_target);
    const Finding finding = Compare(pair);
    identical_text += finding.text_identical;
    if (!finding.text_identical) {
      std::cout << pair.generic_target << " -> " << pair.reference_target << ": .text differs"
                << (finding.register_layout_differs
                        ? "; kernel descriptor register fields differ with it"
                        : "")
                << "\n";
    }
  }
  std::cout << "compared " << pairs.size()
            << " (generic object, member processor) pairs; .text identical in " << identical_text
            << "\n";
}

}  // namespace
}  // namespace isapack
