// The kernels a code object describes in its AMDGPU metadata note
// (NT_AMDGPU_METADATA, msgpack, code object v3 and newer): what a runtime
// needs to dispatch one by name — its descriptor symbol, kernarg segment
// size and alignment, group and private segment sizes and its arguments —
// and what `isapack inspect` reports. Input is untrusted: nesting is
// limited before the parser recurses.
#ifndef ISAPACK_CORE_KERNEL_METADATA_H_
#define ISAPACK_CORE_KERNEL_METADATA_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "error.h"
#include "target_id.h"

namespace isapack {

struct KernelArgument {
  std::string name;        // .name; empty when the compiler recorded none
  std::string value_kind;  // .value_kind: by_value, global_buffer, hidden_*, ...
  uint32_t offset = 0;     // .offset in the kernarg segment
  uint32_t size = 0;       // .size in bytes
  bool hidden() const { return value_kind.starts_with("hidden_"); }
};

struct KernelMetadata {
  std::string name;    // .name, e.g. "saxpy"
  std::string symbol;  // .symbol, the kernel descriptor, e.g. "saxpy.kd"
  uint32_t kernarg_segment_size = 0;
  uint32_t kernarg_segment_align = 0;
  uint32_t group_segment_fixed_size = 0;
  uint32_t private_segment_fixed_size = 0;
  uint32_t wavefront_size = 0;
  uint32_t max_flat_workgroup_size = 0;
  std::vector<KernelArgument> args;

  // Bytes of the arguments the caller passes: up to the end of the last
  // argument that is not hidden (the rest the runtime fills in, or zero).
  uint32_t explicit_kernarg_size() const;
};

struct CodeObjectMetadata {
  std::string target;  // amdhsa.target, e.g. "amdgcn-amd-amdhsa--gfx11-generic"
  std::vector<KernelMetadata> kernels;
};

// Reads the descriptor of a metadata note (FindMetadataNote). Fails with
// DATA_CORRUPT (naming the field) when it is not msgpack, nests deeper than
// AMDGPU metadata does, or lacks or mistypes a field a dispatch needs.
Expected<CodeObjectMetadata> ReadMetadataNote(std::span<const uint8_t> note);

// The kernels of `image`, in the order the metadata lists them. A code
// object without a metadata note has none.
Expected<std::vector<KernelMetadata>> ReadKernelMetadata(std::span<const uint8_t> image);

// The check every code object of a device library passes — compiled or
// prebuilt: ValidateCodeObject against `target` and `code_object_version`,
// with the kernels its own metadata lists, which must read and name at
// least one. One message per problem; empty when it passes.
std::vector<std::string> ValidateDeviceCode(std::span<const uint8_t> image, const TargetId& target,
                                            unsigned code_object_version);

}  // namespace isapack

#endif  // ISAPACK_CORE_KERNEL_METADATA_H_
