#include "gpu_names.h"

#include <gtest/gtest.h>

namespace isapack {
namespace {

TEST(GpuNames, FindsAProcessorByGfxNameInAnyCase) {
  EXPECT_EQ(FindProcessorByAnyName("gfx1103"), FindProcessor("gfx1103"));
  EXPECT_EQ(FindProcessorByAnyName("GFX1103"), FindProcessor("gfx1103"));
}

TEST(GpuNames, FindsAProcessorByTargetIdAndIsaName) {
  EXPECT_EQ(FindProcessorByAnyName("gfx90a:xnack+"), FindProcessor("gfx90a"));
  EXPECT_EQ(FindProcessorByAnyName("amdgcn-amd-amdhsa--gfx1030"), FindProcessor("gfx1030"));
}

TEST(GpuNames, FindsAProcessorByProductNameIgnoringCaseSpacesAndTheAmdPrefix) {
  EXPECT_EQ(FindProcessorByAnyName("Radeon 780M"), FindProcessor("gfx1103"));
  EXPECT_EQ(FindProcessorByAnyName("  AMD   radeon 780m "), FindProcessor("gfx1103"));
  EXPECT_EQ(FindProcessorByAnyName("amd Radeon RX 7900 XTX"), FindProcessor("gfx1100"));
  EXPECT_EQ(FindProcessorByAnyName("Instinct MI300X"), FindProcessor("gfx942"));
}

TEST(GpuNames, FindsAProcessorByTheNameTheRockRegistersIt) {
  EXPECT_EQ(FindProcessorByAnyName("AMD Radeon 780M Laptop iGPU"), FindProcessor("gfx1103"));
  EXPECT_EQ(FindProcessorByAnyName("AMD Strix Halo iGPU"), FindProcessor("gfx1151"));
  EXPECT_EQ(FindProcessorByAnyName("Strix Point"), FindProcessor("gfx1150"));
  EXPECT_EQ(FindProcessorByAnyName("AMD Radeon 680M Laptop iGPU"), FindProcessor("gfx1035"));
}

TEST(GpuNames, EveryProductNameFindsItsOwnProcessor) {
  for (const ProcessorInfo& processor : Processors()) {
    for (const std::string_view product : processor.products) {
      EXPECT_EQ(FindProcessorByAnyName(product), &processor) << product;
    }
  }
}

TEST(GpuNames, UnknownNamesAndGenericTargetsFindNoProcessor) {
  EXPECT_EQ(FindProcessorByAnyName("Radeon 78OM"), nullptr);
  EXPECT_EQ(FindProcessorByAnyName("gfx11-generic"), nullptr);
  EXPECT_EQ(FindProcessorByAnyName(""), nullptr);
}

TEST(GpuNames, ResolveKeepsTheFeaturesOfATargetId) {
  const Expected<TargetId> target = ResolveGpuName("gfx90a:xnack+");
  ASSERT_TRUE(target.ok());
  EXPECT_EQ(target->ToString(), "gfx90a:xnack+");
}

TEST(GpuNames, ResolveGivesAProductNameEveryFeatureAny) {
  const Expected<TargetId> target = ResolveGpuName("Instinct MI210");
  ASSERT_TRUE(target.ok());
  EXPECT_EQ(target->processor, FindProcessor("gfx90a"));
  EXPECT_EQ(target->xnack, FeatureSetting::kAny);
  EXPECT_EQ(target->sramecc, FeatureSetting::kAny);
}

TEST(GpuNames, ResolveRefusesAnUnknownNameWithTheSuggestion) {
  const Expected<TargetId> target = ResolveGpuName("Radeon 78OM");
  ASSERT_FALSE(target.ok());
  EXPECT_EQ(target.error().code, ISAPACK_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(target.error().message,
            "unknown GPU 'Radeon 78OM': did you mean 'Radeon 780M' (gfx1103)? `isapack targets` "
            "lists every name");
}

TEST(GpuNames, SuggestsTheClosestProductNameWithItsProcessor) {
  EXPECT_EQ(DescribeUnknownGpu("Radeon 78OM"),
            "unknown GPU 'Radeon 78OM': did you mean 'Radeon 780M' (gfx1103)? `isapack targets` "
            "lists every name");
  EXPECT_EQ(DescribeUnknownGpu("AMD Radeon RX 7900XTX"),
            "unknown GPU 'AMD Radeon RX 7900XTX': did you mean 'Radeon RX 7900 XTX' (gfx1100)? "
            "`isapack targets` lists every name");
}

TEST(GpuNames, SuggestsTheClosestGfxNameAlone) {
  EXPECT_EQ(DescribeUnknownGpu("gfx1105"),
            "unknown GPU 'gfx1105': did you mean 'gfx1100'? `isapack targets` lists every name");
  EXPECT_EQ(DescribeUnknownGpu("gxf1030"),
            "unknown GPU 'gxf1030': did you mean 'gfx1030'? `isapack targets` lists every name");
}

TEST(GpuNames, SuggestsNothingWhenNoNameIsClose) {
  EXPECT_EQ(DescribeUnknownGpu("Tesla V100"),
            "unknown GPU 'Tesla V100': `isapack targets` lists every name");
}

TEST(GpuNames, NamesTheProcessorsOfAGenericTarget) {
  EXPECT_EQ(DescribeUnknownGpu("gfx10-3-generic"),
            "'gfx10-3-generic' is a generic target, not a GPU: name one of its processors (gfx1030 "
            "gfx1031 gfx1032 gfx1033 gfx1034 gfx1035 gfx1036)");
}

}  // namespace
}  // namespace isapack
