/* A sum over a grid-stride loop with one atomic add per work item, and a
 * kernel that records its 3-D grid IDs. */
#include "isapack/device/device_abi.h"
#include "kernels.h"

ISAPACK_KERNEL(sum_u32, sum_args_t, args) {
  uint64_t partial = 0;
  const ISAPACK_GLOBAL uint32_t* values = (const ISAPACK_GLOBAL uint32_t*)(uintptr_t)args.values;
  for (uint64_t i = isapack_global_id(); i < args.n; i += isapack_grid_size()) partial += values[i];
  if (partial != 0) {
    __atomic_fetch_add((ISAPACK_GLOBAL uint64_t*)(uintptr_t)args.sum, partial, __ATOMIC_RELAXED);
  }
}

ISAPACK_KERNEL(grid_ids, grid_ids_args_t, args) {
  const uint64_t x = isapack_global_id(), y = isapack_global_id_y(), z = isapack_global_id_z();
  if (x >= isapack_grid_size() || y >= isapack_grid_size_y() || z >= isapack_grid_size_z()) return;
  ISAPACK_GLOBAL uint32_t* ids = (ISAPACK_GLOBAL uint32_t*)(uintptr_t)args.ids +
                                 ((z * isapack_grid_size_y() + y) * isapack_grid_size() + x) * 3;
  ids[0] = (uint32_t)x;
  ids[1] = (uint32_t)y;
  ids[2] = (uint32_t)z;
}
