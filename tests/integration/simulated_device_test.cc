// Device creation end to end through libisapack's C API, on isapack's
// SIMULATED HSA runtime (tests/simulated_hsa, a test double: kernels run as
// the host build of the device library; no GPU is involved). Every result
// here is a simulation result, not a hardware result.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "isapack/isapack.h"

#include "support/simulated_runtime.h"

namespace {

using isapack::testing::LiveHsaObjects;
using isapack::testing::SimulatedHsaPath;
#define kSimulatedHsa SimulatedHsaPath().c_str()

// Sets the simulation's environment for one test; restores it afterwards.
class SimulatedHsa {
 public:
  explicit SimulatedHsa(const char* agents, const char* rocr = "6.4", const char* faults = "") {
    setenv("ISAPACK_SIMULATED_HSA_AGENTS", agents, 1);
    setenv("ISAPACK_SIMULATED_HSA_ROCR", rocr, 1);
    setenv("ISAPACK_SIMULATED_HSA_FAULTS", faults, 1);
  }
  ~SimulatedHsa() {
    unsetenv("ISAPACK_SIMULATED_HSA_AGENTS");
    unsetenv("ISAPACK_SIMULATED_HSA_ROCR");
    unsetenv("ISAPACK_SIMULATED_HSA_FAULTS");
  }
};

isapack_device_options_t Options(uint32_t timeout_ms = 0) {
  isapack_device_options_t options;
  isapack_device_options_init(&options);
  options.libhsa_path = kSimulatedHsa;
  options.dispatch_timeout_ms = timeout_ms;
  return options;
}

struct Created {
  isapack_device_t device = nullptr;
  isapack_status_code_t code = ISAPACK_STATUS_OK;
  std::string message;
};

Created Create(const isapack_device_options_t& options) {
  Created created;
  isapack_status_t status = isapack_device_create(&options, &created.device);
  created.code = isapack_status_code(status);
  created.message = isapack_status_message(status);
  isapack_status_free(status);
  return created;
}

std::string CodeObjectOf(isapack_device_t device) {
  isapack_device_info_t info;
  EXPECT_EQ(isapack_device_info(device, &info), nullptr);
  return info.code_object;
}

bool GenericBuild() {
  return nlohmann::json::parse(isapack_build_info_json()).at("mode").get<std::string>() ==
         "generic";
}

#define EXPECT_OK(call)                                             \
  do {                                                              \
    isapack_status_t status_ = (call);                              \
    EXPECT_EQ(status_, nullptr) << isapack_status_message(status_); \
    isapack_status_free(status_);                                   \
  } while (0)

// Fills and copies through the device and checks every byte.
void ExerciseFillAndCopy(isapack_device_t device) {
  constexpr size_t kSize = 64 * 1024;
  uint8_t* a = nullptr;
  uint8_t* b = nullptr;
  EXPECT_OK(isapack_device_alloc(device, kSize, ISAPACK_MEMORY_HOST_VISIBLE,
                                 reinterpret_cast<void**>(&a)));
  EXPECT_OK(isapack_device_alloc(device, kSize, ISAPACK_MEMORY_HOST_VISIBLE,
                                 reinterpret_cast<void**>(&b)));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  std::memset(a, 0xee, kSize);
  std::memset(b, 0xee, kSize);
  struct Case {
    size_t offset, length;
    uint64_t pattern;
    uint32_t width;
  };
  for (const Case& c :
       {Case{0, kSize, 0x5a, 1}, Case{3, 1000, 0xbeef, 2}, Case{17, 40000, 0x01234567, 4},
        Case{9, 12345, 0x0123456789abcdefull, 8}, Case{5, 0, 0x77, 1}}) {
    std::vector<uint8_t> expected(a, a + kSize);
    for (size_t i = 0; i < c.length; ++i)
      expected[c.offset + i] = static_cast<uint8_t>(c.pattern >> (8 * (i % c.width)));
    EXPECT_OK(isapack_device_fill(device, a + c.offset, c.length, c.pattern, c.width));
    EXPECT_EQ(std::memcmp(a, expected.data(), kSize), 0)
        << "fill at " << c.offset << " of " << c.length;
  }
  for (size_t src_offset : {0u, 1u, 16u}) {
    for (size_t dst_offset : {0u, 7u, 16u}) {
      std::vector<uint8_t> expected(b, b + kSize);
      std::memcpy(expected.data() + dst_offset, a + src_offset, 30000);
      EXPECT_OK(isapack_device_copy(device, b + dst_offset, a + src_offset, 30000));
      EXPECT_EQ(std::memcmp(b, expected.data(), kSize), 0) << src_offset << " -> " << dst_offset;
    }
  }
  EXPECT_OK(isapack_device_free(device, a));
  EXPECT_OK(isapack_device_free(device, b));
}

// After a failure: a device without faults is created, fills and copies
// byte-exactly and releases everything.
void ExpectANewDeviceWorks() {
  SimulatedHsa hsa("gfx1103");
  Created again = Create(Options());
  ASSERT_EQ(again.code, ISAPACK_STATUS_OK) << again.message;
  ExerciseFillAndCopy(again.device);
  isapack_device_destroy(again.device);
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, Gfx1103GetsGfx11GenericAndFillAndCopyAreByteExact) {
  SimulatedHsa hsa("gfx1103");
  Created created = Create(Options());
  ASSERT_EQ(created.code, ISAPACK_STATUS_OK) << created.message;
  isapack_device_info_t info;
  EXPECT_OK(isapack_device_info(created.device, &info));
  EXPECT_EQ(std::string(info.code_object), GenericBuild() ? "gfx11-generic" : "gfx1103");
  EXPECT_EQ(std::string(info.agent_name), "gfx1103");
  EXPECT_EQ(std::string(info.product_name), "Radeon 780M (simulated)");
  EXPECT_EQ(std::string(info.isa_names),
            "amdgcn-amd-amdhsa--gfx1103 amdgcn-amd-amdhsa--gfx11-generic");
  ASSERT_NE(info.simulation, nullptr) << "the simulation must identify itself";
  EXPECT_NE(std::string(info.simulation).find("test double"), std::string::npos);
  EXPECT_EQ(info.wavefront_size, 32u);
  ExerciseFillAndCopy(created.device);
  isapack_device_destroy(created.device);
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

// --- Older ROCr: generic objects retargeted at load time (simulated) -------------

constexpr const char* kWithoutGenericSupport =
    " (code object v5) for a ROCr without generic support";

// Creates a device for `agent` on the imitated ROCr `rocr`, checks which code
// object it loaded, then fills, copies and probes through it.
void ExpectRetargetedDeviceWorks(const char* agent, const char* rocr, const std::string& generic,
                                 const std::string& exact, uint32_t wavefront) {
  SimulatedHsa hsa(agent, rocr);
  Created created = Create(Options());
  ASSERT_EQ(created.code, ISAPACK_STATUS_OK) << created.message;
  isapack_device_info_t info;
  EXPECT_OK(isapack_device_info(created.device, &info));
  if (GenericBuild()) {
    EXPECT_EQ(std::string(info.code_object),
              generic + ", retargeted to " + exact + kWithoutGenericSupport);
    EXPECT_NE(
        std::string(info.selection_trace).find(generic + ": selected, retargeted to " + exact),
        std::string::npos)
        << info.selection_trace;
  } else {
    EXPECT_EQ(std::string(info.code_object), exact);
  }
  EXPECT_EQ(std::string(info.isa_names), "amdgcn-amd-amdhsa--" + std::string(agent));
  ExerciseFillAndCopy(created.device);
  isapack_probe_report_t report;
  EXPECT_OK(isapack_device_probe(created.device, &report));
  EXPECT_EQ(report.wavefront_size, wavefront);
  EXPECT_EQ(report.work_items_verified, 4 * wavefront);
  isapack_device_destroy(created.device);
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedRetarget, Rocr52CreatesAGfx1036DeviceFromGfx103GenericAndFillsCopiesAndProbes) {
  ExpectRetargetedDeviceWorks("gfx1036", "5.2", "gfx10-3-generic", "gfx1036", 32);
}

TEST(SimulatedRetarget, Rocr52RunsGfx900FromGfx9Generic) {
  ExpectRetargetedDeviceWorks("gfx900:xnack-", "5.2", "gfx9-generic", "gfx900", 64);
}

TEST(SimulatedRetarget, Rocr62ReadsV6ButNotGenericSoGfx1030GetsGfx103GenericRetargeted) {
  ExpectRetargetedDeviceWorks("gfx1030", "6.2", "gfx10-3-generic", "gfx1030", 32);
}

TEST(SimulatedRetarget, Rocr62RunsGfx1103FromGfx11Generic) {
  ExpectRetargetedDeviceWorks("gfx1103", "6.2", "gfx11-generic", "gfx1103", 32);
}

TEST(SimulatedRetarget, Rocr61WithRetargetingOffInTheOptionsIsRocrTooOld) {
  SimulatedHsa hsa("gfx1103", "6.1");
  isapack_device_options_t options = Options();
  options.disable_retarget = 1;
  Created created = Create(options);
  if (GenericBuild()) {
    EXPECT_EQ(created.code, ISAPACK_STATUS_ROCR_TOO_OLD);
    EXPECT_EQ(created.message,
              "this build's code objects for gfx1103 (Radeon 780M (simulated)) are generic "
              "(gfx11-generic, code "
              "object v6), which needs ROCr >= 6.4, but this HSA runtime lists only "
              "amdgcn-amd-amdhsa--gfx1103; "
              "upgrade ROCm, leave retargeting on (unset ISAPACK_RETARGET) or rebuild with "
              "ISAPACK_CODE_OBJECT_MODE=exact");
  } else {
    ASSERT_EQ(created.code, ISAPACK_STATUS_OK) << created.message;
    isapack_device_destroy(created.device);
  }
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedRetarget, IsapackRetarget0TurnsItOff) {
  SimulatedHsa hsa("gfx1036", "5.2");
  setenv("ISAPACK_RETARGET", "0", 1);
  Created created = Create(Options());
  unsetenv("ISAPACK_RETARGET");
  EXPECT_EQ(created.code, GenericBuild() ? ISAPACK_STATUS_ROCR_TOO_OLD : ISAPACK_STATUS_OK)
      << created.message;
  if (created.device != nullptr) isapack_device_destroy(created.device);
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedRetarget, Rocr52RunsGfx906WithSrameccOnFromGfx9Generic) {
  ExpectRetargetedDeviceWorks("gfx906:sramecc+:xnack-", "5.2", "gfx9-generic", "gfx906", 64);
}

TEST(SimulatedRetarget, Rocr52WithoutAnyObjectForTheGpuIsUnsupportedDevice) {
  SimulatedHsa hsa("gfx801:xnack-", "5.2");
  Created created = Create(Options());
  EXPECT_EQ(created.code, ISAPACK_STATUS_UNSUPPORTED_DEVICE);
  EXPECT_EQ(created.message.rfind("no code object in this build matches the GPU gfx801", 0), 0u)
      << created.message;
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedRetarget, Rocr52KnowsNoGfx1100SoThereIsNoDevice) {
  SimulatedHsa hsa("gfx1100", "5.2");
  Created created = Create(Options());
  EXPECT_EQ(created.code, ISAPACK_STATUS_NO_DEVICE);
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedRetarget, Rocr45ReadsOnlyV4SoTheRetargetedV5ObjectIsRejectedWithTheReason) {
  SimulatedHsa hsa("gfx1030", "4.5");
  Created created = Create(Options());
  if (GenericBuild()) {
    EXPECT_EQ(created.code, ISAPACK_STATUS_LOAD_REJECTED);
    EXPECT_EQ(created.message.rfind(
                  "loading gfx10-3-generic retargeted to gfx1030 (code object v5) on gfx1030 "
                  "failed: HSA_STATUS_ERROR_INVALID_CODE_OBJECT (0x1010): ",
                  0),
              0u)
        << created.message;
  } else if (created.device != nullptr) {
    isapack_device_destroy(created.device);
  }
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, Gfx906WithSrameccOnGetsGfx9Generic) {
  SimulatedHsa hsa("gfx906:sramecc+:xnack-");
  Created created = Create(Options());
  ASSERT_EQ(created.code, ISAPACK_STATUS_OK) << created.message;
  EXPECT_EQ(CodeObjectOf(created.device), GenericBuild() ? "gfx9-generic" : "gfx906");
  isapack_device_info_t info;
  EXPECT_OK(isapack_device_info(created.device, &info));
  EXPECT_EQ(std::string(info.isa_names),
            "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack- amdgcn-amd-amdhsa--gfx9-generic:xnack-");
  EXPECT_EQ(info.wavefront_size, 64u);
  ExerciseFillAndCopy(created.device);
  isapack_device_destroy(created.device);
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, AnUncoveredAgentGetsTheRebuildHint) {
  SimulatedHsa hsa("gfx1310");
  Created created = Create(Options());
  EXPECT_EQ(created.code, ISAPACK_STATUS_UNSUPPORTED_DEVICE);
  EXPECT_EQ(created.message.rfind(
                "no code object in this build matches the GPU gfx1310 (gfx1310 (simulated)): "
                "the agent reports amdgcn-amd-amdhsa--gfx1310 amdgcn-amd-amdhsa--gfx13-generic; "
                "this build carries ",
                0),
            0u)
      << created.message;
  EXPECT_NE(
      created.message.find("; rebuild with ISAPACK_GPU_TARGETS including gfx1310 or gfx13-generic"),
      std::string::npos)
      << created.message;
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, ALoadRejectionIsReportedWithItsLikelyCause) {
  SimulatedHsa hsa("gfx1103", "6.4", "load-reject");
  Created created = Create(Options());
  EXPECT_EQ(created.code, ISAPACK_STATUS_LOAD_REJECTED);
  const std::string object =
      GenericBuild() ? "gfx11-generic (code object v6)" : "gfx1103 (code object v5)";
  EXPECT_EQ(created.message.rfind(
                "loading " + object +
                    " on gfx1103 failed: HSA_STATUS_ERROR_INVALID_CODE_OBJECT (0x1010): ",
                0),
            0u)
      << created.message;
  EXPECT_NE(created.message.find("this HSA runtime cannot read code object v"), std::string::npos);
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, AnOlderRocrRejectsANewerCodeObjectVersion) {
  // ROCr before 5.0 reads code object v4 at most; gfx90a's object is exact.
  SimulatedHsa hsa("gfx90a", "4.5");
  Created created = Create(Options());
  const unsigned version = nlohmann::json::parse(isapack_build_info_json())
                               .at("exact_code_object_version")
                               .get<unsigned>();
  if (version == 4) {
    ASSERT_EQ(created.code, ISAPACK_STATUS_OK) << created.message;
    isapack_device_destroy(created.device);
  } else {
    EXPECT_EQ(created.code, ISAPACK_STATUS_LOAD_REJECTED);
    EXPECT_EQ(created.message.rfind("loading gfx90a (code object v5) on gfx90a failed: "
                                    "HSA_STATUS_ERROR_INVALID_CODE_OBJECT (0x1010): ",
                                    0),
              0u)
        << created.message;
    EXPECT_NE(created.message.find("this HSA runtime cannot read code object v5"),
              std::string::npos);
  }
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, HsaInitFailureSaysWhy) {
  SimulatedHsa hsa("gfx1103", "6.4", "init");
  Created created = Create(Options());
  if (access("/dev/kfd", F_OK) != 0) {
    EXPECT_EQ(created.code, ISAPACK_STATUS_NO_DEVICE);
    EXPECT_EQ(
        created.message.rfind("no AMD GPU kernel driver: /dev/kfd is missing (hsa_init failed: "
                              "HSA_STATUS_ERROR_OUT_OF_RESOURCES (0x1008): ",
                              0),
        0u)
        << created.message;
  } else {
    EXPECT_NE(created.code, ISAPACK_STATUS_OK);
  }
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, NoGpuAgentIsNoDevice) {
  SimulatedHsa hsa("gfx1103", "6.4", "no-gpu");
  Created created = Create(Options());
  EXPECT_EQ(created.code, ISAPACK_STATUS_NO_DEVICE);
  EXPECT_EQ(created.message,
            "the HSA runtime (" + SimulatedHsaPath() +
                ") reports no GPU agent; if this machine has an AMD GPU, this ROCr may be too old "
                "for it (Debian 12's ROCr 5.2.3 knows GPUs up to gfx1035)");
}

TEST(SimulatedDevice, AnAgentThatVanishesIsNoDevice) {
  SimulatedHsa hsa("gfx1103", "6.4", "vanish");
  Created created = Create(Options());
  EXPECT_EQ(created.code, ISAPACK_STATUS_NO_DEVICE);
  EXPECT_EQ(created.message.rfind(
                "the GPU agent gfx1103 (GPU-5153000000000000) went away while its code object "
                "was loading: HSA_STATUS_ERROR_INVALID_AGENT (0x1004)",
                0),
            0u)
      << created.message;
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, QueueCreationFailureIsReported) {
  SimulatedHsa hsa("gfx1103", "6.4", "queue-create");
  Created created = Create(Options());
  EXPECT_EQ(created.code, ISAPACK_STATUS_HSA_ERROR);
  EXPECT_EQ(created.message.rfind(
                "creating an AQL queue on gfx1103 failed: HSA_STATUS_ERROR_OUT_OF_RESOURCES "
                "(0x1008)",
                0),
            0u)
      << created.message;
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, AllocationFailureIsOutOfMemory) {
  SimulatedHsa hsa("gfx1103", "6.4", "alloc");
  Created created = Create(Options());
  ASSERT_EQ(created.code, ISAPACK_STATUS_OK) << created.message;
  void* ptr = nullptr;
  isapack_status_t status =
      isapack_device_alloc(created.device, 4096, ISAPACK_MEMORY_HOST_VISIBLE, &ptr);
  EXPECT_EQ(isapack_status_code(status), ISAPACK_STATUS_OUT_OF_MEMORY);
  EXPECT_EQ(std::string(isapack_status_message(status)),
            "allocating 4096 bytes failed: HSA_STATUS_ERROR_OUT_OF_RESOURCES (0x1008): "
            "The runtime failed to allocate the necessary resources. (simulated)");
  isapack_status_free(status);
  uint8_t buffer[64];
  status = isapack_device_fill(created.device, buffer, sizeof(buffer), 1, 1);
  EXPECT_EQ(isapack_status_code(status), ISAPACK_STATUS_OUT_OF_MEMORY);
  isapack_status_free(status);
  isapack_device_destroy(created.device);
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, ADispatchThatNeverCompletesTimesOutAndTheNextDeviceWorks) {
  {
    SimulatedHsa hsa("gfx1103", "6.4", "hang");
    Created created = Create(Options(/*timeout_ms=*/200));
    ASSERT_EQ(created.code, ISAPACK_STATUS_OK) << created.message;
    void* buffer = nullptr;
    EXPECT_OK(isapack_device_alloc(created.device, 256, ISAPACK_MEMORY_HOST_VISIBLE, &buffer));
    const auto start = std::chrono::steady_clock::now();
    isapack_status_t status = isapack_device_fill(created.device, buffer, 256, 7, 1);
    EXPECT_EQ(isapack_status_code(status), ISAPACK_STATUS_TIMEOUT);
    EXPECT_EQ(std::string(isapack_status_message(status)),
              "the isapack_fill dispatch on gfx1103 did not complete within 200 ms");
    isapack_status_free(status);
    isapack_device_destroy(created.device);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_EQ(LiveHsaObjects(), 0u);
  }
  ExpectANewDeviceWorks();
}

// Every fault the simulation injects: the failure is reported with its code,
// nothing the failed device held stays alive in the HSA runtime, and the
// next device creation, without the fault, works fully.
struct Fault {
  const char* name;
  isapack_status_code_t create;     // what isapack_device_create returns
  isapack_status_code_t operation;  // then what a fill returns (create succeeded)
};

class FaultInjection : public ::testing::TestWithParam<Fault> {};

TEST_P(FaultInjection, IsReportedReleasesEverythingAndTheNextDeviceWorks) {
  const Fault& fault = GetParam();
  {
    SimulatedHsa hsa("gfx1103", "6.4", fault.name);
    Created created = Create(Options(/*timeout_ms=*/200));
    if (std::string(fault.name) == "init" && access("/dev/kfd", F_OK) == 0) {
      EXPECT_NE(created.code, ISAPACK_STATUS_OK);
    } else {
      EXPECT_EQ(created.code, fault.create) << created.message;
    }
    if (created.code == ISAPACK_STATUS_OK) {
      uint8_t* buffer = nullptr;
      isapack_status_t status = isapack_device_alloc(
          created.device, 256, ISAPACK_MEMORY_HOST_VISIBLE, reinterpret_cast<void**>(&buffer));
      if (status == nullptr) {
        isapack_status_t fill = isapack_device_fill(created.device, buffer, 256, 7, 1);
        EXPECT_EQ(isapack_status_code(fill), fault.operation);
        isapack_status_free(fill);
        EXPECT_OK(isapack_device_free(created.device, buffer));
      } else {
        EXPECT_EQ(isapack_status_code(status), fault.operation);
      }
      isapack_status_free(status);
      isapack_device_destroy(created.device);
    } else {
      EXPECT_FALSE(created.message.empty());
      EXPECT_EQ(created.device, nullptr);
    }
    EXPECT_EQ(LiveHsaObjects(), 0u) << fault.name;
  }
  ExpectANewDeviceWorks();
}

INSTANTIATE_TEST_SUITE_P(
    EveryFault, FaultInjection,
    ::testing::Values(Fault{"init", ISAPACK_STATUS_NO_DEVICE, ISAPACK_STATUS_OK},
                      Fault{"no-gpu", ISAPACK_STATUS_NO_DEVICE, ISAPACK_STATUS_OK},
                      Fault{"vanish", ISAPACK_STATUS_NO_DEVICE, ISAPACK_STATUS_OK},
                      Fault{"queue-create", ISAPACK_STATUS_HSA_ERROR, ISAPACK_STATUS_OK},
                      Fault{"load-reject", ISAPACK_STATUS_LOAD_REJECTED, ISAPACK_STATUS_OK},
                      Fault{"alloc", ISAPACK_STATUS_OK, ISAPACK_STATUS_OUT_OF_MEMORY},
                      Fault{"hang", ISAPACK_STATUS_OK, ISAPACK_STATUS_TIMEOUT}),
    [](const ::testing::TestParamInfo<Fault>& param_info) {
      std::string name = param_info.param.name;
      for (char& c : name) {
        if (c == '-') c = '_';
      }
      return name;
    });

TEST(SimulatedDevice, AgentsArePickedByOrdinalOrUuid) {
  SimulatedHsa hsa("gfx1100;gfx90a:xnack+,uuid=GPU-00000000000000aa");
  isapack_device_options_t options = Options();
  options.agent_ordinal = 1;
  Created second = Create(options);
  ASSERT_EQ(second.code, ISAPACK_STATUS_OK) << second.message;
  isapack_device_info_t info;
  EXPECT_OK(isapack_device_info(second.device, &info));
  EXPECT_EQ(std::string(info.agent_name), "gfx90a");
  EXPECT_EQ(std::string(info.uuid), "GPU-00000000000000aa");
  EXPECT_EQ(std::string(info.code_object), "gfx90a");
  EXPECT_EQ(info.agent_ordinal, 1u);
  isapack_device_destroy(second.device);

  options = Options();
  options.agent_uuid = "GPU-00000000000000aa";
  options.agent_ordinal = 0;  // the UUID wins
  Created by_uuid = Create(options);
  ASSERT_EQ(by_uuid.code, ISAPACK_STATUS_OK) << by_uuid.message;
  EXPECT_EQ(CodeObjectOf(by_uuid.device), "gfx90a");
  isapack_device_destroy(by_uuid.device);

  options = Options();
  options.agent_ordinal = 2;
  Created missing = Create(options);
  EXPECT_EQ(missing.code, ISAPACK_STATUS_NOT_FOUND);
  EXPECT_EQ(
      missing.message,
      "GPU agent ordinal 2 does not exist; the agents are 0: GPU-5153000000000000 (gfx1100), 1: "
      "GPU-00000000000000aa (gfx90a)");
  options = Options();
  options.agent_uuid = "GPU-ffff";
  missing = Create(options);
  EXPECT_EQ(missing.code, ISAPACK_STATUS_NOT_FOUND);
  EXPECT_EQ(
      missing.message,
      "no GPU agent has UUID 'GPU-ffff'; the agents are 0: GPU-5153000000000000 (gfx1100), 1: "
      "GPU-00000000000000aa (gfx90a)");
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, TwoThreadsCreateAndUseDevicesConcurrently) {
  SimulatedHsa hsa("gfx1103;gfx1030");
  auto worker = [](uint32_t ordinal) {
    for (int round = 0; round < 5; ++round) {
      isapack_device_options_t options = Options();
      options.agent_ordinal = ordinal;
      Created created = Create(options);
      ASSERT_EQ(created.code, ISAPACK_STATUS_OK) << created.message;
      ExerciseFillAndCopy(created.device);
      isapack_device_destroy(created.device);
    }
  };
  std::thread first(worker, 0), second(worker, 1);
  first.join();
  second.join();
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, AsyncDispatchesCompleteAndUnwaitedOnesAreReleasedWithTheDevice) {
  SimulatedHsa hsa("gfx1103");
  Created created = Create(Options());
  ASSERT_EQ(created.code, ISAPACK_STATUS_OK) << created.message;
  uint8_t* a = nullptr;
  EXPECT_OK(isapack_device_alloc(created.device, 1 << 20, ISAPACK_MEMORY_HOST_VISIBLE,
                                 reinterpret_cast<void**>(&a)));
  isapack_completion_t fill = nullptr;
  EXPECT_OK(isapack_device_fill_async(created.device, a, 1 << 20, 0xab, 1, &fill));
  EXPECT_OK(isapack_completion_wait(fill, 0));
  isapack_completion_release(fill);
  EXPECT_EQ(a[0], 0xab);
  EXPECT_EQ(a[(1 << 20) - 1], 0xab);
  isapack_completion_t pending = nullptr;
  EXPECT_OK(isapack_device_fill_async(created.device, a, 1 << 20, 0xcd, 1, &pending));
  isapack_completion_release(pending);  // never waited for
  isapack_device_destroy(created.device);
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, TheProbeReportsWhatTheKernelSaw) {
  for (const char* agent : {"gfx1103", "gfx906:sramecc+:xnack-"}) {
    SimulatedHsa hsa(agent);
    Created created = Create(Options());
    ASSERT_EQ(created.code, ISAPACK_STATUS_OK) << created.message;
    isapack_probe_report_t report;
    EXPECT_OK(isapack_device_probe(created.device, &report));
    const uint32_t wavefront = std::string(agent) == "gfx1103" ? 32 : 64;
    EXPECT_EQ(report.wavefront_size, wavefront) << agent;
    EXPECT_EQ(report.agent_wavefront_size, wavefront) << agent;
    EXPECT_EQ(report.workgroup_size, 2 * wavefront) << agent;
    EXPECT_EQ(report.grid_size, 4 * wavefront) << agent;
    EXPECT_EQ(report.work_items_verified, 4 * wavefront) << agent;
    EXPECT_EQ(report.distinct_hw_ids, 4u) << agent;  // one per simulated wavefront
    isapack_device_destroy(created.device);
  }
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, BadArgumentsAreRefusedWithAReason) {
  SimulatedHsa hsa("gfx1103");
  Created created = Create(Options());
  ASSERT_EQ(created.code, ISAPACK_STATUS_OK) << created.message;
  uint8_t buffer[64];
  isapack_status_t status = isapack_device_fill(created.device, buffer, sizeof(buffer), 0, 3);
  EXPECT_EQ(isapack_status_code(status), ISAPACK_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(isapack_status_message(status)), "pattern_width is 3; use 1, 2, 4 or 8");
  isapack_status_free(status);
  status = isapack_device_copy(created.device, buffer + 8, buffer, 16);
  EXPECT_EQ(std::string(isapack_status_message(status)), "the source and destination overlap");
  isapack_status_free(status);
  status = isapack_device_free(created.device, buffer);
  EXPECT_EQ(std::string(isapack_status_message(status)),
            "this device did not allocate the pointer passed to free");
  isapack_status_free(status);
  void* local = nullptr;
  EXPECT_OK(isapack_device_alloc(created.device, 4096, ISAPACK_MEMORY_DEVICE_LOCAL, &local));
  EXPECT_NE(local, nullptr);  // freed with the device
  isapack_device_destroy(created.device);

  isapack_device_options_t options = Options();
  options.struct_size = 8;
  isapack_device_t device = nullptr;
  status = isapack_device_create(&options, &device);
  EXPECT_EQ(std::string(isapack_status_message(status)),
            "options->struct_size is 8, expected " +
                std::to_string(sizeof(isapack_device_options_t)) +
                "; initialise options with isapack_device_options_init");
  isapack_status_free(status);
  EXPECT_EQ(device, nullptr);
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

TEST(SimulatedDevice, IsapackLibhsaPathSelectsTheRuntime) {
  SimulatedHsa hsa("gfx1030");
  setenv("ISAPACK_LIBHSA_PATH", kSimulatedHsa, 1);
  isapack_device_t device = nullptr;
  isapack_status_t status = isapack_device_create(nullptr, &device);
  unsetenv("ISAPACK_LIBHSA_PATH");
  ASSERT_EQ(status, nullptr) << isapack_status_message(status);
  EXPECT_EQ(CodeObjectOf(device), GenericBuild() ? "gfx10-3-generic" : "gfx1030");
  isapack_device_destroy(device);
}

TEST(SimulatedAgents, ListEveryAgentWithWhatThisBuildWouldLoad) {
  SimulatedHsa hsa("gfx1103;gfx1310");
  isapack_agent_list_t list = nullptr;
  EXPECT_OK(isapack_agent_list_create(kSimulatedHsa, &list));
  ASSERT_EQ(isapack_agent_list_count(list), 2u);
  EXPECT_NE(isapack_agent_list_simulation(list), nullptr);
  isapack_agent_info_t info;
  EXPECT_OK(isapack_agent_list_get(list, 0, &info));
  EXPECT_EQ(std::string(info.uuid), "GPU-5153000000000000");
  EXPECT_EQ(std::string(info.code_object), GenericBuild() ? "gfx11-generic" : "gfx1103");
  EXPECT_EQ(info.selection_code, ISAPACK_STATUS_OK);
  EXPECT_OK(isapack_agent_list_get(list, 1, &info));
  EXPECT_EQ(info.code_object, nullptr);
  EXPECT_EQ(info.selection_code, ISAPACK_STATUS_UNSUPPORTED_DEVICE);
  EXPECT_NE(std::string(info.selection_message).find("gfx1310 or gfx13-generic"),
            std::string::npos);
  isapack_agent_list_free(list);
  EXPECT_EQ(LiveHsaObjects(), 0u);
}

}  // namespace
