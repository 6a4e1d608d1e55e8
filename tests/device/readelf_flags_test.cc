// Reads each code object of this build with LLVM's own llvm-readelf (a
// reader independent of isapack's) and compares its ELF header with what
// core's one e_flags encoder (CodeObjectFlags) says the target carries, and
// its ABI version with the code object version the build record names (v<n>
// is ABI n - 2). The encoder itself is held to the values the reference
// documents in tests/unit/code_object_test.cc.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <string>

#include "code_object.h"
#include "input_file.h"
#include "isapack/device/kernel_args.h"
#include "kernel_metadata.h"
#include "support/test_paths.h"
#include "target_id.h"

namespace isapack {
namespace {

TargetId Target(const std::string& text) {
  TargetId id;
  EXPECT_EQ(ParseTargetId(text, &id).error, TargetIdError::kOk) << text;
  return id;
}

struct Header {
  unsigned abi = 0;
  uint32_t flags = 0;
};

// llvm-readelf -h of `path`: the ABI version and e_flags it prints.
Header ReadelfHeader(const std::string& readelf, const std::string& path) {
  const std::string command = "'" + readelf + "' -h '" + path + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr) << command;
  std::string out;
  char buffer[4096];
  for (size_t n; pipe != nullptr && (n = fread(buffer, 1, sizeof(buffer), pipe)) > 0;)
    out.append(buffer, n);
  const int status = pipe != nullptr ? pclose(pipe) : -1;
  EXPECT_EQ(status, 0) << command << ":\n" << out;
  Header header;
  std::smatch match;
  if (std::regex_search(out, match, std::regex("ABI Version: +([0-9]+)"))) {
    header.abi = static_cast<unsigned>(std::stoul(match[1]));
  } else {
    ADD_FAILURE() << path << ": llvm-readelf printed no ABI version:\n" << out;
  }
  if (std::regex_search(out, match, std::regex("Flags: +0x([0-9A-Fa-f]+)"))) {
    header.flags = static_cast<uint32_t>(std::stoul(match[1], nullptr, 16));
  } else {
    ADD_FAILURE() << path << ": llvm-readelf printed no flags:\n" << out;
  }
  return header;
}

TEST(BuildTreeCodeObjects, LlvmReadelfSeesTheFlagsOfTheTargetAndTheAbiOfTheVersion) {
  const std::string build = testing::TestPath("BUILD_DIR");
  ASSERT_FALSE(build.empty()) << testing::kBuildTreeOnly;
  const std::string readelf = testing::TestPath("LLVM_READELF");
  ASSERT_FALSE(readelf.empty()) << "LLVM_READELF is not set: install llvm-19";
  std::ifstream in(build + "/isapack-targets.json");
  ASSERT_TRUE(in) << build << "/isapack-targets.json";
  const nlohmann::json record = nlohmann::json::parse(in);
  const nlohmann::json& objects = record.at("code_objects");
  ASSERT_FALSE(objects.empty());
  for (const nlohmann::json& object : objects) {
    const std::string id = object.at("target_id").get<std::string>();
    const unsigned version = object.at("code_object_version").get<unsigned>();
    const Header header =
        ReadelfHeader(readelf, build + "/device_library/" + object.at("file").get<std::string>());
    EXPECT_EQ(header.flags, CodeObjectFlags(Target(id))) << id;
    EXPECT_EQ(header.abi, version - 2) << id << " v" << version;  // ELFABIVERSION_AMDGPU_HSA_V<n>
  }
}

// The metadata of every code object of this build lists isapack's three
// kernels with their descriptor symbols, and each takes exactly its argument
// struct (explicit bytes) in a segment at least that large.
TEST(BuildTreeCodeObjects, MetadataListsEachKernelWithItsArgumentStructSize) {
  const std::string build = testing::TestPath("BUILD_DIR");
  ASSERT_FALSE(build.empty()) << testing::kBuildTreeOnly;
  std::ifstream in(build + "/isapack-targets.json");
  ASSERT_TRUE(in) << build << "/isapack-targets.json";
  const nlohmann::json record = nlohmann::json::parse(in);
  const std::map<std::string, uint32_t> expected = {
      {"isapack_fill", sizeof(isapack_fill_args_t)},
      {"isapack_copy", sizeof(isapack_copy_args_t)},
      {"isapack_probe", sizeof(isapack_probe_args_t)}};
  for (const nlohmann::json& object : record.at("code_objects")) {
    const std::string id = object.at("target_id").get<std::string>();
    auto file = OpenInputFile(build + "/device_library/" + object.at("file").get<std::string>(),
                              kDefaultMaxFileSize);
    ASSERT_TRUE(file) << file.error().message;
    auto kernels = ReadKernelMetadata(file->bytes());
    ASSERT_TRUE(kernels) << id << ": " << kernels.error().message;
    std::map<std::string, uint32_t> seen;
    for (const KernelMetadata& kernel : *kernels) {
      EXPECT_EQ(kernel.symbol, kernel.name + ".kd") << id;
      EXPECT_GE(kernel.kernarg_segment_size, kernel.explicit_kernarg_size()) << id;
      EXPECT_EQ(kernel.kernarg_segment_align % 8, 0u) << id << " " << kernel.name;
      seen[kernel.name] = kernel.explicit_kernarg_size();
    }
    EXPECT_EQ(seen, expected) << id;
  }
}

}  // namespace
}  // namespace isapack
