#include "input_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

namespace isapack {
namespace {

namespace fs = std::filesystem;

// Pseudo files (/proc/self/maps) report size 0 yet have contents: they are
// read, in blocks, up to the limit.
constexpr size_t kReadBlock = 64 * 1024;

Error Unreadable(std::string message) {
  return MakeError(ISAPACK_STATUS_NOT_FOUND, std::move(message));
}

const char* TypeName(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  return "not a regular file";
}

Error OpenError(const std::string& path, int error) {
  if (error == ELOOP) {
    return Unreadable("cannot open " + path + ": a symbolic link loop (" + std::strerror(error) +
                      ")");
  }
  struct stat link{};
  if (error == ENOENT && lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    std::error_code ignored;
    return Unreadable("cannot open " + path + ": a symbolic link to '" +
                      fs::read_symlink(path, ignored).string() +
                      "', which does not exist (a dangling link)");
  }
  return Unreadable("cannot open " + path + ": " + std::strerror(error));
}

Error NotRegular(const std::string& path, mode_t mode) {
  return Unreadable(path + " is " + TypeName(mode) +
                    "; isapack reads regular files only (a device, FIFO or socket may never end); "
                    "copy the data to a file first");
}

Error TooLarge(const std::string& path, uint64_t size, uint64_t max_size) {
  return Unreadable(path + " is " + std::to_string(size) + " bytes, above the limit of " +
                    std::to_string(max_size) + " bytes; --max-file-size raises it");
}

// Reads a file whose size the kernel does not report, up to `max_size`.
Expected<std::vector<uint8_t>> ReadUnsized(int fd, const std::string& path, uint64_t max_size) {
  std::vector<uint8_t> bytes;
  for (;;) {
    const size_t at = bytes.size();
    bytes.resize(at + kReadBlock);
    const ssize_t got = read(fd, bytes.data() + at, kReadBlock);
    if (got < 0 && errno == EINTR) {
      bytes.resize(at);
      continue;
    }
    if (got < 0) return Unreadable("cannot read " + path + ": " + std::strerror(errno));
    bytes.resize(at + static_cast<size_t>(got));
    if (got == 0) return bytes;
    if (bytes.size() > max_size) return TooLarge(path, bytes.size(), max_size);
  }
}

void Walk(const fs::path& directory, std::vector<InputPath>* out) {
  std::error_code error;
  std::vector<fs::directory_entry> entries;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    entries.push_back(*it);
  }
  if (error) {
    out->push_back(
        {directory.string(), "cannot list " + directory.string() + ": " + error.message()});
    return;
  }
  std::sort(entries.begin(), entries.end(),
            [](const fs::directory_entry& a, const fs::directory_entry& b) {
              return a.path() < b.path();
            });
  for (const fs::directory_entry& entry : entries) {
    // Links to directories are not followed: no loops, no file read twice.
    if (entry.is_symlink(error) && entry.is_directory(error)) continue;
    if (entry.is_directory(error) && !entry.is_symlink(error)) {
      Walk(entry.path(), out);
    } else {
      out->push_back({entry.path().string(), ""});
    }
  }
}

}  // namespace

InputFile::InputFile(InputFile&& other) noexcept {
  *this = std::move(other);
}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this != &other) {
    this->~InputFile();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, false);
    owned_ = std::move(other.owned_);
    if (!mapped_) data_ = owned_.data();
  }
  return *this;
}

InputFile::~InputFile() {
  if (mapped_) munmap(const_cast<uint8_t*>(data_), size_);
  mapped_ = false;
  data_ = nullptr;
  size_ = 0;
}

Expected<InputFile> OpenInputFile(const std::string& path, uint64_t max_size) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) return OpenError(path, errno);
  if (!S_ISREG(info.st_mode)) return NotRegular(path, info.st_mode);
  if (static_cast<uint64_t>(info.st_size) > max_size) return TooLarge(path, info.st_size, max_size);
  // O_NONBLOCK: should the path be swapped for a FIFO after the check, open
  // does not wait for a writer; fstat below sees the swap.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return OpenError(path, errno);
  InputFile file;
  Status status;
  if (fstat(fd, &info) != 0) {
    status = Unreadable("cannot read " + path + ": " + std::strerror(errno));
  } else if (!S_ISREG(info.st_mode)) {
    status = NotRegular(path, info.st_mode);
  } else if (static_cast<uint64_t>(info.st_size) > max_size) {
    status = TooLarge(path, info.st_size, max_size);
  } else if (info.st_size == 0) {
    if (auto bytes = ReadUnsized(fd, path, max_size)) {
      file.owned_ = std::move(*bytes);
      file.data_ = file.owned_.data();
      file.size_ = file.owned_.size();
    } else {
      status = bytes.take_error();
    }
  } else {
    void* map = mmap(nullptr, static_cast<size_t>(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
      status = Unreadable("cannot map " + path + ": " + std::strerror(errno));
    } else {
      file.data_ = static_cast<const uint8_t*>(map);
      file.size_ = static_cast<size_t>(info.st_size);
      file.mapped_ = true;
    }
  }
  close(fd);
  if (!status) return status.take_error();
  return file;
}

Expected<InputFile> OpenSingleInputFile(const std::string& path, uint64_t max_size,
                                        std::string_view wanted) {
  struct stat info;
  if (stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    return Unreadable(path + " is a directory; this command reads one file (" +
                      std::string(wanted) + ")");
  }
  return OpenInputFile(path, max_size);
}

std::vector<InputPath> ExpandInputPaths(const std::vector<std::string>& paths) {
  std::vector<InputPath> out;
  for (const std::string& path : paths) {
    struct stat info;
    if (stat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
      out.push_back({path, ""});  // OpenInputFile names the problem
    } else {
      Walk(path, &out);
    }
  }
  return out;
}

}  // namespace isapack
