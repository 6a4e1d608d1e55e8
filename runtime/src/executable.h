// A catalog loaded on one GPU agent: the entry selected for the agent's ISA
// list (exact beats generic), checked before HSA sees it, loaded into an HSA
// executable and frozen, with every kernel its metadata lists resolved for
// dispatch. isapack's own device library (fill, copy, probe) is loaded the
// same way as any program's catalog.
#ifndef ISAPACK_RUNTIME_EXECUTABLE_H_
#define ISAPACK_RUNTIME_EXECUTABLE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "agents.h"
#include "catalog_source.h"
#include "error.h"
#include "hsa_library.h"

namespace isapack {

class Executable;

// A kernel ready to dispatch: HSA's kernel object and the sizes its
// metadata gives.
struct LoadedKernel {
  const Executable* executable = nullptr;
  std::string name;  // "saxpy"
  uint64_t object = 0;
  uint32_t kernarg_size = 0;          // explicit argument bytes the caller passes
  uint32_t kernarg_segment_size = 0;  // the whole segment, hidden arguments included
  uint32_t kernarg_alignment = 0;
  uint32_t group_segment_size = 0;
  uint32_t private_segment_size = 0;
  uint32_t max_workgroup_size = 0;  // 0 when the metadata gives none
  // Why it cannot run here (the simulated HSA runtime found no host build
  // of it); empty when it can.
  std::string problem;
};

// What a load needs to know of the device it loads on.
struct LoadTarget {
  const HsaLibrary* hsa = nullptr;
  const GpuAgent* agent = nullptr;
  std::string isa_names;        // space separated, for messages
  bool retarget = true;         // rewrite a generic object for a ROCr without generic support
  const void* owner = nullptr;  // the device, so a handle can be checked against it
};

class Executable {
 public:
  static Expected<std::unique_ptr<Executable>> Load(const LoadTarget& target,
                                                    std::shared_ptr<const CatalogSource> source);
  ~Executable();
  Executable(const Executable&) = delete;
  Executable& operator=(const Executable&) = delete;

  // The kernel called `name` (with or without ".kd"), or NOT_FOUND listing
  // the kernels there are; an error naming the fix when it cannot run here.
  Expected<const LoadedKernel*> FindKernel(std::string_view name) const;

  const std::vector<LoadedKernel>& kernels() const { return kernels_; }
  // "gfx11-generic", or with the retarget clause for a rewritten one.
  const std::string& code_object() const { return code_object_; }
  size_t catalog_entry() const { return catalog_entry_; }
  const std::string& selection_trace() const { return selection_trace_; }
  const CatalogSource& source() const { return *source_; }
  const void* owner() const { return owner_; }

 private:
  Executable() = default;
  Status LoadImage(const LoadTarget& target, const std::vector<uint8_t>& image,
                   const std::string& loaded, unsigned version);
  Status ResolveKernels(const LoadTarget& target, const std::vector<uint8_t>& image);

  const HsaLibrary* hsa_ = nullptr;
  std::shared_ptr<const CatalogSource> source_;
  const void* owner_ = nullptr;
  bool created_ = false;
  hsa_executable_t executable_{};
  std::string code_object_;
  size_t catalog_entry_ = 0;
  std::string selection_trace_;
  std::vector<LoadedKernel> kernels_;
  std::string kernel_list_;  // "a, b, c" for messages
};

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_EXECUTABLE_H_
