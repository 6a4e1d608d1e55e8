// WriteFileAtomically: the file appears whole or not at all.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "output_file.h"

namespace isapack {
namespace {

namespace fs = std::filesystem;

fs::path Scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("isapack-output-file-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::remove_all(dir / name);
  return dir / name;
}

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(WriteFileAtomically, ReplacesTheFileAndLeavesNoTemporary) {
  const fs::path path = Scratch("record.json");
  std::ofstream(path) << "old";
  const std::vector<uint8_t> bytes = {'n', 'e', 'w', 0, 0xff};
  ASSERT_TRUE(WriteFileAtomically(path.string(), bytes));
  EXPECT_EQ(ReadText(path), std::string("new\0\xff", 5));
  EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
}

TEST(WriteFileAtomically, AMissingDirectoryIsAnErrorNamingTheTemporary) {
  const fs::path path = Scratch("missing") / "catalog.bin";
  const Status status = WriteFileAtomically(path.string(), std::vector<uint8_t>{1, 2, 3});
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().message,
            "cannot write " + path.string() + ".tmp: No such file or directory");
}

TEST(WriteFileAtomically, ARenameThatFailsKeepsTheTargetAndRemovesTheTemporary) {
  const fs::path path = Scratch("a-directory");
  fs::create_directories(path / "inside");
  const Status status = WriteFileAtomically(path.string(), std::vector<uint8_t>{1});
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().message,
            "cannot rename " + path.string() + ".tmp to " + path.string() + ": Is a directory");
  EXPECT_TRUE(fs::is_directory(path / "inside"));
  EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
}

}  // namespace
}  // namespace isapack
