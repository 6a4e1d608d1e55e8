// Where a test finds what it needs. Each test binary reads
// isapack-test-paths.txt next to itself: KEY=VALUE lines, VALUE relative to
// that file's directory unless absolute. The build tree's file points into
// the build and source trees; the installed one (isapack-tests) points at
// installed files. ISAPACK_TEST_<KEY> in the environment overrides a key.
// No path is compiled in, so installed tests are relocatable and packages
// carry no build paths.
//   DATA_DIR       tests/ data: expansion/*.txt, selection/expectations.txt
//   SIMULATED_HSA  libisapack-simulated-hsa.so
//   CLI            the isapack command
//   MAKE_CATALOG   isapack_test_catalog
//   OFFLOAD_BUNDLER clang-offload-bundler (Debian: clang-tools-19)
//   CLANG, LLD     clang and ld.lld of the device LLVM (HIP compiles)
//   LLVM_AR, LLVM_OBJCOPY, LLVM_READELF  llvm-ar, llvm-objcopy and llvm-readelf of
//                  that LLVM (llvm-19)
//   BUILD_DIR      the build tree (build-tree runs only)
#ifndef ISAPACK_TESTS_SUPPORT_TEST_PATHS_H_
#define ISAPACK_TESTS_SUPPORT_TEST_PATHS_H_

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

namespace isapack::testing {

inline const std::map<std::string, std::string>& TestPathTable() {
  static const std::map<std::string, std::string> table = [] {
    std::map<std::string, std::string> paths;
    char exe[4096];
    const ssize_t length = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (length <= 0) return paths;
    std::string dir(exe, static_cast<size_t>(length));
    dir = dir.substr(0, dir.rfind('/'));
    std::ifstream in(dir + "/isapack-test-paths.txt");
    std::string line;
    while (std::getline(in, line)) {
      const size_t equals = line.find('=');
      if (line.empty() || line[0] == '#' || equals == std::string::npos) continue;
      std::string value = line.substr(equals + 1);
      if (!value.empty() && value[0] != '/') value = dir + "/" + value;
      paths[line.substr(0, equals)] = value;
    }
    return paths;
  }();
  return table;
}

// Why a BuildTree* test cannot run: the installed runner (run-tests) leaves
// those suites out with --gtest_filter; anywhere else their absence is a
// broken setup, not a reason to skip.
inline constexpr const char* kBuildTreeOnly =
    "BUILD_DIR is not set: BuildTree* tests compare with the build tree's own files and run only "
    "there "
    "(the installed run-tests leaves them out)";

// The path for `key`, or "" when this installation has none.
inline std::string TestPath(const std::string& key) {
  if (const char* value = std::getenv(("ISAPACK_TEST_" + key).c_str());
      value != nullptr && value[0] != '\0') {
    return value;
  }
  const auto& table = TestPathTable();
  const auto it = table.find(key);
  return it == table.end() ? "" : it->second;
}

}  // namespace isapack::testing

#endif  // ISAPACK_TESTS_SUPPORT_TEST_PATHS_H_
