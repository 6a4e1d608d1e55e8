#include "target_table.h"

namespace isapack {
namespace {
#include "isapack/generated/target_table.inc"
}  // namespace

std::span<const ProcessorInfo> Processors() {
  return kProcessorTable;
}
std::span<const GenericInfo> Generics() {
  return kGenericTable;
}
std::span<const GroupInfo> Groups() {
  return kGroupTable;
}

const ProcessorInfo* FindProcessor(std::string_view name) {
  for (const ProcessorInfo& processor : kProcessorTable) {
    if (processor.name == name) return &processor;
  }
  return nullptr;
}

const GenericInfo* FindGeneric(std::string_view name) {
  for (const GenericInfo& generic : kGenericTable) {
    if (generic.name == name) return &generic;
  }
  return nullptr;
}

const GroupInfo* FindGroup(std::string_view name) {
  for (const GroupInfo& group : kGroupTable) {
    if (group.name == name) return &group;
  }
  return nullptr;
}

const ProcessorInfo* FindProcessorByMach(uint8_t mach) {
  for (const ProcessorInfo& processor : kProcessorTable) {
    if (processor.mach == mach) return &processor;
  }
  return nullptr;
}

const GenericInfo* FindGenericByMach(uint8_t mach) {
  for (const GenericInfo& generic : kGenericTable) {
    if (generic.mach == mach) return &generic;
  }
  return nullptr;
}

size_t IndexOf(const ProcessorInfo& processor) {
  return static_cast<size_t>(&processor - kProcessorTable);
}

size_t IndexOf(const GenericInfo& generic) {
  return static_cast<size_t>(&generic - kGenericTable);
}

const GenericInfo* GenericOf(const ProcessorInfo& processor) {
  return processor.generic < 0 ? nullptr : &kGenericTable[processor.generic];
}

bool LlvmHas(const ProcessorInfo& processor, unsigned llvm_major) {
  return llvm_major >= processor.llvm &&
         (processor.llvm_removed == 0 || llvm_major < processor.llvm_removed);
}

bool LlvmHas(const GenericInfo& generic, unsigned llvm_major) {
  return llvm_major >= generic.llvm;
}

std::string_view ToString(FeatureSupport support) {
  switch (support) {
    case FeatureSupport::kNone:
      return "none";
    case FeatureSupport::kSupported:
      return "supported";
    case FeatureSupport::kAlways:
      return "always";
  }
  return "none";
}

}  // namespace isapack
