// Through libisapack's C API: every embedded catalog entry decompresses to
// the .hsaco the build produced, byte for byte, with the recorded hash, in
// the expansion's order.
#include <gtest/gtest.h>
#include <xxhash.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "isapack/isapack.h"

#include "support/test_paths.h"

namespace {

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

// The build tree, for comparing with what the build wrote; installed test
// runs have none and skip those comparisons.
std::string BuildDir() {
  return isapack::testing::TestPath("BUILD_DIR");
}
using isapack::testing::kBuildTreeOnly;

nlohmann::json TargetsJson() {
  std::ifstream in(BuildDir() + "/isapack-targets.json");
  return nlohmann::json::parse(in);
}

TEST(EmbeddedCatalog, HoldsEveryCodeObjectOfTheExpansionInOrder) {
  // The build info embedded with the catalog is the expansion's result.
  const nlohmann::json expansion = nlohmann::json::parse(isapack_build_info_json());
  const auto& objects = expansion.at("code_objects");
  ASSERT_EQ(isapack_catalog_entry_count(), objects.size());
  for (size_t i = 0; i < objects.size(); ++i) {
    isapack_catalog_entry_info_t info;
    ASSERT_EQ(isapack_catalog_entry_info(i, &info), nullptr);
    EXPECT_EQ(info.target_id, objects[i].at("target_id").get<std::string>());
    EXPECT_EQ(info.code_object_version, objects[i].at("code_object_version").get<unsigned>());
    std::string covers;
    for (const auto& target : objects[i].at("covers")) {
      covers += (covers.empty() ? "" : " ") + target.get<std::string>();
    }
    EXPECT_EQ(info.covers, covers);
  }
}

TEST(BuildTreeCatalog, EachEntryDecompressesToTheBuiltCodeObject) {
  ASSERT_FALSE(BuildDir().empty()) << kBuildTreeOnly;
  const size_t count = isapack_catalog_entry_count();
  ASSERT_GT(count, 0u);
  for (size_t i = 0; i < count; ++i) {
    isapack_catalog_entry_info_t info;
    ASSERT_EQ(isapack_catalog_entry_info(i, &info), nullptr);
    const std::vector<uint8_t> built =
        ReadFile(BuildDir() + "/device_library/amdgcn-amd-amdhsa--" + info.target_id + ".hsaco");
    ASSERT_FALSE(built.empty()) << info.target_id;
    std::vector<uint8_t> extracted(info.uncompressed_size);
    isapack_status_t status = isapack_catalog_entry_extract(i, extracted.data(), extracted.size());
    ASSERT_EQ(status, nullptr) << isapack_status_message(status);
    EXPECT_EQ(extracted, built) << info.target_id;
    EXPECT_EQ(XXH3_64bits(built.data(), built.size()), info.xxh3_64) << info.target_id;
    EXPECT_LT(info.compressed_size, info.uncompressed_size) << info.target_id;
  }
}

TEST(EmbeddedCatalog, ExtractChecksItsArguments) {
  isapack_catalog_entry_info_t info;
  ASSERT_EQ(isapack_catalog_entry_info(0, &info), nullptr);
  std::vector<uint8_t> small(info.uncompressed_size - 1);
  isapack_status_t status = isapack_catalog_entry_extract(0, small.data(), small.size());
  EXPECT_EQ(isapack_status_code(status), ISAPACK_STATUS_INVALID_ARGUMENT);
  isapack_status_free(status);
  status = isapack_catalog_entry_extract(isapack_catalog_entry_count(), small.data(), small.size());
  EXPECT_EQ(isapack_status_code(status), ISAPACK_STATUS_NOT_FOUND);
  EXPECT_EQ(std::string(isapack_status_message(status)),
            "catalog entry " + std::to_string(isapack_catalog_entry_count()) +
                " does not exist; the catalog has " +
                std::to_string(isapack_catalog_entry_count()) + " entries");
  isapack_status_free(status);
  status = isapack_catalog_entry_info(0, nullptr);
  EXPECT_EQ(isapack_status_code(status), ISAPACK_STATUS_INVALID_ARGUMENT);
  isapack_status_free(status);
}

TEST(EmbeddedCatalog, CarriesTheBuildInfoOfThisVersion) {
  const nlohmann::json info = nlohmann::json::parse(isapack_build_info_json());
  EXPECT_EQ(info.at("isapack_version").get<std::string>(), isapack_version());
}

TEST(BuildTreeCatalog, CarriesTheBuildTreesIsapackTargetsJson) {
  ASSERT_FALSE(BuildDir().empty()) << kBuildTreeOnly;
  EXPECT_EQ(nlohmann::json::parse(isapack_build_info_json()), TargetsJson());
}

}  // namespace
