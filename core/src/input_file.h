// Opening the files a user hands isapack (the command and the build tools),
// checked before a byte is read. Regular files up to a limit are mapped (not
// copied); directories are walked where a command accepts them; devices,
// FIFOs and sockets are refused with their type named, so `/dev/zero` or a
// FIFO can never make the command read forever.
#ifndef ISAPACK_CORE_INPUT_FILE_H_
#define ISAPACK_CORE_INPUT_FILE_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "error.h"

namespace isapack {

// The default largest file a command reads (--max-file-size raises it).
inline constexpr uint64_t kDefaultMaxFileSize = uint64_t{1} << 30;

// A regular file's bytes, mapped read-only; unmapped on destruction.
class InputFile {
 public:
  InputFile() = default;
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  // True when bytes() is a read-only mapping of the file (not a copy).
  bool mapped() const { return mapped_; }

 private:
  friend Expected<InputFile> OpenInputFile(const std::string& path, uint64_t max_size);
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;         // data_ is an mmap of size_ bytes
  std::vector<uint8_t> owned_;  // or a pseudo file's bytes, read
};

// Opens a regular file of at most `max_size` bytes. Anything else is an
// error naming the path, what it is and what to do instead.
Expected<InputFile> OpenInputFile(const std::string& path, uint64_t max_size);

// OpenInputFile for a command that reads exactly one file: a directory is
// refused with a message naming what the command wants (`wanted`, such as
// "a libisapack or a catalog").
Expected<InputFile> OpenSingleInputFile(const std::string& path, uint64_t max_size,
                                        std::string_view wanted);

// One path named on the command line, resolved to the files to read.
struct InputPath {
  std::string path;
  std::string error;  // empty: read `path`
};

// Expands command-line paths: a directory stands for every file below it, in
// sorted order (symbolic links to directories are not followed, so links
// cannot loop); a path that cannot be used is kept with its error so the
// caller reports it and goes on.
std::vector<InputPath> ExpandInputPaths(const std::vector<std::string>& paths);

}  // namespace isapack

#endif  // ISAPACK_CORE_INPUT_FILE_H_
