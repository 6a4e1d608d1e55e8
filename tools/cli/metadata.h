// Reads the AMDGPU metadata note (NT_AMDGPU_METADATA, MessagePack) of a code
// object: its target and each kernel's name and sizes. Input is untrusted:
// nesting is limited before any DOM is built.
#ifndef ISAPACK_CLI_METADATA_H_
#define ISAPACK_CLI_METADATA_H_

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>

#include "error.h"

namespace isapack {

inline constexpr int kMaxMetadataDepth = 32;

// The metadata as JSON, or an error for malformed or too deeply nested input.
Expected<nlohmann::json> ParseMetadataNote(std::span<const uint8_t> note);

struct KernelMetadata {
  std::string name;    // .name
  std::string symbol;  // .symbol ("<name>.kd")
  uint64_t kernarg_segment_size = 0;
  uint64_t group_segment_fixed_size = 0;
  uint64_t private_segment_fixed_size = 0;
  uint64_t wavefront_size = 0;
};

struct CodeObjectMetadata {
  std::string target;  // amdhsa.target, e.g. "amdgcn-amd-amdhsa--gfx11-generic"
  std::vector<KernelMetadata> kernels;
};

// Extracts the fields isapack reports; unknown fields are ignored.
Expected<CodeObjectMetadata> ReadCodeObjectMetadata(std::span<const uint8_t> note);

}  // namespace isapack

#endif  // ISAPACK_CLI_METADATA_H_
