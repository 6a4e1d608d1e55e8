// Selection for every exact target in targets/, against the catalogs of a
// generic and an exact build of `all` with clang-19, with and without the
// generic ISA in the agent's list, plus feature modes and exact messages.
#include "selection.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catalog_writer.h"
#include "code_object.h"
#include "expansion.h"
#include "support/elf_builder.h"

#include "support/test_paths.h"

namespace isapack {
namespace {

TargetId Parse(const std::string& text) {
  TargetId id;
  EXPECT_EQ(ParseIsaName(text, &id).error, TargetIdError::kOk) << text;
  return id;
}

// A catalog whose entries are the given target IDs (tiny ELF payloads).
class TestCatalog {
 public:
  explicit TestCatalog(const std::vector<std::string>& targets) {
    std::vector<CatalogInput> inputs;
    for (const std::string& target : targets) {
      const TargetId id = Parse(target);
      testing::ElfSpec spec;
      spec.flags = CodeObjectFlags(id);
      spec.abi_version = id.is_generic() ? 4 : 3;
      inputs.push_back(
          {target, "", id.is_generic() ? 6u : 5u, spec.flags, testing::BuildElf(spec)});
    }
    image_ = BuildCatalog(inputs, "{}").image;
    catalog_ = *Catalog::Parse(image_);
  }
  // A catalog holding what `selectors` expand to with clang-19's list.
  static TestCatalog FromExpansion(const std::string& selector, const std::string& mode) {
    ExpansionOptions options;
    options.selectors = {selector};
    options.mode = mode;
    options.supported = SupportedByLlvm(19);
    const Expected<Expansion> expansion = Expand(options);
    std::vector<std::string> targets;
    for (const ExpandedObject& object : expansion->objects) targets.push_back(object.target_id);
    return TestCatalog(targets);
  }
  const Catalog& catalog() const { return catalog_; }

 private:
  std::vector<uint8_t> image_;
  Catalog catalog_;
};

struct Outcome {
  std::string target;         // selected target ID, or "" on error
  std::string retargeted_to;  // the exact target a generic object is rewritten for, or ""
  isapack_status_code_t code = ISAPACK_STATUS_OK;
  std::string message;
  std::string trace;
};

Outcome SelectFor(const TestCatalog& test, const std::vector<std::string>& isa_names,
                  bool retarget = false) {
  std::vector<TargetId> isas;
  for (const std::string& name : isa_names) isas.push_back(Parse(name));
  const Selection selection = Select(isas, test.catalog(), {retarget});
  Outcome outcome;
  outcome.trace = FormatTrace(selection, isas, test.catalog());
  if (selection.ok()) {
    outcome.target = std::string(test.catalog().entry(selection.entry).target_id);
    if (selection.retargeted) outcome.retargeted_to = selection.retargeted_to.ToString();
  } else {
    Error error = SelectionError(selection, isas, test.catalog(), "");
    outcome.code = error.code;
    outcome.message = error.message;
  }
  return outcome;
}

// The agent ISA list ROCr reports for `processor`: modes off where it has
// them; with `generic`, the generic ISA second, as ROCr >= 6.4 lists it.
std::vector<std::string> AgentIsas(const ProcessorInfo& processor, bool generic) {
  TargetId id;
  id.processor = &processor;
  if (processor.sramecc == FeatureSupport::kSupported) id.sramecc = FeatureSetting::kOff;
  if (processor.xnack == FeatureSupport::kSupported) id.xnack = FeatureSetting::kOff;
  std::vector<std::string> isas = {id.ToIsaName()};
  if (const std::optional<TargetId> g = GenericIsaOf(id); generic && g)
    isas.push_back(g->ToIsaName());
  return isas;
}

// The expectation table shared with the CLI test (tests/selection/expectations.txt).
struct Expectation {
  std::string processor;
  std::string generic_build;             // agent lists its generic ISA (ROCr >= 6.4)
  std::string generic_build_older_rocr;  // agent lists only its exact ISA
  std::string exact_build;
};

std::vector<Expectation> ReadExpectations() {
  std::ifstream in(testing::TestPath("DATA_DIR") + "/selection/expectations.txt");
  std::vector<Expectation> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Expectation row;
    fields >> row.processor >> row.generic_build >> row.generic_build_older_rocr >> row.exact_build;
    rows.push_back(row);
  }
  return rows;
}

constexpr const char* kUnsupported = "UNSUPPORTED";
constexpr const char* kTooOld = "ROCR_TOO_OLD";

std::string Result(const Outcome& outcome) {
  if (!outcome.target.empty()) return outcome.target;
  return outcome.code == ISAPACK_STATUS_ROCR_TOO_OLD ? kTooOld : kUnsupported;
}

TEST(Selection, EveryExactTargetInGenericAndExactBuildsOfAll) {
  const TestCatalog generic = TestCatalog::FromExpansion("all", "generic");
  const TestCatalog exact = TestCatalog::FromExpansion("all", "exact");
  const std::vector<Expectation> expectations = ReadExpectations();
  ASSERT_EQ(expectations.size(), Processors().size());
  for (size_t i = 0; i < Processors().size(); ++i) {
    const ProcessorInfo& p = Processors()[i];
    const Expectation& e = expectations[i];
    ASSERT_EQ(p.name, e.processor);
    EXPECT_EQ(Result(SelectFor(generic, AgentIsas(p, true))), e.generic_build) << p.name;
    EXPECT_EQ(Result(SelectFor(generic, AgentIsas(p, false))), e.generic_build_older_rocr)
        << p.name;
    EXPECT_EQ(Result(SelectFor(exact, AgentIsas(p, true))), e.exact_build)
        << p.name << " (generic ISA listed)";
    EXPECT_EQ(Result(SelectFor(exact, AgentIsas(p, false))), e.exact_build) << p.name;
  }
}

// With retargeting on, every processor the table sends to ROCR_TOO_OLD gets
// the generic object it would get on ROCr >= 6.4, rewritten for itself.
TEST(Selection, OlderRocrGetsTheGenericObjectRetargetedWhereItWouldBeTooOld) {
  const TestCatalog generic = TestCatalog::FromExpansion("all", "generic");
  size_t retargeted = 0;
  for (const Expectation& e : ReadExpectations()) {
    const ProcessorInfo& p = *FindProcessor(e.processor);
    const Outcome outcome = SelectFor(generic, AgentIsas(p, false), /*retarget=*/true);
    if (e.generic_build_older_rocr != kTooOld) {
      EXPECT_EQ(Result(outcome), e.generic_build_older_rocr) << p.name;
      EXPECT_EQ(outcome.retargeted_to, "") << p.name;
      continue;
    }
    EXPECT_EQ(outcome.target, e.generic_build) << p.name;
    EXPECT_EQ(outcome.retargeted_to, p.name)
        << p.name;  // the generics of `all` name no feature mode
    ++retargeted;
  }
  EXPECT_EQ(retargeted, 28u);  // every ROCR_TOO_OLD row of the table
}

TEST(Selection, RetargetingNamesTheTargetInTheTrace) {
  const TestCatalog catalog({"gfx10-3-generic"});
  const Outcome outcome = SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx1036"}, /*retarget=*/true);
  EXPECT_EQ(outcome.target, "gfx10-3-generic");
  EXPECT_EQ(outcome.trace,
            "agent ISA amdgcn-amd-amdhsa--gfx1036\n"
            "  gfx10-3-generic: selected, retargeted to gfx1036 (code object v5) for a ROCr "
            "without generic "
            "support\n");
}

TEST(Selection, AnAgentThatListsTheGenericIsaGetsTheObjectUnchanged) {
  const TestCatalog catalog({"gfx10-3-generic"});
  const Outcome outcome =
      SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx1036", "amdgcn-amd-amdhsa--gfx10-3-generic"},
                /*retarget=*/true);
  EXPECT_EQ(outcome.target, "gfx10-3-generic");
  EXPECT_EQ(outcome.retargeted_to, "");
}

TEST(Selection, Gfx906WithSrameccOnGetsGfx9GenericRetargetedWithSrameccAny) {
  const TestCatalog catalog({"gfx9-generic"});
  const Outcome outcome =
      SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-"}, /*retarget=*/true);
  EXPECT_EQ(outcome.target, "gfx9-generic");
  EXPECT_EQ(outcome.retargeted_to, "gfx906");
}

TEST(Selection, AGenericWithAnExplicitXnackModeIsNotRetargetedForAnAgentInTheOtherMode) {
  const TestCatalog catalog({"gfx9-generic:xnack+"});
  const Outcome outcome =
      SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx900:xnack-"}, /*retarget=*/true);
  EXPECT_EQ(outcome.target, "");
  EXPECT_EQ(outcome.code, ISAPACK_STATUS_UNSUPPORTED_DEVICE);
}

TEST(Selection, AnExactObjectBeatsTheGenericOne) {
  const TestCatalog catalog({"gfx11-generic", "gfx1103"});
  EXPECT_EQ(
      SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx1103", "amdgcn-amd-amdhsa--gfx11-generic"}).target,
      "gfx1103");
  EXPECT_EQ(
      SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx1100", "amdgcn-amd-amdhsa--gfx11-generic"}).target,
      "gfx11-generic");
}

TEST(Selection, TheMostSpecificFeatureModeWins) {
  const TestCatalog catalog({"gfx90a", "gfx90a:xnack+", "gfx90a:sramecc+:xnack+"});
  EXPECT_EQ(SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack+"}).target,
            "gfx90a:sramecc+:xnack+");
  EXPECT_EQ(SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx90a:sramecc-:xnack+"}).target,
            "gfx90a:xnack+");
  EXPECT_EQ(SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx90a:sramecc-:xnack-"}).target, "gfx90a");
}

TEST(Selection, AnObjectForTheOtherModeIsRejected) {
  const TestCatalog catalog({"gfx90a:xnack+"});
  const Outcome outcome = SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"});
  EXPECT_EQ(outcome.code, ISAPACK_STATUS_UNSUPPORTED_DEVICE);
  EXPECT_EQ(
      outcome.trace,
      "agent ISA amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-\n"
      "  gfx90a:xnack+: rejected: built for a different xnack/sramecc mode than the agent's\n");
}

TEST(Selection, Gfx906WithSrameccOnGetsGfx9Generic) {
  const TestCatalog catalog = TestCatalog::FromExpansion("all", "generic");
  const Outcome outcome = SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-",
                                              "amdgcn-amd-amdhsa--gfx9-generic:xnack-"});
  EXPECT_EQ(outcome.target, "gfx9-generic");
}

TEST(Selection, GenericWithTheAgentsXnackModeBeatsAny) {
  const TestCatalog catalog({"gfx9-generic", "gfx9-generic:xnack-"});
  EXPECT_EQ(SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx900:xnack-",
                                "amdgcn-amd-amdhsa--gfx9-generic:xnack-"})
                .target,
            "gfx9-generic:xnack-");
  EXPECT_EQ(SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx900:xnack+",
                                "amdgcn-amd-amdhsa--gfx9-generic:xnack+"})
                .target,
            "gfx9-generic");
}

TEST(Selection, AGenericVersionOlderThanTheMembershipIsRejected) {
  // A v6 object whose generic version field is 0 claims no family membership.
  TargetId id = Parse("gfx11-generic");
  testing::ElfSpec spec;
  spec.flags = CodeObjectFlags(id) & 0x00ffffff;
  spec.abi_version = 4;
  std::vector<CatalogInput> inputs = {
      {"gfx11-generic", "", 6, spec.flags, testing::BuildElf(spec)}};
  const std::vector<uint8_t> image = BuildCatalog(inputs, "{}").image;
  const Catalog catalog = *Catalog::Parse(image);
  const std::vector<TargetId> isas = {Parse("amdgcn-amd-amdhsa--gfx1100"),
                                      Parse("amdgcn-amd-amdhsa--gfx11-generic")};
  const Selection selection = Select(isas, catalog);
  EXPECT_FALSE(selection.ok());
  EXPECT_EQ(
      FormatTrace(selection, isas, catalog),
      "agent ISA amdgcn-amd-amdhsa--gfx1100\n"
      "  gfx11-generic: rejected: its generic version is older than the processor's membership\n"
      "agent ISA amdgcn-amd-amdhsa--gfx11-generic\n"
      "  (generic ISA: the HSA runtime can load gfx11-generic code objects)\n");
}

TEST(SelectionMessages, TraceExplainsTheGenericChoice) {
  const TestCatalog catalog = TestCatalog::FromExpansion("gfx110X-all", "generic");
  const Outcome outcome =
      SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx1103", "amdgcn-amd-amdhsa--gfx11-generic"});
  EXPECT_EQ(outcome.target, "gfx11-generic");
  EXPECT_EQ(outcome.trace,
            "agent ISA amdgcn-amd-amdhsa--gfx1103\n"
            "  gfx11-generic: selected\n"
            "agent ISA amdgcn-amd-amdhsa--gfx11-generic\n"
            "  (generic ISA: the HSA runtime can load gfx11-generic code objects)\n");
}

TEST(SelectionMessages, GenericOnlyOnAnOlderRocrNamesTheFix) {
  const TestCatalog catalog = TestCatalog::FromExpansion("gfx110X-all", "generic");
  const Outcome outcome = SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx1103"});
  EXPECT_EQ(outcome.code, ISAPACK_STATUS_ROCR_TOO_OLD);
  EXPECT_EQ(outcome.message,
            "this build's code objects for gfx1103 (Radeon 780M) are generic (gfx11-generic, code "
            "object v6), "
            "which needs ROCr >= 6.4, but this HSA runtime lists only amdgcn-amd-amdhsa--gfx1103; "
            "upgrade "
            "ROCm, leave retargeting on (unset ISAPACK_RETARGET) or rebuild with "
            "ISAPACK_CODE_OBJECT_MODE=exact");
  EXPECT_EQ(
      outcome.trace,
      "agent ISA amdgcn-amd-amdhsa--gfx1103\n"
      "  gfx11-generic: rejected: generic code object, but the agent's ISA list has no generic ISA "
      "(ROCr < 6.4 cannot load generic code objects)\n");
}

TEST(SelectionMessages, AnUncoveredDeviceGetsTheSelectorToRebuildWith) {
  const TestCatalog catalog = TestCatalog::FromExpansion("gfx110X-dgpu", "exact");
  const Outcome outcome =
      SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx1103", "amdgcn-amd-amdhsa--gfx11-generic"});
  EXPECT_EQ(outcome.code, ISAPACK_STATUS_UNSUPPORTED_DEVICE);
  EXPECT_EQ(outcome.message,
            "no code object in this build matches the GPU gfx1103 (Radeon 780M): the agent reports "
            "amdgcn-amd-amdhsa--gfx1103 amdgcn-amd-amdhsa--gfx11-generic; this build carries "
            "gfx1100 gfx1101 "
            "gfx1102; rebuild with ISAPACK_GPU_TARGETS including gfx110X-igpu or gfx11-generic");
}

TEST(SelectionMessages, CoveringSelectorsPreferTheSmallestFamily) {
  EXPECT_EQ(CoveringSelectors(*FindProcessor("gfx1103")), "gfx110X-igpu or gfx11-generic");
  EXPECT_EQ(CoveringSelectors(*FindProcessor("gfx1030")), "gfx103X-dgpu or gfx10-3-generic");
  EXPECT_EQ(CoveringSelectors(*FindProcessor("gfx90a")), "gfx90a-dcgpu");
  EXPECT_EQ(CoveringSelectors(*FindProcessor("gfx1013")), "gfx1013 or gfx10-1-generic");
  EXPECT_EQ(CoveringSelectors(*FindProcessor("gfx803")), "gfx803");
}

TEST(SelectionMessages, AListWithoutAProcessorIsaIsExplained) {
  const TestCatalog catalog({"gfx11-generic"});
  const Outcome outcome = SelectFor(catalog, {"amdgcn-amd-amdhsa--gfx11-generic"});
  EXPECT_EQ(outcome.code, ISAPACK_STATUS_UNSUPPORTED_DEVICE);
  EXPECT_EQ(outcome.message,
            "the agent reports no processor ISA (only amdgcn-amd-amdhsa--gfx11-generic); isapack "
            "cannot pick "
            "a code object for it");
}

}  // namespace
}  // namespace isapack
