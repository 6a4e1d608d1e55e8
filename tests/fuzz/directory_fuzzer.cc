// libFuzzer target: the directory walker of `isapack coverage` and `isapack
// inspect` (ExpandInputPaths, then the parallel file scan) on a tree the
// input describes: regular files with the input's bytes, subdirectories,
// symbolic links (to files, to directories, to themselves, in loops, to
// nothing, out of the tree), FIFOs and empty files. The walk must end, name
// each path it could not read with the reason, and never leave the tree.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "scan.h"

namespace {

[[noreturn]] void Fail(const std::string& what, const std::string& path, const std::string& error) {
  std::fprintf(stderr, "directory fuzzer: %s: path '%s', error '%s'\n", what.c_str(), path.c_str(),
               error.c_str());
  std::abort();
}

std::string Root() {
  static const std::string root = [] {
    const char* shm = "/dev/shm";
    const std::string base = access(shm, W_OK) == 0 ? shm : std::filesystem::temp_directory_path();
    std::string templ = base + "/isapack-directory-fuzz-XXXXXX";
    if (mkdtemp(templ.data()) == nullptr) std::abort();
    return templ;
  }();
  return root;
}

// Link targets: relative, absolute, dangling, self and loops.
const char* const kTargets[] = {".",         "..",           "a",        "b", "../a", "d/a",
                                "/dev/null", "/nonexistent", "../../..", "x", "d"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string root = Root() + "/tree";
  std::filesystem::remove_all(root);
  std::filesystem::create_directory(root);
  std::string dir = root;
  size_t at = 0;
  auto next = [&]() -> uint8_t { return at < size ? data[at++] : 0; };
  for (int ops = 0; at < size && ops < 64; ++ops) {
    const uint8_t op = next();
    const std::string name = std::string(1, static_cast<char>('a' + next() % 4));
    const std::string path = dir + "/" + name;
    switch (op % 6) {
      case 0: {  // a file: a length byte, then that many bytes of content
        const size_t length = std::min<size_t>(next() * 16u, size - at);
        const int fd = open(
            path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
        if (fd >= 0) {
          [[maybe_unused]] const ssize_t written = write(fd, data + at, length);
          close(fd);
        }
        at += length;
        break;
      }
      case 1:  // a subdirectory, entered
        if (mkdir(path.c_str(), 0755) == 0 && dir.size() < root.size() + 32) dir = path;
        break;
      case 2:  // back up one level
        if (dir != root) dir = dir.substr(0, dir.rfind('/'));
        break;
      case 3:
        (void)symlink(kTargets[next() % std::size(kTargets)], path.c_str());
        break;
      case 4:
        (void)mkfifo(path.c_str(), 0644);
        break;
      default:  // an empty file

        if (const int fd =
                open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
            fd >= 0)
          close(fd);
        break;
    }
  }
  isapack::scan::ScanOptions options;
  options.max_file_size = uint64_t{1} << 20;
  options.jobs = 1 + size % 2;
  const isapack::scan::ScanResult result = isapack::scan::ScanPaths({root}, options);
  for (const isapack::scan::ScannedFile& file : result.files) {
    if (file.path.rfind(root + "/", 0) != 0) Fail("outside the tree", file.path, "");
    for (const std::string& error : file.errors) {
      if (error.find(file.path) == std::string::npos)
        Fail("an error that does not name its path", file.path, error);
    }
    for (const isapack::scan::FoundObject& object : file.objects) {
      if (object.target_id.empty()) Fail("a code object without a target", file.path, "");
    }
  }
  return 0;
}
