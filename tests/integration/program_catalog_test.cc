// Any program's catalog through libisapack's C API — open (built in, memory,
// file), load on a device, look kernels up by name, dispatch, unload — on
// isapack's SIMULATED HSA runtime (tests/simulated_hsa, a test double: no
// GPU is involved). The catalog used is the one this libisapack embeds,
// read back out of the library file, so the test runs installed too.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "catalog.h"
#include "catalog_format.h"
#include "catalog_writer.h"
#include "isapack/device/kernel_args.h"
#include "isapack/isapack.h"
#include "support/loaded_catalog.h"
#include "support/simulated_runtime.h"

namespace {

using isapack::testing::LiveHsaObjects;
using isapack::testing::LoadedCatalog;
using isapack::testing::Result;
using isapack::testing::SimulatedHsaPath;
using isapack::testing::Take;
#define ASSERT_OK ISAPACK_ASSERT_OK

// A simulated gfx1103 device (ROCr 6.4) for one test.
class ProgramCatalogs : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("ISAPACK_SIMULATED_HSA_AGENTS", "gfx1103", 1);
    setenv("ISAPACK_SIMULATED_HSA_ROCR", "6.4", 1);
    setenv("ISAPACK_SIMULATED_HSA_FAULTS", "", 1);
    device_ = Create();
    ASSERT_NE(device_, nullptr);
    isapack_device_info_t info;
    ASSERT_OK(isapack_device_info(device_, &info));
    own_code_object_ = info.code_object;
    own_entry_ = info.catalog_entry;
  }
  void TearDown() override {
    isapack_device_destroy(device_);
    EXPECT_EQ(LiveHsaObjects(), 0u) << "the device released every HSA object";
    unsetenv("ISAPACK_SIMULATED_HSA_AGENTS");
    unsetenv("ISAPACK_SIMULATED_HSA_ROCR");
    unsetenv("ISAPACK_SIMULATED_HSA_FAULTS");
  }
  static isapack_device_t Create() {
    isapack_device_options_t options;
    isapack_device_options_init(&options);
    options.libhsa_path = SimulatedHsaPath().c_str();
    isapack_device_t device = nullptr;
    const Result result = Take(isapack_device_create(&options, &device));
    EXPECT_EQ(result.code, ISAPACK_STATUS_OK) << result.message;
    return device;
  }
  isapack_executable_t Load(isapack_catalog_t catalog) {
    isapack_executable_t executable = nullptr;
    const Result result = Take(isapack_device_load(device_, catalog, &executable));
    EXPECT_EQ(result.code, ISAPACK_STATUS_OK) << result.message;
    return executable;
  }
  isapack_kernel_t Kernel(isapack_executable_t executable, const char* name) {
    isapack_kernel_t kernel = nullptr;
    const Result result = Take(isapack_executable_kernel(executable, name, &kernel));
    EXPECT_EQ(result.code, ISAPACK_STATUS_OK) << result.message;
    return kernel;
  }
  // A fill dispatch of `length` bytes at `dst` with a one-byte pattern.
  static isapack_dispatch_t FillDispatch(const isapack_fill_args_t& args, uint32_t grid) {
    isapack_dispatch_t dispatch;
    isapack_dispatch_init(&dispatch);
    dispatch.grid_size[0] = grid;
    dispatch.workgroup_size[0] = 64;
    dispatch.kernarg = &args;
    dispatch.kernarg_size = sizeof(args);
    return dispatch;
  }

  isapack_device_t device_ = nullptr;
  std::string own_code_object_;
  size_t own_entry_ = 0;
};

TEST_F(ProgramCatalogs, TheBuiltinCatalogLoadsLikeAnyAndItsFillKernelRunsByName) {
  isapack_catalog_t catalog = nullptr;
  ASSERT_OK(isapack_catalog_open_builtin(&catalog));
  EXPECT_EQ(isapack_catalog_size(catalog), isapack_catalog_entry_count());
  EXPECT_STREQ(isapack_catalog_build_info_json(catalog), isapack_build_info_json());
  isapack_executable_t executable = Load(catalog);
  isapack_catalog_close(catalog);  // the executable keeps what it needs
  ASSERT_NE(executable, nullptr);
  isapack_executable_info_t info;
  ASSERT_OK(isapack_executable_info(executable, &info));
  EXPECT_EQ(std::string(info.code_object), own_code_object_);
  EXPECT_EQ(info.catalog_entry, own_entry_);
  ASSERT_EQ(info.kernel_count, 3u);
  EXPECT_STREQ(isapack_executable_kernel_name(executable, 0), "isapack_fill");
  EXPECT_STREQ(isapack_executable_kernel_name(executable, 1), "isapack_copy");
  EXPECT_STREQ(isapack_executable_kernel_name(executable, 2), "isapack_probe");
  EXPECT_EQ(isapack_executable_kernel_name(executable, 3), nullptr);

  isapack_kernel_t fill = Kernel(executable, "isapack_fill.kd");
  ASSERT_NE(fill, nullptr);
  isapack_kernel_info_t kernel;
  ASSERT_OK(isapack_kernel_info(fill, &kernel));
  EXPECT_STREQ(kernel.name, "isapack_fill");
  EXPECT_EQ(kernel.kernarg_size, sizeof(isapack_fill_args_t));
  EXPECT_EQ(kernel.kernarg_segment_size, 32u);
  EXPECT_EQ(kernel.kernarg_alignment, 16u) << "ROCr reports 16 for code object v3 and newer";
  EXPECT_EQ(kernel.group_segment_size, 0u);
  EXPECT_EQ(kernel.private_segment_size, 0u);
  EXPECT_EQ(kernel.max_workgroup_size, 1024u);

  void* buffer = nullptr;
  ASSERT_OK(isapack_device_alloc(device_, 1000, ISAPACK_MEMORY_HOST_VISIBLE, &buffer));
  std::memset(buffer, 0, 1000);
  const isapack_fill_args_t args{reinterpret_cast<uintptr_t>(buffer) + 3, 990, 0x5a, 1, 0};
  const isapack_dispatch_t dispatch = FillDispatch(args, 128);
  ASSERT_OK(isapack_device_dispatch(device_, fill, &dispatch));
  const auto* bytes = static_cast<const uint8_t*>(buffer);
  for (size_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(bytes[i], i >= 3 && i < 993 ? 0x5a : 0) << "byte " << i;
  }
  // The asynchronous form, with the existing completion type.
  const isapack_fill_args_t again{reinterpret_cast<uintptr_t>(buffer), 1000, 0x0201, 2, 0};
  const isapack_dispatch_t second = FillDispatch(again, 64);
  isapack_completion_t completion = nullptr;
  ASSERT_OK(isapack_device_dispatch_async(device_, fill, &second, &completion));
  ASSERT_OK(isapack_completion_wait(completion, 0));
  isapack_completion_release(completion);
  for (size_t i = 0; i < 1000; ++i) ASSERT_EQ(bytes[i], i % 2 == 0 ? 1 : 2) << "byte " << i;
  ASSERT_OK(isapack_device_free(device_, buffer));
  ASSERT_OK(isapack_executable_unload(executable));
}

TEST_F(ProgramCatalogs, TheSameCatalogFromMemoryOrAFileLoadsTheSameEntry) {
  const std::vector<uint8_t> bytes = LoadedCatalog();
  ASSERT_FALSE(bytes.empty());
  const std::string path = ::testing::TempDir() + "isapack-program-catalog.bin";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  isapack_catalog_t copied = nullptr, borrowed = nullptr, file = nullptr;
  ASSERT_OK(isapack_catalog_open_memory(bytes.data(), bytes.size(), 0, &copied));
  ASSERT_OK(
      isapack_catalog_open_memory(bytes.data(), bytes.size(), ISAPACK_CATALOG_BORROW, &borrowed));
  ASSERT_OK(isapack_catalog_open_file(path.c_str(), &file));
  for (isapack_catalog_t catalog : {copied, borrowed, file}) {
    EXPECT_EQ(isapack_catalog_size(catalog), isapack_catalog_entry_count());
    ASSERT_OK(isapack_catalog_verify(catalog));
    isapack_catalog_entry_info_t entry, own;
    ASSERT_OK(isapack_catalog_describe(catalog, 0, &entry));
    ASSERT_OK(isapack_catalog_entry_info(0, &own));
    EXPECT_STREQ(entry.target_id, own.target_id);
    EXPECT_EQ(entry.xxh3_64, own.xxh3_64);
    isapack_executable_t executable = Load(catalog);
    ASSERT_NE(executable, nullptr);
    isapack_executable_info_t info;
    ASSERT_OK(isapack_executable_info(executable, &info));
    EXPECT_EQ(std::string(info.code_object), own_code_object_);
    EXPECT_EQ(info.catalog_entry, own_entry_);
    isapack_catalog_close(catalog);
  }
  std::remove(path.c_str());
  // The executables stay with the device; destroying it releases them
  // (TearDown counts the simulation's live objects).
}

TEST_F(ProgramCatalogs, AnUnknownKernelNameListsTheKernelsThereAre) {
  isapack_catalog_t catalog = nullptr;
  ASSERT_OK(isapack_catalog_open_builtin(&catalog));
  isapack_executable_t executable = Load(catalog);
  isapack_catalog_close(catalog);
  isapack_kernel_t kernel = nullptr;
  const Result result = Take(isapack_executable_kernel(executable, "saxpy", &kernel));
  EXPECT_EQ(result.code, ISAPACK_STATUS_NOT_FOUND);
  EXPECT_EQ(result.message, "the code object " + own_code_object_ +
                                " of this build has no kernel 'saxpy'; its kernels are "
                                "isapack_fill, isapack_copy, isapack_probe");
  EXPECT_EQ(kernel, nullptr);
}

TEST_F(ProgramCatalogs, DispatchesThatDoNotFitTheKernelAreRefusedWithTheReason) {
  isapack_catalog_t catalog = nullptr;
  ASSERT_OK(isapack_catalog_open_builtin(&catalog));
  isapack_executable_t executable = Load(catalog);
  isapack_catalog_close(catalog);
  isapack_kernel_t fill = Kernel(executable, "isapack_fill");
  const isapack_fill_args_t args{0, 0, 0, 1, 0};
  auto refused = [&](const isapack_dispatch_t& dispatch) {
    return Take(isapack_device_dispatch(device_, fill, &dispatch));
  };
  isapack_dispatch_t short_args = FillDispatch(args, 64);
  short_args.kernarg_size = 16;
  Result result = refused(short_args);
  EXPECT_EQ(result.code, ISAPACK_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(result.message,
            "dispatching isapack_fill: kernarg_size is 16 bytes but the kernel's metadata gives 32 "
            "bytes of arguments; pass the kernel's argument struct as compiled");
  isapack_dispatch_t flat = FillDispatch(args, 64);
  flat.workgroup_size[1] = 0;
  result = refused(flat);
  EXPECT_EQ(result.message,
            "dispatching isapack_fill: workgroup_size[1] (y) is 0; every dimension is at least 1");
  isapack_dispatch_t wide = FillDispatch(args, 64);
  wide.workgroup_size[0] = 1024;
  wide.workgroup_size[1] = 2;
  result = refused(wide);
  EXPECT_EQ(result.message,
            "dispatching isapack_fill: a workgroup of 2048 work items exceeds the limit of 1024 "
            "(gfx1103's largest workgroup)");
  isapack_dispatch_t old = FillDispatch(args, 64);
  old.struct_size = 8;
  result = refused(old);
  EXPECT_EQ(result.message, "dispatch->struct_size is 8, expected " +
                                std::to_string(sizeof(isapack_dispatch_t)) +
                                "; initialise the dispatch with isapack_dispatch_init");
  isapack_dispatch_t no_args = FillDispatch(args, 64);
  no_args.kernarg = nullptr;
  result = refused(no_args);
  EXPECT_EQ(result.message, "dispatching isapack_fill: kernarg is NULL");
  // A kernel loaded on another device.
  isapack_device_t other = Create();
  isapack_dispatch_t fine = FillDispatch(args, 64);
  result = Take(isapack_device_dispatch(other, fill, &fine));
  EXPECT_EQ(result.message,
            "dispatching isapack_fill: the kernel was loaded on another device; load its catalog "
            "on this one");
  isapack_device_destroy(other);
  // A grid with no work items completes at once.
  isapack_dispatch_t empty = FillDispatch(args, 0);
  ASSERT_OK(isapack_device_dispatch(device_, fill, &empty));
}

TEST_F(ProgramCatalogs, DamagedCatalogsAreErrorsNotCrashes) {
  const std::vector<uint8_t> good = LoadedCatalog();
  ASSERT_GT(good.size(), sizeof(isapack::catalog_format::FileHeader));
  isapack_catalog_t catalog = nullptr;
  // A byte of the table of contents (the first entry's record).
  std::vector<uint8_t> bytes = good;
  bytes[sizeof(isapack::catalog_format::FileHeader) + 4] ^= 0x40;
  Result result = Take(isapack_catalog_open_memory(bytes.data(), bytes.size(), 0, &catalog));
  EXPECT_EQ(result.code, ISAPACK_STATUS_DATA_CORRUPT);
  EXPECT_EQ(result.message.rfind("the catalog in memory (" + std::to_string(bytes.size()) +
                                     " bytes) is not a usable isapack catalog (catalog: table of "
                                     "contents fails its XXH3-64 check",
                                 0),
            0u)
      << result.message;
  EXPECT_EQ(catalog, nullptr);
  // A catalog of a newer format.
  bytes = good;
  bytes[8] = 3;
  result = Take(isapack_catalog_open_memory(bytes.data(), bytes.size(), 0, &catalog));
  EXPECT_EQ(result.message,
            "the catalog in memory (" + std::to_string(bytes.size()) +
                " bytes) is not a usable isapack catalog (catalog: format version 3 was written by "
                "a newer isapack (this one reads version 2); upgrade isapack to read it, or "
                "rebuild the catalog with this one)");
  // The chosen entry's recorded hash, in a consistent table of contents. A
  // representative is checked when the catalog opens; a delta's hash stops
  // the load and the full check.
  auto parsed = isapack::Catalog::Parse(good);
  ASSERT_TRUE(parsed);
  const isapack::CatalogEntry entry = parsed->entry(own_entry_);
  bytes = good;
  bytes[sizeof(isapack::catalog_format::FileHeader) +
        own_entry_ * sizeof(isapack::catalog_format::Entry) +
        offsetof(isapack::catalog_format::Entry, xxh3_64)] ^= 1;
  isapack::ResealCatalog(&bytes);
  if (entry.representative()) {
    result = Take(isapack_catalog_open_memory(bytes.data(), bytes.size(), 0, &catalog));
    EXPECT_EQ(result.code, ISAPACK_STATUS_DATA_CORRUPT);
    EXPECT_NE(result.message.find("catalog: entry " + std::to_string(own_entry_) + " (" +
                                  std::string(entry.target_id) +
                                  "): its representative fails its XXH3-64 check"),
              std::string::npos)
        << result.message;
    EXPECT_EQ(catalog, nullptr);
    // A delta entry of the same catalog (a build for one family has none;
    // tests/unit/catalog_test.cc covers deltas too), damaged the same way,
    // opens and fails its check.
    size_t delta = 0;
    while (delta < parsed->size() && parsed->entry(delta).representative()) ++delta;
    if (delta < parsed->size()) {
      bytes = good;
      bytes[sizeof(isapack::catalog_format::FileHeader) +
            delta * sizeof(isapack::catalog_format::Entry) +
            offsetof(isapack::catalog_format::Entry, xxh3_64)] ^= 1;
      isapack::ResealCatalog(&bytes);
      ASSERT_OK(isapack_catalog_open_memory(bytes.data(), bytes.size(), 0, &catalog));
      result = Take(isapack_catalog_verify(catalog));
      EXPECT_EQ(result.code, ISAPACK_STATUS_DATA_CORRUPT);
      EXPECT_NE(result.message.find("catalog entry " + std::to_string(delta) + " (" +
                                    std::string(parsed->entry(delta).target_id) + ")"),
                std::string::npos)
          << result.message;
      isapack_catalog_close(catalog);
    }
  } else {
    ASSERT_OK(isapack_catalog_open_memory(bytes.data(), bytes.size(), 0, &catalog));
    result = Take(isapack_catalog_verify(catalog));
    EXPECT_EQ(result.code, ISAPACK_STATUS_DATA_CORRUPT);
    isapack_executable_t executable = nullptr;
    result = Take(isapack_device_load(device_, catalog, &executable));
    EXPECT_EQ(result.code, ISAPACK_STATUS_DATA_CORRUPT);
    EXPECT_NE(result.message.find("catalog entry " + std::to_string(own_entry_) + " (" +
                                  std::string(entry.target_id) + ")"),
              std::string::npos)
        << result.message;
    EXPECT_EQ(executable, nullptr);
    isapack_catalog_close(catalog);
  }
  // Not a catalog at all, and no file.
  const char text[] = "not a catalog, just text";
  result = Take(isapack_catalog_open_memory(text, sizeof(text), 0, &catalog));
  EXPECT_EQ(
      result.message,
      "the catalog in memory (25 bytes) is not a usable isapack catalog (catalog: image of 25 "
      "bytes is shorter than its header)");
  result = Take(isapack_catalog_open_file("/nonexistent/catalog.bin", &catalog));
  EXPECT_EQ(result.code, ISAPACK_STATUS_NOT_FOUND) << result.message;
  result = Take(isapack_catalog_open_memory(good.data(), good.size(), 2, &catalog));
  EXPECT_EQ(result.message, "flags has unknown bits 2; the only flag is ISAPACK_CATALOG_BORROW");
}

TEST_F(ProgramCatalogs, UnloadReleasesTheExecutableAndASecondUnloadIsRefused) {
  const size_t before = LiveHsaObjects();
  isapack_catalog_t catalog = nullptr;
  ASSERT_OK(isapack_catalog_open_builtin(&catalog));
  isapack_executable_t executable = Load(catalog);
  isapack_catalog_close(catalog);
  EXPECT_EQ(LiveHsaObjects(), before + 1) << "one HSA executable";
  ASSERT_OK(isapack_executable_unload(executable));
  EXPECT_EQ(LiveHsaObjects(), before);
  ASSERT_OK(isapack_executable_unload(nullptr));
}

}  // namespace
