// The machine's GPUs from a fake KFD topology and the installed ROCr from
// fake dpkg databases, ROCm trees and library directories.
#include "local_gpu.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>

namespace isapack::cli {
namespace {

namespace fs = std::filesystem;

// An empty directory for the running test: a fake / or /sys.
class LocalGpuTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = (fs::temp_directory_path() /
             ("isapack-local-gpu-" + std::to_string(getpid()) + "-" +
              testing::UnitTest::GetInstance()->current_test_info()->name()))
                .string();
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  void Write(const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(root_ + path).parent_path());
    std::ofstream(root_ + path) << text;
  }
  // A KFD node whose properties hold `gfx_target_version` among other lines.
  void Node(int number, unsigned gfx_target_version) {
    Write("/class/kfd/kfd/topology/nodes/" + std::to_string(number) + "/properties",
          "cpu_cores_count 0\nsimd_count 24\nhive_id 18446744073709551615\ngfx_target_version " +
              std::to_string(gfx_target_version) + "\nvendor_id 4098\n");
  }
  std::string Nodes() const { return root_ + "/class/kfd/kfd/topology/nodes"; }

  std::string root_;
};

TEST_F(LocalGpuTest, DetectsA780mFromItsKfdNodeAndSaysWhichNode) {
  Node(0, 0);
  Node(1, 110003);
  const Expected<std::vector<LocalGpu>> gpus = DetectLocalGpus(root_);
  ASSERT_TRUE(gpus.ok()) << gpus.error().message;
  ASSERT_EQ(gpus->size(), 1u);
  EXPECT_EQ((*gpus)[0].isa.ToString(), "gfx1103");
  EXPECT_EQ((*gpus)[0].isa.xnack, FeatureSetting::kAny);
  EXPECT_EQ((*gpus)[0].product, "Radeon 780M");
  EXPECT_EQ((*gpus)[0].source, "KFD topology " + Nodes() + "/1");
}

TEST_F(LocalGpuTest, ListsGpusInNumericNodeOrderWithTwoDigitSteppings) {
  Node(0, 0);
  Node(10, 90010);
  Node(2, 100300);
  const Expected<std::vector<LocalGpu>> gpus = DetectLocalGpus(root_);
  ASSERT_TRUE(gpus.ok()) << gpus.error().message;
  ASSERT_EQ(gpus->size(), 2u);
  EXPECT_EQ((*gpus)[0].isa.ToString(), "gfx1030");
  EXPECT_EQ((*gpus)[0].source, "KFD topology " + Nodes() + "/2");
  EXPECT_EQ((*gpus)[1].isa.ToString(), "gfx90a");
  EXPECT_EQ((*gpus)[1].product, "Instinct MI210");
}

TEST_F(LocalGpuTest, CpuOnlyTopologyIsAnErrorNamingTheMissingDriver) {
  Node(0, 0);
  const Expected<std::vector<LocalGpu>> gpus = DetectLocalGpus(root_);
  ASSERT_FALSE(gpus.ok());
  EXPECT_EQ(gpus.error().code, ISAPACK_STATUS_NO_DEVICE);
  EXPECT_EQ(gpus.error().message,
            "no GPU node in the KFD topology at " + Nodes() +
                " (1 node, a CPU): the amdgpu driver is not loaded or sees no GPU (no /dev/kfd); "
                "name the GPU instead (`isapack targets` lists every name)");
}

TEST_F(LocalGpuTest, MissingTopologyIsAnErrorNamingTheMissingDriver) {
  const Expected<std::vector<LocalGpu>> gpus = DetectLocalGpus(root_);
  ASSERT_FALSE(gpus.ok());
  EXPECT_EQ(gpus.error().code, ISAPACK_STATUS_NO_DEVICE);
  EXPECT_EQ(gpus.error().message,
            "no KFD topology at " + Nodes() +
                ": the amdgpu driver is not loaded (there is no /dev/kfd); name the GPU instead "
                "(`isapack targets` lists every name)");
}

TEST_F(LocalGpuTest, IsaVersionOutsideTheTargetTableIsNamed) {
  Node(1, 90999);
  const Expected<std::vector<LocalGpu>> gpus = DetectLocalGpus(root_);
  ASSERT_FALSE(gpus.ok());
  EXPECT_EQ(gpus.error().message,
            Nodes() +
                "/1: gfx_target_version 90999 is ISA 9.9.99, which isapack's target table does "
                "not have; a newer isapack may know it");
}

// dpkg's status file in the fake root, read through dpkg-query --root (built
// from two pieces: the installed test binary does not name dpkg's database).
const std::string kDpkgStatus = std::string("/var/lib/") + "dpkg/status";

TEST_F(LocalGpuTest, DebiansLibhsaRuntimePackage523IsRocr502) {
  Write(kDpkgStatus,
        "Package: hsa-rocr\nStatus: deinstall ok config-files\nVersion: 1.15.0.60400-47\n\n"
        "Package: libhsa-runtime64-1\nStatus: install ok installed\nSource: rocr-runtime\n"
        "Version: 5.2.3-3\n");
  const RocrVersion rocr = InstalledRocr(root_);
  EXPECT_EQ(rocr.version, 502u);
  EXPECT_EQ(rocr.text, "5.2.3");
  EXPECT_EQ(rocr.source, "dpkg: libhsa-runtime64-1 5.2.3-3");
}

TEST_F(LocalGpuTest, AmdsHsaRocrPackageCarriesTheRocmReleaseInItsVersion) {
  Write(kDpkgStatus,
        "Package: hsa-rocr\nStatus: install ok installed\nVersion: 1.15.0.60400-47~24.04\n");
  const RocrVersion rocr = InstalledRocr(root_);
  EXPECT_EQ(rocr.version, 604u);
  EXPECT_EQ(rocr.text, "6.4.0");
  EXPECT_EQ(rocr.source,
            "dpkg: hsa-rocr 1.15.0.60400-47~24.04 (ROCm 6.4.0 in the library version)");
}

TEST_F(LocalGpuTest, RocmInfoVersionFileGivesTheRelease) {
  Write("/opt/rocm/.info/version", "6.4.1-120\n");
  const RocrVersion rocr = InstalledRocr(root_);
  EXPECT_EQ(rocr.version, 604u);
  EXPECT_EQ(rocr.text, "6.4.1");
  EXPECT_EQ(rocr.source, root_ + "/opt/rocm/.info/version: 6.4.1-120");
}

TEST_F(LocalGpuTest, LibraryFileNameIsTheLastResort) {
  Write("/usr/lib64/libhsa-runtime64.so.1.14.0", "");
  const RocrVersion rocr = InstalledRocr(root_);
  EXPECT_EQ(rocr.version, 602u);
  EXPECT_EQ(rocr.text, "6.2");
  EXPECT_EQ(rocr.source, root_ +
                             "/usr/lib64/libhsa-runtime64.so.1.14.0 (ROCr library 1.14 first "
                             "ships with ROCm 6.2)");
}

TEST_F(LocalGpuTest, NothingInstalledIsVersionZeroSayingWhereItLooked) {
  const RocrVersion rocr = InstalledRocr(root_);
  EXPECT_EQ(rocr.version, 0u);
  EXPECT_EQ(rocr.text, "");
  EXPECT_EQ(rocr.source, "no ROCr found: no libhsa-runtime64-1 or hsa-rocr package, no " + root_ +
                             "/opt/rocm/.info/version, no libhsa-runtime64.so.1.X.Y in /usr/lib*, "
                             "/opt/rocm/lib");
}

TEST(RocrFromLibraryName, AmdBuildsNameTheRocmReleaseInThePatch) {
  const RocrVersion rocr = RocrFromLibraryName("/opt/rocm/lib/libhsa-runtime64.so.1.18.70201");
  EXPECT_EQ(rocr.version, 702u);
  EXPECT_EQ(rocr.text, "7.2.1");
}

TEST(RocrFromLibraryName, SourceBuildsAreReadFromTheLibraryMinor) {
  EXPECT_EQ(RocrFromLibraryName("libhsa-runtime64.so.1.5.0").version, 500u);  // Debian 12
  EXPECT_EQ(RocrFromLibraryName("libhsa-runtime64.so.1.12.0").version, 600u);
  EXPECT_EQ(RocrFromLibraryName("libhsa-runtime64.so.1.15.0").version, 604u);
  const RocrVersion newer = RocrFromLibraryName("libhsa-runtime64.so.1.16.0");
  EXPECT_EQ(newer.version, 604u);
  EXPECT_EQ(newer.source, "libhsa-runtime64.so.1.16.0 (ROCr library 1.16 is newer than ROCm 6.4)");
}

TEST(RocrFromLibraryName, NamesWithoutAVersionSayNothing) {
  EXPECT_EQ(RocrFromLibraryName("libhsa-runtime64.so.1").version, 0u);
  EXPECT_EQ(RocrFromLibraryName("libhsa-runtime64.so.1.2.0").version, 0u);
  EXPECT_EQ(RocrFromLibraryName("libamdhip64.so.6.4.60400").version, 0u);
}

}  // namespace
}  // namespace isapack::cli
