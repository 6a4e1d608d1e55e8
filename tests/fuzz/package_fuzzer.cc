// libFuzzer target: `isapack coverage` on one package file held in memory,
// read as what its first bytes say it is: a .deb (an ar archive: libarchive's
// ar reader, then the control and data tar members through every filter), an
// .rpm (the lead and headers read here, the cpio payload by libarchive) or a
// loose file. Every problem must be an error naming the package; every code
// object found must have a target; the package list must name one package
// for a .deb or .rpm.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "scan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr uint8_t kRpmLead[4] = {0xed, 0xab, 0xee, 0xdb};
  std::string name = "fuzz.bin";
  if (size >= 8 && std::memcmp(data, "!<arch>\n", 8) == 0) name = "fuzz.deb";
  if (size >= 4 && std::memcmp(data, kRpmLead, 4) == 0) name = "fuzz.rpm";
  isapack::scan::ScanOptions options;
  options.max_file_size = uint64_t{1} << 20;
  options.jobs = 1;
  const isapack::scan::ScanResult result =
      isapack::scan::ScanPackageBytes({data, size}, name, options);
  if (name != "fuzz.bin" && result.packages.size() != 1) std::abort();
  for (const std::string& error : result.errors) {
    if (error.rfind(name, 0) != 0 || error.size() <= name.size()) std::abort();
  }
  for (const isapack::scan::ScannedFile& file : result.files) {
    if (file.path.rfind(name, 0) != 0) std::abort();
    for (const std::string& error : file.errors) {
      if (error.empty()) std::abort();
    }
    for (const isapack::scan::FoundObject& object : file.objects) {
      if (object.target_id.empty()) std::abort();
    }
  }
  return 0;
}
