// The coverage rule (core/src/coverage.h): exact, generic, retargeted
// generic and not covered, with the hints users act on.
#include "coverage.h"

#include "target_table.h"

#include <gtest/gtest.h>

#include <vector>

namespace isapack {
namespace {

TargetId Id(std::string_view text) {
  TargetId id;
  EXPECT_EQ(ParseTargetId(text, &id).error, TargetIdError::kOk) << text;
  return id;
}

CoverageObject Object(std::string_view text, unsigned generic_version = 0,
                      bool retargetable = false) {
  return {Id(text), generic_version, retargetable};
}

constexpr unsigned kRocr52 = 502;
constexpr unsigned kRocr64 = 604;

TEST(Coverage, AnExactObjectCoversItsProcessorOnEveryRocr) {
  const std::vector<CoverageObject> objects = {Object("gfx1030"), Object("gfx1100")};
  const CoverageAnswer answer = CoverProcessor(Id("gfx1100"), objects, kRocr52);
  EXPECT_EQ(answer.way, CoverageWay::kExact);
  EXPECT_EQ(answer.object, "gfx1100");
  EXPECT_EQ(answer.hint, "");
}

TEST(Coverage, AGenericObjectCoversAFamilyMemberFromRocr64) {
  const std::vector<CoverageObject> objects = {Object("gfx10-3-generic", 1), Object("gfx1030")};
  const CoverageAnswer answer = CoverProcessor(Id("gfx1036"), objects, kRocr64);
  EXPECT_EQ(answer.way, CoverageWay::kGeneric);
  EXPECT_EQ(answer.object, "gfx10-3-generic");
}

TEST(Coverage, AGenericObjectOfAHipBundleNeedsRocr64) {
  const std::vector<CoverageObject> objects = {Object("gfx10-3-generic", 1), Object("gfx1030")};
  const CoverageAnswer answer = CoverProcessor(Id("gfx1036"), objects, kRocr52);
  EXPECT_EQ(answer.way, CoverageWay::kNotCovered);
  EXPECT_EQ(answer.object, "");
  EXPECT_EQ(answer.hint, "needs ROCr >= 6.4 to load the generic code object gfx10-3-generic");
}

TEST(Coverage, AGenericObjectOfAnIsapackCatalogIsRetargetedOnAnOldRocr) {
  const std::vector<CoverageObject> objects = {Object("gfx10-3-generic", 1, true)};
  const CoverageAnswer answer = CoverProcessor(Id("gfx1036"), objects, kRocr52);
  EXPECT_EQ(answer.way, CoverageWay::kGenericRetargeted);
  EXPECT_EQ(answer.object, "gfx10-3-generic");
}

TEST(Coverage, ExactBeatsGeneric) {
  const std::vector<CoverageObject> objects = {Object("gfx11-generic", 1), Object("gfx1103")};
  const CoverageAnswer answer = CoverProcessor(Id("gfx1103"), objects, kRocr64);
  EXPECT_EQ(answer.way, CoverageWay::kExact);
  EXPECT_EQ(answer.object, "gfx1103");
}

TEST(Coverage, ASiblingsExactObjectGivesTheOverrideHint) {
  const std::vector<CoverageObject> objects = {Object("gfx1030")};
  const CoverageAnswer answer = CoverProcessor(Id("gfx1031"), objects, kRocr64);
  EXPECT_EQ(answer.way, CoverageWay::kNotCovered);
  EXPECT_EQ(answer.hint,
            "only gfx1030 inside; would need HSA_OVERRIDE_GFX_VERSION=10.3.0 or an ISA-fallback "
            "patch");
}

TEST(Coverage, AnotherFamilysObjectGivesNoHint) {
  const std::vector<CoverageObject> objects = {Object("gfx1100"), Object("gfx11-generic", 1)};
  const CoverageAnswer answer = CoverProcessor(Id("gfx1030"), objects, kRocr64);
  EXPECT_EQ(answer.way, CoverageWay::kNotCovered);
  EXPECT_EQ(answer.hint, "");
}

TEST(Coverage, AGenericObjectOlderThanTheMembershipDoesNotCover) {
  // gfx1103 joined gfx11-generic at generic version 1 (the target table);
  // an object without a generic version (0) predates every membership.
  ASSERT_EQ(FindProcessor("gfx1103")->generic_version, 1);
  const std::vector<CoverageObject> unversioned = {Object("gfx11-generic", 0)};
  EXPECT_EQ(CoverProcessor(Id("gfx1103"), unversioned, kRocr64).way, CoverageWay::kNotCovered);
  const std::vector<CoverageObject> versioned = {Object("gfx11-generic", 1)};
  EXPECT_EQ(CoverProcessor(Id("gfx1103"), versioned, kRocr64).way, CoverageWay::kGeneric);
}

TEST(Coverage, AnExplicitXnackObjectCoversOnlyAGpuInThatMode) {
  const std::vector<CoverageObject> objects = {Object("gfx90a:xnack+")};
  EXPECT_EQ(CoverProcessor(Id("gfx90a:xnack+"), objects, kRocr64).way, CoverageWay::kExact);
  EXPECT_EQ(CoverProcessor(Id("gfx90a:xnack-"), objects, kRocr64).way, CoverageWay::kNotCovered);
}

TEST(Coverage, TheMoreExplicitCompatibleObjectIsNamed) {
  const std::vector<CoverageObject> objects = {Object("gfx90a"), Object("gfx90a:xnack-")};
  const CoverageAnswer answer = CoverProcessor(Id("gfx90a:xnack-"), objects, kRocr64);
  EXPECT_EQ(answer.way, CoverageWay::kExact);
  EXPECT_EQ(answer.object, "gfx90a:xnack-");
}

TEST(Coverage, WaysHaveStableNames) {
  EXPECT_EQ(ToString(CoverageWay::kExact), "exact");
  EXPECT_EQ(ToString(CoverageWay::kGeneric), "generic");
  EXPECT_EQ(ToString(CoverageWay::kGenericRetargeted), "generic-retargeted");
  EXPECT_EQ(ToString(CoverageWay::kNotCovered), "not-covered");
}

}  // namespace
}  // namespace isapack
