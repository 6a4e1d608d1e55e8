// Loading libhsa-runtime64: where it comes from, and the message for every
// way that can fail. Also the diagnosis of an hsa_init failure.
#include "hsa_library.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/test_paths.h"

namespace isapack {
namespace {

std::string LoadError(const char* path) {
  auto library = HsaLibrary::Load(path);
  EXPECT_FALSE(library) << path;
  return library ? "" : library.error().message;
}

class HsaLibraryLoad : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("ISAPACK_LIBHSA_PATH");
    dir_ =
        std::filesystem::temp_directory_path() / ("isapack-hsa-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    unsetenv("ISAPACK_LIBHSA_PATH");
    std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
};

TEST_F(HsaLibraryLoad, AMissingPathIsNamed) {
  EXPECT_EQ(LoadError("/nonexistent/libhsa-runtime64.so.1"),
            "the device options' libhsa_path is '/nonexistent/libhsa-runtime64.so.1', which does "
            "not exist (No "
            "such file or directory); point it at libhsa-runtime64.so.1 or its directory");
}

TEST_F(HsaLibraryLoad, APathThatIsNotAFileIsRefused) {
  EXPECT_EQ(LoadError("/dev/null"),
            "the device options' libhsa_path is '/dev/null', which is neither a regular file nor a "
            "directory; "
            "point it at libhsa-runtime64.so.1 or its directory");
}

TEST_F(HsaLibraryLoad, ADirectoryWithoutTheLibraryListsWhatWasTried) {
  const std::string message = LoadError(dir_.c_str());
  const std::string tried =
      "cannot load the HSA runtime (libhsa-runtime64) through the device options' "
      "libhsa_path; tried:\n  " +
      dir_.string() + "/libhsa-runtime64.so.1: ";
  EXPECT_EQ(message.rfind(tried, 0), 0u) << message;
  EXPECT_NE(message.find("\n  " + dir_.string() + "/libhsa-runtime64.so: "), std::string::npos)
      << message;
  EXPECT_NE(
      message.find("\nInstall it (Debian/Ubuntu: libhsa-runtime64-1; Fedora: rocm-runtime) or set "
                   "ISAPACK_LIBHSA_PATH to the library or its directory"),
      std::string::npos);
}

TEST_F(HsaLibraryLoad, AFileThatIsNotALibraryIsRefused) {
  const std::string path = (dir_ / "libhsa-runtime64.so.1").string();
  std::ofstream(path) << "not a shared library\n";
  const std::string message = LoadError(path.c_str());
  EXPECT_EQ(
      message.rfind("cannot load the HSA runtime (libhsa-runtime64) through the device options' "
                    "libhsa_path; tried:\n  " +
                        path + ": ",
                    0),
      0u)
      << message;
}

TEST_F(HsaLibraryLoad, ALibraryWithoutTheHsaEntryPointsIsRefused) {
  const char* zlib = "/lib/x86_64-linux-gnu/libz.so.1";
  ASSERT_EQ(access(zlib, R_OK), 0) << zlib << " is not installed: apt-get install zlib1g";
  EXPECT_EQ(
      LoadError(zlib).rfind(std::string(zlib) +
                                " is not a usable HSA runtime: it lacks hsa_init, hsa_shut_down, "
                                "hsa_status_string, hsa_system_get_info, ",
                            0),
      0u);
}

TEST_F(HsaLibraryLoad, TheEnvironmentIsUsedWhenNoPathIsGiven) {
  setenv("ISAPACK_LIBHSA_PATH", "/nonexistent/dir", 1);
  EXPECT_EQ(LoadError(nullptr),
            "ISAPACK_LIBHSA_PATH is '/nonexistent/dir', which does not exist (No such file or "
            "directory); point it "
            "at libhsa-runtime64.so.1 or its directory");
  // An explicit path wins over the environment.
  auto library = HsaLibrary::Load(testing::TestPath("SIMULATED_HSA").c_str());
  ASSERT_TRUE(library) << library.error().message;
  EXPECT_FALSE((*library)->simulation().empty());
}

TEST_F(HsaLibraryLoad, TheSimulationIdentifiesItselfAndTheRealRuntimeDoesNot) {
  auto simulated = HsaLibrary::Load(testing::TestPath("SIMULATED_HSA").c_str());
  ASSERT_TRUE(simulated) << simulated.error().message;
  EXPECT_EQ((*simulated)->simulation(),
            "isapack simulated HSA runtime (a test double: kernels run as the host build of the "
            "device library "
            "on the CPU; no GPU is used)");
  EXPECT_EQ((*simulated)->path(), testing::TestPath("SIMULATED_HSA"));
  auto real = HsaLibrary::Load(nullptr);
  ASSERT_TRUE(real) << real.error().message << "\n(apt-get install libhsa-runtime64-1)";
  EXPECT_EQ((*real)->simulation(), "");
  EXPECT_NE((*real)->path().find("libhsa-runtime64.so"), std::string::npos) << (*real)->path();
}

TEST(HsaInitDiagnosis, NamesTheMissingDriver) {
  const Error error =
      DiagnoseInitFailure("HSA_STATUS_ERROR_OUT_OF_RESOURCES (0x1008): text", ENOENT);
  EXPECT_EQ(error.code, ISAPACK_STATUS_NO_DEVICE);
  EXPECT_EQ(
      error.message,
      "no AMD GPU kernel driver: /dev/kfd is missing (hsa_init failed: "
      "HSA_STATUS_ERROR_OUT_OF_RESOURCES "
      "(0x1008): text). Run on a machine with an AMD GPU and the amdgpu kernel driver loaded");
}

TEST(HsaInitDiagnosis, GivesTheGroupHintWhenKfdIsNotAccessible) {
  const Error error =
      DiagnoseInitFailure("HSA_STATUS_ERROR_OUT_OF_RESOURCES (0x1008): text", EACCES);
  EXPECT_EQ(error.code, ISAPACK_STATUS_PERMISSION_DENIED);
  EXPECT_EQ(error.message,
            "/dev/kfd exists but this user cannot open it read-write (hsa_init failed: "
            "HSA_STATUS_ERROR_OUT_OF_RESOURCES (0x1008): text). Add the user to the 'render' and "
            "'video' groups "
            "(sudo usermod -aG render,video $USER) and log in again");
}

TEST(HsaInitDiagnosis, PassesOtherFailuresThrough) {
  EXPECT_EQ(DiagnoseInitFailure("HSA_STATUS_ERROR (0x1000): text", 0).message,
            "hsa_init failed: HSA_STATUS_ERROR (0x1000): text");
  EXPECT_EQ(DiagnoseInitFailure("HSA_STATUS_ERROR (0x1000): text", 0).code,
            ISAPACK_STATUS_HSA_ERROR);
  EXPECT_EQ(DiagnoseInitFailure("x", EIO).message,
            "/dev/kfd cannot be opened (Input/output error; hsa_init failed: x)");
}

}  // namespace
}  // namespace isapack
