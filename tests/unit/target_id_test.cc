// Target IDs and HSA ISA names: a table of valid and invalid strings with
// the exact canonical form or error.
#include "target_id.h"

#include <gtest/gtest.h>

#include <string>

namespace isapack {
namespace {

struct ValidCase {
  const char* input;
  const char* canonical;
  bool generic;
};

TEST(TargetId, ParsesAndFormatsValidTargetIds) {
  const ValidCase cases[] = {
      {"gfx1100", "gfx1100", false},
      {"gfx1103", "gfx1103", false},
      {"gfx90a:xnack+", "gfx90a:xnack+", false},
      {"gfx90a:xnack-", "gfx90a:xnack-", false},
      {"gfx942:sramecc+:xnack-", "gfx942:sramecc+:xnack-", false},
      {"gfx942:xnack-:sramecc+", "gfx942:sramecc+:xnack-", false},
      {"gfx906:sramecc-", "gfx906:sramecc-", false},
      {"gfx11-generic", "gfx11-generic", true},
      {"gfx9-generic:xnack-", "gfx9-generic:xnack-", true},
      {"gfx9-4-generic:sramecc+:xnack+", "gfx9-4-generic:sramecc+:xnack+", true},
      {"gfx1250:sramecc+", "gfx1250:sramecc+", false},
      {"gfx600", "gfx600", false},
  };
  for (const ValidCase& c : cases) {
    TargetId id;
    const TargetIdParse parse = ParseTargetId(c.input, &id);
    ASSERT_EQ(parse.error, TargetIdError::kOk) << c.input;
    EXPECT_EQ(id.ToString(), c.canonical) << c.input;
    EXPECT_EQ(id.is_generic(), c.generic) << c.input;
    EXPECT_EQ(id.ToIsaName(), std::string("amdgcn-amd-amdhsa--") + c.canonical);
  }
}

struct InvalidCase {
  const char* input;
  TargetIdError error;
  const char* message;
};

TEST(TargetId, RejectsInvalidTargetIdsWithExactMessages) {
  const InvalidCase cases[] = {
      {"", TargetIdError::kEmpty,
       "empty target ID: expected a processor such as gfx1100 or gfx90a:xnack+"},
      {"gfx1234", TargetIdError::kUnknownProcessor,
       "target ID 'gfx1234': unknown processor 'gfx1234'; `isapack targets` lists the processors "
       "isapack knows"},
      {"GFX1100", TargetIdError::kUnknownProcessor,
       "target ID 'GFX1100': unknown processor 'GFX1100'; `isapack targets` lists the processors "
       "isapack knows"},
      {"gfx110X-all", TargetIdError::kUnknownProcessor,
       "target ID 'gfx110X-all': unknown processor 'gfx110X-all'; `isapack targets` lists the "
       "processors isapack knows"},
      {"gfx90a:xnack", TargetIdError::kMalformedFeature,
       "target ID 'gfx90a:xnack': malformed target feature 'xnack'; features are sramecc+, "
       "sramecc-, xnack+ and xnack-"},
      {"gfx90a:", TargetIdError::kMalformedFeature,
       "target ID 'gfx90a:': malformed target feature ''; features are sramecc+, sramecc-, xnack+ "
       "and xnack-"},
      {"gfx90a:xnack*", TargetIdError::kMalformedFeature,
       "target ID 'gfx90a:xnack*': malformed target feature 'xnack*'; features are sramecc+, "
       "sramecc-, xnack+ and xnack-"},
      {"gfx90a:xnack+:xnack+", TargetIdError::kDuplicateFeature,
       "target ID 'gfx90a:xnack+:xnack+': target feature 'xnack' is given twice"},
      {"gfx1100:xnack+", TargetIdError::kUnsupportedFeature,
       "target ID 'gfx1100:xnack+': the processor has no xnack setting"},
      {"gfx11-generic:sramecc-", TargetIdError::kUnsupportedFeature,
       "target ID 'gfx11-generic:sramecc-': the processor has no sramecc setting"},
      {"gfx1250:xnack+", TargetIdError::kFeatureAlwaysOn,
       "target ID 'gfx1250:xnack+': xnack is always on for this processor and never part of its "
       "target ID"},
  };
  for (const InvalidCase& c : cases) {
    TargetId id;
    const TargetIdParse parse = ParseTargetId(c.input, &id);
    EXPECT_EQ(parse.error, c.error) << c.input;
    EXPECT_EQ(DescribeTargetIdError(c.input, parse), c.message) << c.input;
  }
}

TEST(IsaName, ParsesHsaIsaNamesAndBareTargetIds) {
  TargetId id;
  ASSERT_EQ(ParseIsaName("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", &id).error,
            TargetIdError::kOk);
  EXPECT_EQ(id.ToString(), "gfx90a:sramecc+:xnack-");
  ASSERT_EQ(ParseIsaName("amdgcn-amd-amdhsa--gfx11-generic", &id).error, TargetIdError::kOk);
  EXPECT_TRUE(id.is_generic());
  ASSERT_EQ(ParseIsaName("gfx1103", &id).error, TargetIdError::kOk);
  EXPECT_EQ(id.name(), "gfx1103");
}

TEST(IsaName, RejectsOtherTriples) {
  TargetId id;
  const TargetIdParse parse = ParseIsaName("amdgcn-amd-amdpal--gfx1100", &id);
  EXPECT_EQ(parse.error, TargetIdError::kNotAnIsaName);
  EXPECT_EQ(DescribeTargetIdError("amdgcn-amd-amdpal--gfx1100", parse),
            "ISA name 'amdgcn-amd-amdpal--gfx1100': expected amdgcn-amd-amdhsa--<target ID>, e.g. "
            "amdgcn-amd-amdhsa--gfx1100");
  EXPECT_EQ(ParseIsaName("gfx1100", &id, /*accept_bare=*/false).error,
            TargetIdError::kNotAnIsaName);
}

TEST(TargetId, FormatReportsTheLengthItNeedsAndTruncatesSafely) {
  TargetId id;
  ASSERT_EQ(ParseTargetId("gfx942:sramecc+:xnack-", &id).error, TargetIdError::kOk);
  EXPECT_EQ(id.Format(nullptr, 0), 22u);
  char small[8];
  EXPECT_EQ(id.Format(small, sizeof(small)), 22u);
  EXPECT_STREQ(small, "gfx942:");
}

TEST(FeatureCompatibility, FollowsRocrRules) {
  using F = FeatureSetting;
  EXPECT_TRUE(FeatureCompatible(F::kAny, F::kOn));
  EXPECT_TRUE(FeatureCompatible(F::kAny, F::kOff));
  EXPECT_TRUE(FeatureCompatible(F::kUnsupported, F::kOn));
  EXPECT_TRUE(FeatureCompatible(F::kOn, F::kOn));
  EXPECT_FALSE(FeatureCompatible(F::kOn, F::kOff));
  EXPECT_FALSE(FeatureCompatible(F::kOff, F::kOn));
  EXPECT_FALSE(FeatureCompatible(F::kOn, F::kAny));  // an unknown device mode is not "on"
}

}  // namespace
}  // namespace isapack
