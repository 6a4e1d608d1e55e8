// The code object reader and validator: every accept and reject rule on
// synthetic headers, then every code object this build produced.
#include "code_object.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/elf_builder.h"

#include "support/test_paths.h"

namespace isapack {
namespace {

using testing::AllKernelDescriptors;
using testing::BuildElf;
using testing::ElfSpec;

TargetId Target(std::string_view text) {
  TargetId id;
  EXPECT_EQ(ParseTargetId(text, &id).error, TargetIdError::kOk) << text;
  return id;
}

// A spec that validates as gfx11-generic, code object v6.
ElfSpec Gfx11Generic() {
  ElfSpec spec;
  spec.abi_version = 4;
  spec.flags = 0x01000054;
  spec.symbols = AllKernelDescriptors();
  return spec;
}

std::vector<std::string> Validate(const ElfSpec& spec, std::string_view target, unsigned version) {
  return ValidateCodeObject(BuildElf(spec), {Target(target), version, AllKernelDescriptors()});
}

TEST(CodeObjectFlags, EncodeMachineFeaturesAndGenericVersionAsLlvmDoes) {
  EXPECT_EQ(CodeObjectFlags(Target("gfx1100")), 0x41u);  // no feature settings
  EXPECT_EQ(CodeObjectFlags(Target("gfx90a")), 0x53fu);  // xnack any, sramecc any
  EXPECT_EQ(CodeObjectFlags(Target("gfx90a:xnack+")), 0x73fu);
  EXPECT_EQ(CodeObjectFlags(Target("gfx90a:sramecc-:xnack-")), 0xa3fu);
  EXPECT_EQ(CodeObjectFlags(Target("gfx942:sramecc+:xnack+")), 0xf4cu);
  // The values ../shared/reference/amdgpu-targets.md documents (clang-19).
  EXPECT_EQ(CodeObjectFlags(Target("gfx942")), 0x54cu);
  EXPECT_EQ(CodeObjectFlags(Target("gfx9-generic")), 0x01000151u);
  EXPECT_EQ(CodeObjectFlags(Target("gfx9-generic:xnack-")), 0x01000251u);
  EXPECT_EQ(CodeObjectFlags(Target("gfx11-generic")), 0x01000054u);
  EXPECT_EQ(CodeObjectFlags(Target("gfx11-generic"), 2), 0x02000054u);
}

TEST(CodeObjectValidator, AcceptsAGenericObject) {
  EXPECT_EQ(Validate(Gfx11Generic(), "gfx11-generic", 6), std::vector<std::string>{});
}

TEST(CodeObjectValidator, AcceptsAnExactObjectWithAnyFeatures) {
  ElfSpec spec = Gfx11Generic();
  spec.abi_version = 3;
  spec.flags = 0x53f;  // gfx90a, xnack any, sramecc any
  EXPECT_EQ(Validate(spec, "gfx90a", 5), std::vector<std::string>{});
}

TEST(CodeObjectValidator, AcceptsTheFeatureModeTheTargetIdNames) {
  ElfSpec spec = Gfx11Generic();
  spec.abi_version = 3;
  spec.flags = 0xe4c;  // gfx942:sramecc+:xnack-
  EXPECT_EQ(Validate(spec, "gfx942:sramecc+:xnack-", 5), std::vector<std::string>{});
}

TEST(CodeObjectValidator, RejectsAWrongMachine) {
  ElfSpec spec = Gfx11Generic();
  spec.machine = 62;
  EXPECT_EQ(Validate(spec, "gfx11-generic", 6),
            std::vector<std::string>{"e_machine is 62, expected 224 (EM_AMDGPU)"});
}

TEST(CodeObjectValidator, RejectsAWrongOsAbi) {
  ElfSpec spec = Gfx11Generic();
  spec.os_abi = 0;
  // Without the HSA OS/ABI the ABI version means nothing, so both are reported.
  EXPECT_EQ(Validate(spec, "gfx11-generic", 6),
            (std::vector<std::string>{"OS/ABI is 0, expected 64 (AMDGPU HSA)",
                                      "generic version is 0, expected at least 1 for generic "
                                      "target gfx11-generic"}));
}

TEST(CodeObjectValidator, RejectsAnAbiVersionOtherThanRequested) {
  ElfSpec spec = Gfx11Generic();
  spec.abi_version = 3;
  spec.flags = 0x41;  // gfx1100 built as v5
  EXPECT_EQ(Validate(spec, "gfx1100", 4),
            std::vector<std::string>{"ABI version is 3, expected 2 (code object v4)"});
}

TEST(CodeObjectValidator, RejectsANonSharedObject) {
  ElfSpec spec = Gfx11Generic();
  spec.type = 1;  // ET_REL: an unlinked object
  EXPECT_EQ(Validate(spec, "gfx11-generic", 6),
            std::vector<std::string>{"e_type is 1, expected 3 (ET_DYN)"});
}

TEST(CodeObjectValidator, RejectsAMachineIdOtherThanTheTables) {
  ElfSpec spec = Gfx11Generic();
  spec.abi_version = 3;
  spec.flags = 0x41;  // gfx1100
  EXPECT_EQ(
      Validate(spec, "gfx1101", 5),
      std::vector<std::string>{"e_flags machine ID is 0x41 (gfx1100), expected 0x46 (gfx1101)"});
}

TEST(CodeObjectValidator, RejectsAGenericObjectWithoutGenericVersion) {
  ElfSpec spec = Gfx11Generic();
  spec.flags = 0x54;
  EXPECT_EQ(Validate(spec, "gfx11-generic", 6),
            std::vector<std::string>{
                "generic version is 0, expected at least 1 for generic target gfx11-generic"});
}

TEST(CodeObjectValidator, RejectsAnExactObjectWithAGenericVersion) {
  ElfSpec spec = Gfx11Generic();
  spec.flags = 0x01000041;
  EXPECT_EQ(Validate(spec, "gfx1100", 6),
            std::vector<std::string>{"generic version is 1, expected 0 for exact target gfx1100"});
}

TEST(CodeObjectValidator, RejectsAFeatureModeTheSelectorDidNotName) {
  ElfSpec spec = Gfx11Generic();
  spec.abi_version = 3;
  spec.flags = 0x73f;  // gfx90a:xnack+ (sramecc any) where "any" was asked for
  EXPECT_EQ(Validate(spec, "gfx90a", 5), std::vector<std::string>{"xnack is on, expected any"});
}

TEST(CodeObjectValidator, RejectsAnyWhereTheSelectorNamedAMode) {
  ElfSpec spec = Gfx11Generic();
  spec.abi_version = 3;
  spec.flags = 0x53f;  // gfx90a, any/any
  EXPECT_EQ(
      Validate(spec, "gfx90a:sramecc-:xnack+", 5),
      (std::vector<std::string>{"xnack is any, expected on", "sramecc is any, expected off"}));
}

TEST(CodeObjectValidator, RejectsFeatureBitsOnAProcessorWithoutTheFeature) {
  ElfSpec spec = Gfx11Generic();
  spec.flags = 0x01000154;  // gfx11-generic claiming xnack any
  EXPECT_EQ(Validate(spec, "gfx11-generic", 6),
            std::vector<std::string>{"xnack is any, expected unsupported"});
}

TEST(CodeObjectValidator, IgnoresXnackBitsWhereXnackIsAlwaysOn) {
  ElfSpec spec = Gfx11Generic();
  spec.abi_version = 3;
  spec.flags = 0x749;  // gfx1250, xnack bits "on", sramecc any
  EXPECT_EQ(Validate(spec, "gfx1250", 5), std::vector<std::string>{});
}

TEST(CodeObjectValidator, RequiresEveryKernelDescriptor) {
  ElfSpec spec = Gfx11Generic();
  spec.symbols = {"isapack_fill.kd", "isapack_fill", "isapack_copy"};
  EXPECT_EQ(Validate(spec, "gfx11-generic", 6),
            (std::vector<std::string>{"kernel descriptor isapack_copy.kd is missing",
                                      "kernel descriptor isapack_probe.kd is missing"}));
}

TEST(CodeObjectValidator, RejectsWhatIsNotAnElf64File) {
  const std::vector<uint8_t> text(100, 'x');
  EXPECT_EQ(ValidateCodeObject(text, {Target("gfx1100"), 5, {}}),
            std::vector<std::string>{"not an ELF file"});
  ElfSpec spec = Gfx11Generic();
  spec.elf_class = 1;
  EXPECT_EQ(Validate(spec, "gfx11-generic", 6),
            std::vector<std::string>{"not a 64-bit ELF file (EI_CLASS 1)"});
  spec = Gfx11Generic();
  spec.data = 2;
  EXPECT_EQ(Validate(spec, "gfx11-generic", 6),
            std::vector<std::string>{"not a little-endian ELF file"});
  const std::vector<uint8_t> short_file = {0x7f, 'E', 'L', 'F'};
  EXPECT_EQ(ValidateCodeObject(short_file, {Target("gfx1100"), 5, {}}),
            std::vector<std::string>{"file is 4 bytes, shorter than an ELF64 header (64 bytes)"});
}

TEST(CodeObjectReader, RejectsASectionTableOutsideTheFile) {
  std::vector<uint8_t> image = BuildElf(Gfx11Generic());
  const uint64_t shoff = image.size();  // points just past the end
  std::memcpy(image.data() + 0x28, &shoff, 8);
  auto symbols = ReadSymbols(image);
  ASSERT_FALSE(symbols);
  EXPECT_EQ(symbols.error().message, "ELF section header table lies outside the file");
}

TEST(CodeObjectReader, RejectsASymbolNameOutsideItsStringTable) {
  ElfSpec spec = Gfx11Generic();
  spec.symbols = {"a"};
  std::vector<uint8_t> image = BuildElf(spec);
  // The first real symbol follows the 24-byte null symbol; point its name far away.
  auto symbols = ReadSymbols(image);
  ASSERT_TRUE(symbols);
  const size_t symtab_at = 8;  // .strtab is "\0a\0" (3 bytes) aligned to 8
  const uint32_t name = 1000;
  std::memcpy(image.data() + 64 + symtab_at + 24, &name, 4);
  symbols = ReadSymbols(image);
  ASSERT_FALSE(symbols);
  EXPECT_EQ(symbols.error().message, "ELF symbol name lies outside its string table");
}

TEST(CodeObjectReader, DecodesTheHeaderOfEachVersion) {
  ElfSpec spec;
  spec.abi_version = 2;  // v4
  spec.flags = 0xe4c;
  auto header = ReadCodeObjectHeader(BuildElf(spec));
  ASSERT_TRUE(header);
  EXPECT_EQ(header->code_object_version, 4u);
  EXPECT_EQ(header->mach, 0x4c);
  EXPECT_EQ(header->sramecc, FeatureSetting::kOn);
  EXPECT_EQ(header->xnack, FeatureSetting::kOff);
  EXPECT_EQ(header->generic_version, 0);
  EXPECT_EQ(TargetIdOfHeader(*header)->ToString(), "gfx942:sramecc+:xnack-");

  spec.abi_version = 4;  // v6: generic version in bits 31:24
  spec.flags = 0x02000251;
  header = ReadCodeObjectHeader(BuildElf(spec));
  ASSERT_TRUE(header);
  EXPECT_EQ(header->code_object_version, 6u);
  EXPECT_EQ(header->generic_version, 2);
  EXPECT_EQ(TargetIdOfHeader(*header)->ToString(), "gfx9-generic:xnack-");

  spec.flags = 0x7e;  // an unassigned machine ID
  header = ReadCodeObjectHeader(BuildElf(spec));
  ASSERT_TRUE(header);
  auto id = TargetIdOfHeader(*header);
  ASSERT_FALSE(id);
  EXPECT_EQ(
      id.error().message,
      "unknown AMDGPU machine ID 0x7e in e_flags 0x7e; it is newer than this isapack's target "
      "table");
}

TEST(CodeObjectReader, FindsTheMetadataNote) {
  ElfSpec spec = Gfx11Generic();
  spec.metadata_note = {0x81, 0xa1, 'a', 0x01};  // msgpack {"a": 1}
  const std::vector<uint8_t> image = BuildElf(spec);
  auto note = FindMetadataNote(image);
  ASSERT_TRUE(note);
  EXPECT_EQ(std::vector<uint8_t>(note->begin(), note->end()), spec.metadata_note);
}

// --- Every code object this build produced -----------------------------------

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

TEST(BuildTreeCodeObjects, EachValidatesAgainstItsTargetAndHoldsTheKernelMetadata) {
  const std::string build = testing::TestPath("BUILD_DIR");
  ASSERT_FALSE(build.empty()) << isapack::testing::kBuildTreeOnly;
  std::ifstream in(build + "/isapack-targets.json");
  const nlohmann::json expansion = nlohmann::json::parse(in);
  ASSERT_FALSE(expansion.at("code_objects").empty());
  for (const nlohmann::json& object : expansion.at("code_objects")) {
    const std::string target = object.at("target_id");
    const std::vector<uint8_t> image =
        ReadFile(build + "/device_library/" + object.at("file").get<std::string>());
    ASSERT_FALSE(image.empty()) << target;
    EXPECT_EQ(
        ValidateCodeObject(image, {Target(target), object.at("code_object_version").get<unsigned>(),
                                   AllKernelDescriptors()}),
        std::vector<std::string>{})
        << target;
    auto note = FindMetadataNote(image);
    ASSERT_TRUE(note) << target;
    EXPECT_GT(note->size(), 100u) << target;
  }
}

}  // namespace
}  // namespace isapack
