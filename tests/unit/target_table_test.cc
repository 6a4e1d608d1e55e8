// Checks the data file itself, through the table the build generates from it.
#include "target_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "support/test_paths.h"

namespace isapack {
namespace {

TEST(TargetTable, NamesAreUniqueAcrossProcessorsGenericsAndGroups) {
  std::set<std::string_view> names;
  for (const ProcessorInfo& p : Processors()) EXPECT_TRUE(names.insert(p.name).second) << p.name;
  for (const GenericInfo& g : Generics()) EXPECT_TRUE(names.insert(g.name).second) << g.name;
  for (const GroupInfo& g : Groups()) EXPECT_TRUE(names.insert(g.name).second) << g.name;
}

TEST(TargetTable, MachineIdsAreUnique) {
  std::set<uint8_t> machs;
  for (const ProcessorInfo& p : Processors()) EXPECT_TRUE(machs.insert(p.mach).second) << p.name;
  for (const GenericInfo& g : Generics()) EXPECT_TRUE(machs.insert(g.mach).second) << g.name;
}

TEST(TargetTable, MachineIdsAvoidLlvmReservedValues) {
  for (uint8_t reserved :
       {uint8_t{0x27}, uint8_t{0x4d}, uint8_t{0x56}, uint8_t{0x60}, uint8_t{0x70}}) {
    EXPECT_EQ(FindProcessorByMach(reserved), nullptr) << std::hex << int{reserved};
    EXPECT_EQ(FindGenericByMach(reserved), nullptr) << std::hex << int{reserved};
  }
}

TEST(TargetTable, MachineIdsMatchWhatClang19Writes) {
  // e_flags & 0xff measured with clang-19 (shared/reference/amdgpu-targets.md §5).
  EXPECT_EQ(FindGeneric("gfx11-generic")->mach, 0x54);
  EXPECT_EQ(FindGeneric("gfx9-generic")->mach, 0x51);
  EXPECT_EQ(FindProcessor("gfx942")->mach, 0x4c);
  EXPECT_EQ(FindProcessor("gfx1100")->mach, 0x41);
  EXPECT_EQ(FindProcessor("gfx1103")->mach, 0x44);
  EXPECT_EQ(FindProcessor("gfx90a")->mach, 0x3f);
}

TEST(TargetTable, ProcessorNameSpellsItsIsaVersion) {
  // gfx<major><minor><stepping as one hex digit>: gfx90a is 9.0.10.
  for (const ProcessorInfo& p : Processors()) {
    ASSERT_LT(p.isa.stepping, 16) << p.name;
    const std::string expected = "gfx" + std::to_string(p.isa.major) + std::to_string(p.isa.minor) +
                                 "0123456789abcdef"[p.isa.stepping];
    EXPECT_EQ(p.name, expected);
  }
}

TEST(TargetTable, ProcessorsAreInIsaVersionOrder) {
  auto key = [](const ProcessorInfo& p) {
    return std::tuple(p.isa.major, p.isa.minor, p.isa.stepping);
  };
  auto processors = Processors();
  EXPECT_TRUE(std::is_sorted(processors.begin(), processors.end(),
                             [&](const auto& a, const auto& b) { return key(a) < key(b); }));
}

TEST(TargetTable, EveryGenericMemberMapsBackToItsGeneric) {
  for (const GenericInfo& generic : Generics()) {
    EXPECT_FALSE(generic.members.empty()) << generic.name;
    for (uint16_t index : generic.members) {
      const ProcessorInfo& member = Processors()[index];
      EXPECT_EQ(GenericOf(member), &generic) << generic.name << " lists " << member.name;
    }
  }
  for (const ProcessorInfo& p : Processors()) {
    const GenericInfo* generic = GenericOf(p);
    if (generic == nullptr) {
      EXPECT_EQ(p.generic_version, 0) << p.name;
      continue;
    }
    EXPECT_GE(p.generic_version, 1) << p.name;
    const size_t index = IndexOf(p);
    EXPECT_NE(std::find(generic->members.begin(), generic->members.end(), index),
              generic->members.end())
        << p.name << " names " << generic->name << ", which does not list it";
  }
}

TEST(TargetTable, GenericFeaturesAreSharedByEveryMember) {
  // A generic can only offer a feature setting that each member has.
  for (const GenericInfo& generic : Generics()) {
    for (uint16_t index : generic.members) {
      const ProcessorInfo& member = Processors()[index];
      if (generic.xnack != FeatureSupport::kNone) {
        EXPECT_EQ(member.xnack, generic.xnack) << member.name;
      }
      if (generic.sramecc != FeatureSupport::kNone) {
        EXPECT_EQ(member.sramecc, generic.sramecc) << member.name;
      }
    }
  }
}

TEST(TargetTable, GroupMembersAreUniqueProcessors) {
  for (const GroupInfo& group : Groups()) {
    EXPECT_FALSE(group.members.empty()) << group.name;
    std::set<uint16_t> seen(group.members.begin(), group.members.end());
    EXPECT_EQ(seen.size(), group.members.size()) << group.name;
    for (uint16_t index : group.members) EXPECT_LT(index, Processors().size()) << group.name;
  }
}

std::vector<std::string_view> MemberNames(const GroupInfo& group) {
  std::vector<std::string_view> names;
  for (uint16_t index : group.members) names.push_back(Processors()[index].name);
  return names;
}

TEST(TargetTable, BundlesHaveTheRocksMembers) {
  using Names = std::vector<std::string_view>;
  EXPECT_EQ(MemberNames(*FindGroup("dgpu-all")),
            (Names{"gfx900", "gfx906", "gfx1010", "gfx1011", "gfx1012", "gfx1030", "gfx1031",
                   "gfx1032", "gfx1034", "gfx1100", "gfx1101", "gfx1102", "gfx1200", "gfx1201"}));
  EXPECT_EQ(MemberNames(*FindGroup("igpu-all")),
            (Names{"gfx90c", "gfx1033", "gfx1035", "gfx1036", "gfx1103", "gfx1150", "gfx1151",
                   "gfx1152", "gfx1153"}));
  EXPECT_EQ(MemberNames(*FindGroup("dcgpu-all")),
            (Names{"gfx908", "gfx90a", "gfx942", "gfx950", "gfx1250"}));
  EXPECT_EQ(MemberNames(*FindGroup("gfx110X-all")),
            (Names{"gfx1100", "gfx1101", "gfx1102", "gfx1103"}));
  EXPECT_EQ(FindGroup("gfx120X-dgpu"), nullptr) << "TheRock has no gfx120X-dgpu";
  EXPECT_EQ(FindGroup("gfx90X-all"), nullptr) << "TheRock removed gfx90X-all in Feb 2026";
}

TEST(TargetTable, AllIsEveryGfx9AndNewerProcessor) {
  std::vector<std::string_view> expected;
  for (const ProcessorInfo& p : Processors()) {
    if (p.isa.major >= 9) expected.push_back(p.name);
  }
  EXPECT_EQ(MemberNames(*FindGroup("all")), expected);
  EXPECT_EQ(expected.size(), 40u);
  EXPECT_EQ(FindGroup("all")->kind, GroupKind::kBundle);
}

TEST(TargetTable, CoversGfx600ToGfx1310) {
  EXPECT_EQ(Processors().front().name, "gfx600");
  EXPECT_EQ(Processors().back().name, "gfx1310");
  EXPECT_EQ(Processors().size(), 54u);
  EXPECT_EQ(Generics().size(), 9u);
}

TEST(TargetTable, XnackAlwaysOnOnlyForGfx125x) {
  for (const ProcessorInfo& p : Processors()) {
    EXPECT_EQ(p.xnack == FeatureSupport::kAlways, p.isa.major == 12 && p.isa.minor == 5) << p.name;
  }
}

// The names a compiler list file (tests/expansion/llvm<N>.txt) holds that the
// table knows, as a set.
std::set<std::string> CompilerList(unsigned llvm) {
  std::ifstream in(testing::TestPath("DATA_DIR") + "/expansion/llvm" + std::to_string(llvm) +
                   ".txt");
  std::set<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (FindProcessor(line) != nullptr || FindGeneric(line) != nullptr) names.insert(line);
  }
  return names;
}

TEST(TargetTable, LlvmFieldsAgreeWithTheCompilerLists) {
  // llvm19.txt is clang-19's real output; 20 and 23 are documented stand-ins.
  for (unsigned llvm : {19u, 20u, 23u}) {
    std::set<std::string> from_table;
    for (const ProcessorInfo& p : Processors()) {
      if (LlvmHas(p, llvm)) from_table.emplace(p.name);
    }
    for (const GenericInfo& g : Generics()) {
      if (LlvmHas(g, llvm)) from_table.emplace(g.name);
    }
    EXPECT_EQ(from_table, CompilerList(llvm)) << "LLVM " << llvm;
  }
}

}  // namespace
}  // namespace isapack
