// A project's own kernels (tests/toolkit: saxpy, a sum, 3-D grid IDs),
// built with isapack_add_device_library for 'gfx110X-all;gfx90a', loaded
// from the catalog linked into this program, looked up by name and
// dispatched through libisapack's C API — on isapack's SIMULATED HSA
// runtime (a test double: the kernels run as their host build on the CPU;
// no GPU is involved).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "isapack_toolkit_kernels.h"
#include "isapack_toolkit_prebuilt.h"
#include "kernels.h"
#include "support/simulated_runtime.h"

namespace {

using isapack::testing::LiveHsaObjects;
using isapack::testing::Result;
using isapack::testing::SimulatedHsaPath;
using isapack::testing::Take;
#define ASSERT_OK ISAPACK_ASSERT_OK

// One simulated GPU; the host kernel library listed unless `host_kernels`
// is false.
class Toolkit : public ::testing::Test {
 protected:
  void Start(const char* agent, bool host_kernels = true) {
    setenv("ISAPACK_SIMULATED_HSA_AGENTS", agent, 1);
    setenv("ISAPACK_SIMULATED_HSA_ROCR", "6.4", 1);
    setenv("ISAPACK_SIMULATED_HSA_HOST_KERNELS", host_kernels ? ISAPACK_TOOLKIT_HOST_KERNELS : "",
           1);
    isapack_device_options_t options;
    isapack_device_options_init(&options);
    options.libhsa_path = SimulatedHsaPath().c_str();
    ASSERT_OK(isapack_device_create(&options, &device_));
    ASSERT_OK(isapack_toolkit_kernels_catalog_open(&catalog_));
  }
  void TearDown() override {
    isapack_catalog_close(catalog_);
    isapack_device_destroy(device_);
    EXPECT_EQ(LiveHsaObjects(), 0u);
    unsetenv("ISAPACK_SIMULATED_HSA_AGENTS");
    unsetenv("ISAPACK_SIMULATED_HSA_ROCR");
    unsetenv("ISAPACK_SIMULATED_HSA_HOST_KERNELS");
  }
  isapack_kernel_t Kernel(const char* name) {
    isapack_kernel_t kernel = nullptr;
    const Result result = Take(isapack_executable_kernel(executable_, name, &kernel));
    EXPECT_EQ(result.code, ISAPACK_STATUS_OK) << result.message;
    return kernel;
  }
  template <typename T>
  T* Alloc(size_t count) {
    void* ptr = nullptr;
    const Result result =
        Take(isapack_device_alloc(device_, count * sizeof(T), ISAPACK_MEMORY_HOST_VISIBLE, &ptr));
    EXPECT_EQ(result.code, ISAPACK_STATUS_OK) << result.message;
    return static_cast<T*>(ptr);
  }
  template <typename Args>
  isapack_dispatch_t Dispatch(const Args& args, uint32_t grid, uint16_t workgroup) {
    isapack_dispatch_t dispatch;
    isapack_dispatch_init(&dispatch);
    dispatch.grid_size[0] = grid;
    dispatch.workgroup_size[0] = workgroup;
    dispatch.kernarg = &args;
    dispatch.kernarg_size = sizeof(args);
    return dispatch;
  }

  isapack_device_t device_ = nullptr;
  isapack_catalog_t catalog_ = nullptr;
  isapack_executable_t executable_ = nullptr;
};

TEST(ToolkitBuild, TheRecordNamesTheLibraryAndTheCatalogHoldsItsTwoCodeObjects) {
  std::ifstream in(ISAPACK_TOOLKIT_RECORD);
  ASSERT_TRUE(in) << ISAPACK_TOOLKIT_RECORD;
  const nlohmann::json record = nlohmann::json::parse(in);
  EXPECT_EQ(record.at("library"), "isapack_toolkit_kernels");
  EXPECT_EQ(record.at("selectors"), nlohmann::json({"gfx110X-all", "gfx90a"}));
  EXPECT_EQ(record.at("selectors_from"),
            "GPU_TARGETS of isapack_add_device_library(isapack_toolkit_kernels)");
  isapack_catalog_t catalog = nullptr;
  ASSERT_OK(isapack_toolkit_kernels_catalog_open(&catalog));
  ASSERT_OK(isapack_catalog_verify(catalog));
  const bool generic = record.at("mode") == "generic";
  ASSERT_EQ(isapack_catalog_size(catalog), generic ? 2u : 5u);
  std::vector<std::string> targets;
  for (size_t i = 0; i < isapack_catalog_size(catalog); ++i) {
    isapack_catalog_entry_info_t info;
    ASSERT_OK(isapack_catalog_describe(catalog, i, &info));
    targets.push_back(info.target_id);
  }
  const std::vector<std::string> expected =
      generic ? std::vector<std::string>{"gfx90a", "gfx11-generic"}
              : std::vector<std::string>{"gfx90a", "gfx1100", "gfx1101", "gfx1102", "gfx1103"};
  EXPECT_EQ(targets, expected);
  EXPECT_EQ(nlohmann::json::parse(isapack_catalog_build_info_json(catalog)), record);
  isapack_catalog_close(catalog);
}

TEST_F(Toolkit, SaxpyAndTheSumComputeEveryValueOnASimulatedGfx1103) {
  Start("gfx1103");
  ASSERT_OK(isapack_device_load(device_, catalog_, &executable_));
  isapack_executable_info_t info;
  ASSERT_OK(isapack_executable_info(executable_, &info));
  ASSERT_EQ(info.kernel_count, 3u);
  isapack_kernel_info_t saxpy_info;
  isapack_kernel_t saxpy = Kernel("saxpy");
  ASSERT_OK(isapack_kernel_info(saxpy, &saxpy_info));
  EXPECT_EQ(saxpy_info.kernarg_size, sizeof(saxpy_args_t));

  constexpr uint32_t kN = 1000;
  float* x = Alloc<float>(kN);
  float* y = Alloc<float>(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  const saxpy_args_t args{reinterpret_cast<uintptr_t>(x), reinterpret_cast<uintptr_t>(y), 2.0f, kN};
  isapack_dispatch_t dispatch = Dispatch(args, kN, 64);  // 16 workgroups, the last partial
  ASSERT_OK(isapack_device_dispatch(device_, saxpy, &dispatch));
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(y[i], 2.0f * static_cast<float>(i) + 1.0f) << i;

  uint32_t* values = Alloc<uint32_t>(kN);
  uint64_t* sum = Alloc<uint64_t>(1);
  for (uint32_t i = 0; i < kN; ++i) values[i] = i * 3 + 1;
  *sum = 0;
  const sum_args_t sum_args{reinterpret_cast<uintptr_t>(values), reinterpret_cast<uintptr_t>(sum),
                            kN, 0};
  isapack_dispatch_t reduce = Dispatch(sum_args, 256, 64);  // fewer work items than values
  isapack_completion_t completion = nullptr;
  ASSERT_OK(isapack_device_dispatch_async(device_, Kernel("sum_u32"), &reduce, &completion));
  ASSERT_OK(isapack_completion_wait(completion, 0));
  isapack_completion_release(completion);
  EXPECT_EQ(*sum, uint64_t{3} * kN * (kN - 1) / 2 + kN);
  ASSERT_OK(isapack_executable_unload(executable_));
}

// The same kernels, imported prebuilt from a .hip_fatbin (an uncompressed
// bundle for gfx90a, compressed bundles for the rest) into a library for
// gfx110X-all: the gfx11 objects are kept, gfx90a is left out and recorded.
TEST_F(Toolkit, PrebuiltBundlesKeepWhatTheSelectorsCoverAndTheirSaxpyRuns) {
  Start("gfx1103");
  isapack_catalog_t prebuilt = nullptr;
  ASSERT_OK(isapack_toolkit_prebuilt_catalog_open(&prebuilt));
  ASSERT_OK(isapack_catalog_verify(prebuilt));
  const nlohmann::json info = nlohmann::json::parse(isapack_catalog_build_info_json(prebuilt));
  const bool generic = info.at("mode") == "generic";
  ASSERT_EQ(isapack_catalog_size(prebuilt), generic ? 1u : 4u);
  isapack_catalog_entry_info_t entry;
  ASSERT_OK(isapack_catalog_describe(prebuilt, 0, &entry));
  EXPECT_STREQ(entry.target_id, generic ? "gfx11-generic" : "gfx1100");
  EXPECT_STREQ(entry.covers, generic ? "gfx1100 gfx1101 gfx1102 gfx1103" : "gfx1100");
  ASSERT_EQ(info.at("prebuilt_left_out").size(), 1u);
  EXPECT_EQ(info.at("prebuilt_left_out")[0].at("target_id"), "gfx90a");
  EXPECT_EQ(info.at("prebuilt").size(), generic ? 1u : 4u);

  ASSERT_OK(isapack_device_load(device_, prebuilt, &executable_));
  isapack_catalog_close(prebuilt);
  constexpr uint32_t kN = 300;
  float* x = Alloc<float>(kN);
  float* y = Alloc<float>(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    x[i] = 0.5f * static_cast<float>(i);
    y[i] = -1.0f;
  }
  const saxpy_args_t args{reinterpret_cast<uintptr_t>(x), reinterpret_cast<uintptr_t>(y), 4.0f, kN};
  isapack_dispatch_t dispatch = Dispatch(args, kN, 32);
  ASSERT_OK(isapack_device_dispatch(device_, Kernel("saxpy"), &dispatch));
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(y[i], 2.0f * static_cast<float>(i) - 1.0f) << i;
}

TEST_F(Toolkit, AThreeDimensionalDispatchRunsEveryWorkItemOnce) {
  Start("gfx90a:xnack-");
  ASSERT_OK(isapack_device_load(device_, catalog_, &executable_));
  isapack_executable_info_t info;
  ASSERT_OK(isapack_executable_info(executable_, &info));
  EXPECT_STREQ(info.code_object, "gfx90a");
  constexpr uint32_t kX = 7, kY = 5, kZ = 3;
  uint32_t* ids = Alloc<uint32_t>(kX * kY * kZ * 3);
  std::memset(ids, 0xff, kX * kY * kZ * 3 * sizeof(uint32_t));
  const grid_ids_args_t args{reinterpret_cast<uintptr_t>(ids)};
  isapack_dispatch_t dispatch = Dispatch(args, kX, 4);
  dispatch.grid_size[1] = kY;
  dispatch.grid_size[2] = kZ;
  dispatch.workgroup_size[1] = 2;
  dispatch.workgroup_size[2] = 2;
  ASSERT_OK(isapack_device_dispatch(device_, Kernel("grid_ids"), &dispatch));
  for (uint32_t z = 0; z < kZ; ++z) {
    for (uint32_t y = 0; y < kY; ++y) {
      for (uint32_t x = 0; x < kX; ++x) {
        const uint32_t* id = &ids[((z * kY + y) * kX + x) * 3];
        ASSERT_EQ(id[0], x);
        ASSERT_EQ(id[1], y);
        ASSERT_EQ(id[2], z);
      }
    }
  }
}

TEST_F(Toolkit, AGpuTheLibraryDoesNotCoverGetsTheSelectorThatWould) {
  Start("gfx906");
  const Result result = Take(isapack_device_load(device_, catalog_, &executable_));
  EXPECT_EQ(result.code, ISAPACK_STATUS_UNSUPPORTED_DEVICE);
  const std::string carries =
      nlohmann::json::parse(isapack_catalog_build_info_json(catalog_)).at("mode") == "generic"
          ? "gfx90a gfx11-generic"
          : "gfx90a gfx1100 gfx1101 gfx1102 gfx1103";
  EXPECT_EQ(result.message,
            "no code object in catalog isapack_toolkit_kernels matches the GPU gfx906 (Radeon VII "
            "(simulated)): the agent reports amdgcn-amd-amdhsa--gfx906:sramecc-:xnack- "
            "amdgcn-amd-amdhsa--gfx9-generic:xnack-; catalog isapack_toolkit_kernels carries " +
                carries +
                "; rebuild with ISAPACK_GPU_TARGETS including gfx906-dgpu or gfx9-generic");
  EXPECT_EQ(executable_, nullptr);
}

TEST_F(Toolkit, AKernelWithoutAHostBuildIsAnErrorNamingTheFixOnTheSimulatedRuntime) {
  Start("gfx1103", /*host_kernels=*/false);
  ASSERT_OK(isapack_device_load(device_, catalog_, &executable_));
  isapack_kernel_t kernel = nullptr;
  const Result result = Take(isapack_executable_kernel(executable_, "saxpy", &kernel));
  EXPECT_EQ(result.code, ISAPACK_STATUS_NOT_FOUND);
  EXPECT_EQ(result.message,
            "the simulated HSA runtime has no host build of kernel 'saxpy' (no "
            "isapack_host_kernel_saxpy of host kernel ABI 1 in the program, its libraries or "
            "ISAPACK_SIMULATED_HSA_HOST_KERNELS): build the kernel sources for the host "
            "(isapack_add_device_library(... HOST_LIBRARY)) and link that library into the "
            "program, or list it in ISAPACK_SIMULATED_HSA_HOST_KERNELS");
}

}  // namespace
