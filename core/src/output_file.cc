#include "output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace isapack {

Status WriteFileAtomically(const std::string& path, std::span<const uint8_t> bytes) {
  const std::string temporary = path + ".tmp";
  std::FILE* out = std::fopen(temporary.c_str(), "wb");
  if (out == nullptr) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     "cannot write " + temporary + ": " + std::strerror(errno));
  }
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
  const int write_errno = errno;
  if (std::fclose(out) != 0 || !written) {
    const int reason = written ? errno : write_errno;
    std::remove(temporary.c_str());
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     "cannot write " + temporary + ": " + std::strerror(reason));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int reason = errno;
    std::remove(temporary.c_str());
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     "cannot rename " + temporary + " to " + path + ": " + std::strerror(reason));
  }
  return {};
}

}  // namespace isapack
