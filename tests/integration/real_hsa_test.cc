// libisapack against the real HSA runtime Debian ships (libhsa-runtime64-1,
// ROCr 5.2.3), loaded by the system loader. On a machine without an AMD GPU
// hsa_init fails with 0x1008: device creation must say so clearly, every
// time, without crashing or leaking. On a machine with /dev/kfd these tests
// are skipped (the GPU smoke tests cover it).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "isapack/isapack.h"
#include "support/system_hsa.h"

namespace {

class RealHsa : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access("/dev/kfd", F_OK) == 0)
      GTEST_SKIP() << "/dev/kfd exists: this machine has an AMD GPU driver";
    unsetenv("ISAPACK_LIBHSA_PATH");
    ASSERT_FALSE(isapack::testing::SystemHsaRuntimeMissing())
        << "no libhsa-runtime64 is installed: apt-get install libhsa-runtime64-1 (Fedora: dnf "
           "install rocm-runtime)";
  }
};

constexpr const char* kNoGpu =
    "no AMD GPU kernel driver: /dev/kfd is missing (hsa_init failed: "
    "HSA_STATUS_ERROR_OUT_OF_RESOURCES (0x1008): "
    "The runtime failed to allocate the necessary resources.";

TEST_F(RealHsa, DeviceCreationSaysThereIsNoGpuDriver) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    isapack_device_t device = nullptr;
    isapack_status_t status = isapack_device_create(nullptr, &device);
    EXPECT_EQ(device, nullptr);
    EXPECT_EQ(isapack_status_code(status), ISAPACK_STATUS_NO_DEVICE);
    const std::string message = isapack_status_message(status);
    EXPECT_EQ(message.rfind(kNoGpu, 0), 0u) << message;
    EXPECT_NE(message.find("Run on a machine with an AMD GPU and the amdgpu kernel driver loaded"),
              std::string::npos);
    isapack_status_free(status);
  }
}

TEST_F(RealHsa, ListingAgentsSaysThereIsNoGpuDriver) {
  isapack_agent_list_t list = nullptr;
  isapack_status_t status = isapack_agent_list_create(nullptr, &list);
  EXPECT_EQ(list, nullptr);
  EXPECT_EQ(isapack_status_code(status), ISAPACK_STATUS_NO_DEVICE);
  EXPECT_EQ(std::string(isapack_status_message(status)).rfind(kNoGpu, 0), 0u);
  isapack_status_free(status);
}

}  // namespace
