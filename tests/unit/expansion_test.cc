// The expansion engine (core/src/expansion.cc, the only one: configure
// runs it too) against the case files in tests/expansion: exact results and
// messages for every hand-written case and every family and bundle.
//
// Case file format, one block per case:
//   case <name>
//   selectors <selector> [<selector>...]   (space separated, "" for an empty item)
//   mode generic|exact                     (default generic)
//   llvm 19|20|23                          (tests/expansion/llvm<N>.txt; default 19)
//   version 4|5                            (default 5)
//   strict ON|OFF                          (default OFF)
//   expect                                 then `object ...`/`left-out ...` lines
//   error                                  or the exact error message lines
//   end
// Lines starting with '#' outside a block are comments.
#include "expansion.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_paths.h"

namespace isapack {
namespace {

std::string Dir() {
  return testing::TestPath("DATA_DIR") + "/expansion";
}

std::vector<std::string> CompilerList(const std::string& llvm) {
  std::ifstream in(Dir() + "/llvm" + llvm + ".txt");
  std::vector<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') names.push_back(line);
  }
  return names;
}

// Splits like CMake's separate_arguments(UNIX_COMMAND): spaces separate,
// double quotes group.
std::vector<std::string> SplitArguments(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  bool quoted = false, have = false;
  for (char c : text) {
    if (c == '"') {
      quoted = !quoted;
      have = true;
    } else if (c == ' ' && !quoted) {
      if (have) out.push_back(current);
      current.clear();
      have = false;
    } else {
      current += c;
      have = true;
    }
  }
  if (have) out.push_back(current);
  return out;
}

struct Case {
  std::string name;
  ExpansionOptions options;
  std::string kind;
  std::string body;
};

std::vector<Case> ReadCases(const std::string& file) {
  std::ifstream in(Dir() + "/" + file);
  std::vector<Case> cases;
  std::string line;
  Case current;
  bool in_body = false;
  std::string llvm = "19";
  while (std::getline(in, line)) {
    if (in_body) {
      if (line == "end") {
        current.options.supported = CompilerList(llvm);
        current.options.llvm_major = static_cast<unsigned>(std::stoul(llvm));
        cases.push_back(current);
        in_body = false;
      } else {
        current.body += line + "\n";
      }
    } else if (line.rfind("case ", 0) == 0) {
      current = Case{line.substr(5), {}, "", ""};
      llvm = "19";
    } else if (line.rfind("selectors", 0) == 0) {
      current.options.selectors = SplitArguments(line.size() > 10 ? line.substr(10) : "");
    } else if (line.rfind("mode ", 0) == 0) {
      current.options.mode = line.substr(5);
    } else if (line.rfind("llvm ", 0) == 0) {
      llvm = line.substr(5);
    } else if (line.rfind("version ", 0) == 0) {
      current.options.code_object_version = line.substr(8);
    } else if (line.rfind("strict ", 0) == 0) {
      current.options.strict = line.substr(7) == "ON";
    } else if (line == "expect" || line == "error") {
      current.kind = line;
      in_body = true;
    }
  }
  return cases;
}

void RunCases(const std::string& file, size_t expected_count) {
  const std::vector<Case> cases = ReadCases(file);
  EXPECT_EQ(cases.size(), expected_count);
  for (const Case& c : cases) {
    auto result = Expand(c.options);
    if (c.kind == "error") {
      ASSERT_FALSE(result) << c.name;
      EXPECT_EQ(result.error().message + "\n", c.body) << c.name;
    } else {
      ASSERT_TRUE(result) << c.name << ": " << result.error().message;
      EXPECT_EQ(FormatExpansionLines(*result), c.body) << c.name;
    }
  }
}

TEST(Expansion, HandWrittenCasesExpandToExactlyTheExpectedObjectsAndMessages) {
  RunCases("cases.txt", 48);
}

TEST(Expansion, EveryGroupInBothModesForLlvm19And20And23ExpandsAsRecorded) {
  RunCases("group_cases.txt", 156);
}

TEST(Expansion, SupportedByLlvmFollowsTheTable) {
  const std::vector<std::string> llvm19 = SupportedByLlvm(19);
  EXPECT_NE(std::find(llvm19.begin(), llvm19.end(), "gfx11-generic"), llvm19.end());
  EXPECT_EQ(std::find(llvm19.begin(), llvm19.end(), "gfx950"), llvm19.end());
  const std::vector<std::string> llvm23 = SupportedByLlvm(23);
  EXPECT_EQ(std::find(llvm23.begin(), llvm23.end(), "gfx940"), llvm23.end());
  EXPECT_NE(std::find(llvm23.begin(), llvm23.end(), "gfx13-generic"), llvm23.end());
}

}  // namespace
}  // namespace isapack
