// `isapack inspect`: finds the AMDGPU code in any file and reports the GPU
// targets it supports. Understands code objects, clang offload bundles
// (uncompressed and CCOB v1-v3 with zstd or zlib), isapack catalogs, and host
// binaries or libraries carrying any of these (HIP's .hip_fatbin section,
// isapack's .isapack_catalog section, raw embedded ELF images as ROCr's own
// blit kernels are). Input is untrusted: every size is bounded and every
// offset checked; damage is reported, never trusted.
#ifndef ISAPACK_CLI_INSPECT_H_
#define ISAPACK_CLI_INSPECT_H_

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>

namespace isapack {

struct InspectLimits {
  uint64_t max_decompressed_bundle = uint64_t{256} << 20;  // per compressed bundle
  size_t max_code_objects = 4096;                          // reported per file
  bool kernels = true;  // read each code object's kernel metadata
  // The bytes are a read-only mapping of a file: the pages of each bundle in
  // a .hip_fatbin are released once it is read (MADV_DONTNEED; they stay in
  // the page cache), so a large library's scan never holds them all.
  bool release_mapped_pages = false;
};

// The report for one file's bytes (schema: tools/cli/isapack.1, JSON OUTPUT).
nlohmann::json InspectBytes(std::span<const uint8_t> data, const InspectLimits& limits = {});

// Renders an InspectBytes report for people.
std::string FormatInspectReport(const std::string& path, const nlohmann::json& report);

}  // namespace isapack

#endif  // ISAPACK_CLI_INSPECT_H_
