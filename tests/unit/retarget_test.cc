// The generic-to-exact rewriter on this build's generic code objects: every
// member processor gets exactly the documented fields changed, a processor
// outside the family cannot be named, and damaged inputs are refused with
// the field named.
#include "retarget.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bounded_read.h"
#include "code_object.h"
#include "support/elf_builder.h"
#include "support/test_paths.h"

namespace isapack {
namespace {

TargetId Target(std::string_view text) {
  TargetId id;
  EXPECT_EQ(ParseTargetId(text, &id).error, TargetIdError::kOk) << text;
  return id;
}

struct GenericObject {
  TargetId target;
  std::vector<uint8_t> image;
};

// The generic code objects of this build (configured with generic ones).
std::vector<GenericObject> BuiltGenericObjects() {
  const std::string build = testing::TestPath("BUILD_DIR");
  std::ifstream in(build + "/isapack-targets.json");
  const nlohmann::json expansion = nlohmann::json::parse(in);
  std::vector<GenericObject> objects;
  for (const nlohmann::json& object : expansion.at("code_objects")) {
    const TargetId target = Target(object.at("target_id").get<std::string>());
    if (!target.is_generic()) continue;
    std::ifstream file(build + "/device_library/" + object.at("file").get<std::string>(),
                       std::ios::binary);
    objects.push_back({target, std::vector<uint8_t>((std::istreambuf_iterator<char>(file)),
                                                    std::istreambuf_iterator<char>())});
  }
  return objects;
}

const GenericObject& Gfx103Generic() {
  static const std::vector<GenericObject> objects = BuiltGenericObjects();
  for (const GenericObject& object : objects) {
    if (object.target.name() == "gfx10-3-generic") return object;
  }
  ADD_FAILURE() << "this build has no gfx10-3-generic code object";
  static const GenericObject none{};
  return none;
}

GenericMember Member(const TargetId& generic, std::string_view processor) {
  auto member = GenericMember::Of(generic, *FindProcessor(processor));
  EXPECT_TRUE(member.has_value()) << processor;
  return *member;
}

size_t Find(const std::vector<uint8_t>& image, std::string_view text) {
  const auto it = std::search(image.begin(), image.end(), text.begin(), text.end());
  EXPECT_NE(it, image.end()) << text;
  return static_cast<size_t>(it - image.begin());
}

std::string RefusalOf(const std::vector<uint8_t>& image, std::string_view processor = "gfx1036") {
  auto result = RetargetToMember(image, Member(Gfx103Generic().target, processor));
  return result ? std::string("accepted") : result.error().message;
}

TEST(Retarget, EveryMemberOfEveryBuiltGenericObjectValidatesAsItsExactTargetV5) {
  const std::vector<GenericObject> objects = BuiltGenericObjects();
  ASSERT_FALSE(objects.empty());
  size_t pairs = 0;
  for (const GenericObject& object : objects) {
    for (uint16_t index : object.target.generic->members) {
      const ProcessorInfo& processor = Processors()[index];
      const GenericMember member = Member(object.target, processor.name);
      auto out = RetargetToMember(object.image, member);
      ASSERT_TRUE(out) << out.error().message;
      EXPECT_EQ(ValidateCodeObject(*out, {member.retargeted(), 5, testing::AllKernelDescriptors()}),
                std::vector<std::string>{})
          << processor.name;
      ++pairs;
    }
  }
  EXPECT_GE(pairs, objects.size());
}

TEST(Retarget, Gfx103GenericToGfx1036ChangesOnlyAbiVersionFlagsAndTheMetadataNote) {
  const std::vector<uint8_t>& in = Gfx103Generic().image;
  auto out = RetargetToMember(in, Member(Gfx103Generic().target, "gfx1036"));
  ASSERT_TRUE(out) << out.error().message;
  ASSERT_EQ(out->size(), in.size());
  EXPECT_EQ(in[8], 4);
  EXPECT_EQ((*out)[8], 3);
  EXPECT_EQ(Load<uint32_t>(in, 0x30), 0x01000053u);
  EXPECT_EQ(Load<uint32_t>(*out, 0x30), 0x45u);
  auto sections = ReadElfSections(in);
  ASSERT_TRUE(sections);
  const ElfSection* note = nullptr;
  for (const ElfSection& s : *sections) {
    if (s.name == ".note") note = &s;
  }
  ASSERT_NE(note, nullptr);
  auto out_sections = ReadElfSections(*out);
  ASSERT_TRUE(out_sections);
  // The target name shrinks from 34 to 26 characters (str8 to fixstr): 9
  // bytes, 8 after the 4-byte note padding.
  for (size_t i = 0; i < sections->size(); ++i) {
    EXPECT_EQ((*out_sections)[i].size,
              (*sections)[i].size - ((*sections)[i].name == ".note" ? 8 : 0))
        << (*sections)[i].name;
    EXPECT_EQ((*out_sections)[i].offset, (*sections)[i].offset) << (*sections)[i].name;
  }
  // Every byte outside the ELF header fields, the note and the two size
  // fields (section header, PT_NOTE) is unchanged.
  size_t changed_elsewhere = 0;
  const size_t shdr_size_at = Load<uint64_t>(in, 0x28) + 1 * 64 + 32;
  for (size_t i = 0; i < in.size(); ++i) {
    const bool documented = i == 8 || (i >= 0x30 && i < 0x34) ||
                            (i >= note->offset && i < note->offset + note->size) ||
                            (i >= shdr_size_at && i < shdr_size_at + 8) ||
                            (i >= 64 && i < 64 + size_t{56} * Load<uint16_t>(in, 0x38));
    if (!documented && in[i] != (*out)[i]) ++changed_elsewhere;
  }
  EXPECT_EQ(changed_elsewhere, 0u);
  auto metadata = FindMetadataNote(*out);
  ASSERT_TRUE(metadata);
  const std::string text(metadata->begin(), metadata->end());
  EXPECT_NE(text.find("amdgcn-amd-amdhsa--gfx1036"), std::string::npos);
  EXPECT_EQ(text.find("generic"), std::string::npos);
}

TEST(Retarget, Gfx9GenericToGfx906LeavesSrameccAnyAsClangDoesForGfx906) {
  const GenericMember member = Member(Target("gfx9-generic"), "gfx906");
  EXPECT_EQ(member.retargeted().ToString(), "gfx906");
  EXPECT_EQ(RetargetedFlags(member), 0x52fu);  // gfx906, xnack any, sramecc any
}

TEST(Retarget, KeepsTheGenericsXnackMode) {
  const GenericMember member = Member(Target("gfx10-1-generic:xnack-"), "gfx1012");
  EXPECT_EQ(member.retargeted().ToString(), "gfx1012:xnack-");
  EXPECT_EQ(RetargetedFlags(member), 0x235u);
}

TEST(Retarget, AProcessorOutsideTheFamilyCannotBeNamed) {
  EXPECT_FALSE(GenericMember::Of(Target("gfx10-3-generic"), *FindProcessor("gfx1100")).has_value());
  EXPECT_FALSE(GenericMember::Of(Target("gfx11-generic"), *FindProcessor("gfx1036")).has_value());
  EXPECT_FALSE(GenericMember::Of(Target("gfx1036"), *FindProcessor("gfx1036")).has_value());
  EXPECT_FALSE(GenericMember::Of(Target("gfx9-generic"), *FindProcessor("gfx90a")).has_value());
}

TEST(Retarget, RefusesAnObjectOfAnotherGenericThanTheMemberNames) {
  std::vector<uint8_t> image = Gfx103Generic().image;
  image[0x30] = 0x54;  // gfx11-generic's machine ID
  EXPECT_NE(RefusalOf(image).find("e_flags machine ID is 84, not gfx10-3-generic's"),
            std::string::npos)
      << RefusalOf(image);
}

TEST(Retarget, RefusesAnExactObjectNamingEiAbiversion) {
  std::vector<uint8_t> image = Gfx103Generic().image;
  image[8] = 3;
  EXPECT_NE(RefusalOf(image).find("EI_ABIVERSION is 3"), std::string::npos) << RefusalOf(image);
}

TEST(Retarget, RefusesGenericVersionZeroNamingIt) {
  std::vector<uint8_t> image = Gfx103Generic().image;
  image[0x33] = 0;
  EXPECT_NE(RefusalOf(image).find("generic version 0"), std::string::npos) << RefusalOf(image);
}

TEST(Retarget, RefusesReservedFlagBitsNamingThem) {
  std::vector<uint8_t> image = Gfx103Generic().image;
  image[0x32] = 0x10;
  EXPECT_NE(RefusalOf(image).find("e_flags has reserved bits set"), std::string::npos)
      << RefusalOf(image);
}

TEST(Retarget, RefusesFeatureBitsTheGenericLacksNamingTheField) {
  std::vector<uint8_t> image = Gfx103Generic().image;
  image[0x31] = 0x01;  // xnack "any" on a generic without xnack
  EXPECT_NE(RefusalOf(image).find("e_flags xnack field is any"), std::string::npos)
      << RefusalOf(image);
}

TEST(Retarget, RefusesAMetadataTargetThatIsNotTheGenericNamingAmdhsaTarget) {
  std::vector<uint8_t> image = Gfx103Generic().image;
  image[Find(image, "amdgcn-amd-amdhsa--gfx10-3-generic") + 22] = '4';
  EXPECT_NE(
      RefusalOf(image).find("metadata amdhsa.target is not 'amdgcn-amd-amdhsa--gfx10-3-generic'"),
      std::string::npos)
      << RefusalOf(image);
}

TEST(Retarget, RefusesAMetadataVersionOtherThanOneTwoNamingAmdhsaVersion) {
  std::vector<uint8_t> image = Gfx103Generic().image;
  const size_t key = Find(image, "amdhsa.version");
  ASSERT_EQ(image[key + 14], 0x92);
  image[key + 16] = 3;
  EXPECT_NE(RefusalOf(image).find("metadata amdhsa.version is not [1, 2]"), std::string::npos)
      << RefusalOf(image);
}

TEST(Retarget, RefusesAMetadataNoteWithoutTheTargetKey) {
  std::vector<uint8_t> image = Gfx103Generic().image;
  image[Find(image, "amdhsa.target") + 7] = 'X';
  EXPECT_NE(RefusalOf(image).find("the metadata has no amdhsa.target"), std::string::npos)
      << RefusalOf(image);
}

TEST(Retarget, RefusesATruncatedObject) {
  std::vector<uint8_t> image = Gfx103Generic().image;
  image.resize(40);
  EXPECT_NE(RefusalOf(image).find("cannot retarget gfx10-3-generic to gfx1036: file is 40 bytes"),
            std::string::npos)
      << RefusalOf(image);
}

}  // namespace
}  // namespace isapack
