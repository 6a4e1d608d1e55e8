// libFuzzer target: `isapack inspect` on one file, its whole path: the bytes
// are a file (a memfd) opened by the bounded reader, then sniffed and handed
// to the reader of their format (code object, offload bundle, CCOB, catalog,
// host ELF sections, ar archive members, embedded images). The report must
// be JSON that renders, and every target it names must come from a code
// object it lists.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "input_file.h"
#include "inspect.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int fd = memfd_create("isapack-inspect-fuzz", MFD_CLOEXEC);
  if (fd < 0) std::abort();
  for (size_t written = 0; written < size;) {
    const ssize_t n = write(fd, data + written, size - written);
    if (n <= 0) std::abort();
    written += static_cast<size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  auto file = isapack::OpenInputFile(path, uint64_t{1} << 20);
  if (!file || file->bytes().size() != size) std::abort();  // a regular file within the limit
  isapack::InspectLimits limits;
  limits.max_decompressed_bundle = 1 << 20;
  limits.max_code_objects = 64;
  const nlohmann::json report = isapack::InspectBytes(file->bytes(), limits);
  (void)isapack::FormatInspectReport(path, report);
  for (const nlohmann::json& target : report.at("targets")) {
    bool listed = false;
    for (const nlohmann::json& object : report.at("code_objects")) {
      listed = listed || (object.contains("target_id") && object.at("target_id") == target);
    }
    if (!listed) std::abort();
  }
  close(fd);
  return 0;
}
