// From an agent's ISA list to the verified bytes of the code object that
// HSA will load: select the catalog entry, decompress that one frame (the
// catalog checks its size and XXH3-64), and check the ELF header against the
// agent; a generic object chosen for an agent without generic support is
// then rewritten for its processor (retarget.h) and validated again. Shared
// by device creation and the benchmarks.
#ifndef ISAPACK_RUNTIME_PREPARE_H_
#define ISAPACK_RUNTIME_PREPARE_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "catalog.h"
#include "error.h"
#include "selection.h"
#include "target_id.h"

namespace isapack {

struct PreparedCodeObject {
  Selection selection;         // which entry, for which agent ISA, and why
  std::vector<uint8_t> image;  // the decompressed, verified code object
};

// Fails with the selection error (which selector would cover the GPU) when
// nothing fits, or ISAPACK_STATUS_DATA_CORRUPT when the entry's bytes are
// damaged or do not fit the agent. `product` names the GPU in messages,
// `label` the catalog.
Expected<PreparedCodeObject> PrepareCodeObject(const Catalog& catalog,
                                               std::span<const TargetId> agent_isas,
                                               std::string_view product,
                                               SelectionOptions options = {},
                                               const CatalogLabel& label = {});

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_PREPARE_H_
