// The AMDGPU target facts, as a constant table generated at build time from
// targets/amdgpu-targets.json (see targets/generate_target_table.cc).
// Every lookup in the runtime and the CLI goes through this file; nothing
// keeps a second list.
#ifndef ISAPACK_CORE_TARGET_TABLE_H_
#define ISAPACK_CORE_TARGET_TABLE_H_

#include <cstdint>
#include <span>
#include <string_view>

namespace isapack {

// Whether a processor has a target-ID feature (xnack, sramecc).
enum class FeatureSupport : uint8_t {
  kNone,       // The feature does not exist; the target ID never names it.
  kSupported,  // The feature exists and can be on, off or any.
  kAlways,     // Always on (gfx125x xnack); the target ID never names it.
};

// HSA ISA version major.minor.stepping (9.0.10 for gfx90a).
struct IsaVersion {
  uint8_t major;
  uint8_t minor;
  uint8_t stepping;
};

// One exact AMDGPU processor.
struct ProcessorInfo {
  std::string_view name;                       // "gfx1103"
  uint8_t mach;                                // EF_AMDGPU_MACH value (e_flags & 0xff)
  IsaVersion isa;                              // HSA ISA version
  FeatureSupport xnack;                        // xnack support
  FeatureSupport sramecc;                      // sramecc support
  int16_t generic;                             // index into Generics(), or -1 when none
  uint8_t generic_version;                     // generic version it joined its family at (0: none)
  uint8_t llvm;                                // first LLVM major that can build it (floor 19)
  uint8_t llvm_removed;                        // first LLVM major without it (0: still present)
  std::string_view product;                    // products[0], the name shown; empty when none
  std::span<const std::string_view> products;  // marketing names ("Radeon 780M", ...)
};

// One LLVM generic processor (code object v6 only).
struct GenericInfo {
  std::string_view name;              // "gfx11-generic"
  uint8_t mach;                       // EF_AMDGPU_MACH value
  FeatureSupport xnack;               // xnack support of the generic
  FeatureSupport sramecc;             // sramecc support of the generic
  uint8_t llvm;                       // first LLVM major that can build it
  std::span<const uint16_t> members;  // indices into Processors()
};

enum class GroupKind : uint8_t {
  kFamily,  // TheRock family, e.g. gfx110X-all
  kBundle,  // product bundle: dgpu-all, igpu-all, dcgpu-all, all
};

// A TheRock family or bundle: a named set of processors.
struct GroupInfo {
  std::string_view name;              // spelled exactly as TheRock does
  GroupKind kind;                     // family or bundle
  std::span<const uint16_t> members;  // indices into Processors()
};

std::span<const ProcessorInfo> Processors();
std::span<const GenericInfo> Generics();
std::span<const GroupInfo> Groups();

// Exact-name lookups; nullptr when absent.
const ProcessorInfo* FindProcessor(std::string_view name);
const GenericInfo* FindGeneric(std::string_view name);
const GroupInfo* FindGroup(std::string_view name);

// Lookups by EF_AMDGPU_MACH; nullptr when the value is not in the table.
const ProcessorInfo* FindProcessorByMach(uint8_t mach);
const GenericInfo* FindGenericByMach(uint8_t mach);

// Index helpers for tables that refer to each other.
size_t IndexOf(const ProcessorInfo& processor);
size_t IndexOf(const GenericInfo& generic);
const GenericInfo* GenericOf(const ProcessorInfo& processor);

// True when a compiler of LLVM major `llvm_major` has the processor or generic
// according to the table (first major, removal major).
bool LlvmHas(const ProcessorInfo& processor, unsigned llvm_major);
bool LlvmHas(const GenericInfo& generic, unsigned llvm_major);

std::string_view ToString(FeatureSupport support);

}  // namespace isapack

#endif  // ISAPACK_CORE_TARGET_TABLE_H_
