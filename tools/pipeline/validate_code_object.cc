// Build-time gate for every code object:
//   isapack_validate_code_object <input> <output> <target-id> <code-object-version>
// Validates <input> against what the build asked for (code_object.h) — its
// AMDGPU metadata must read and list at least one kernel, each with its
// descriptor — and only then writes <output>, through a temporary file and
// a rename. Any device library's code objects pass through it
// (isapack_add_device_library); nothing here knows isapack's own kernels. On failure it
// prints one line per mismatch, naming the object, removes any stale
// <output> and exits 1, so the build stops and nothing half-checked is
// embedded.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "code_object.h"
#include "input_file.h"
#include "kernel_metadata.h"
#include "output_file.h"

namespace {

int Fail(const std::string& output, const std::string& message) {
  std::remove(output.c_str());
  std::cerr << "isapack: code object " << output << ": " << message << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: " << argv[0] << " <input> <output> <target-id> <code-object-version>\n";
    return 2;
  }
  const std::string input = argv[1];
  const std::string output = argv[2];
  const std::string target_text = argv[3];
  char* end = nullptr;
  const unsigned long version = std::strtoul(argv[4], &end, 10);
  if (argv[4][0] == '\0' || *end != '\0' || version < 2 || version > 6) {
    return Fail(output,
                std::string("code object version '") + argv[4] + "' is not 2, 3, 4, 5 or 6");
  }

  isapack::TargetId target;
  const isapack::TargetIdParse parse = isapack::ParseTargetId(target_text, &target);
  if (parse.error != isapack::TargetIdError::kOk) {
    return Fail(output, isapack::DescribeTargetIdError(target_text, parse));
  }
  // Checked before a byte is read: a regular file of at most 1 GiB, mapped.
  auto file = isapack::OpenSingleInputFile(input, isapack::kDefaultMaxFileSize, "a code object");
  if (!file) return Fail(output, file.error().message);
  const std::span<const uint8_t> image = file->bytes();
  const std::vector<std::string> problems =
      isapack::ValidateDeviceCode(image, target, static_cast<unsigned>(version));
  if (!problems.empty()) {
    std::string message = "does not match " + target_text + " (code object v" + argv[4] + "):";
    for (const std::string& problem : problems) message += "\n  " + problem;
    return Fail(output, message);
  }
  if (isapack::Status status = isapack::WriteFileAtomically(output, image); !status)
    return Fail(output, status.error().message);
  return 0;
}
