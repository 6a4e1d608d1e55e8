/* A kernel of the tests only, written as any project writes its kernels:
 * each work item records its grid IDs and its wavefront's active lanes at
 * output[((z * grid_y + y) * grid_x + x) * 4]. Built for the host only. */
#include "isapack/device/device_abi.h"

typedef struct isapack_test_ids_args_s {
  uint64_t output;
} isapack_test_ids_args_t;

ISAPACK_KERNEL(isapack_test_ids, isapack_test_ids_args_t, args) {
  const uint64_t x = isapack_global_id(), y = isapack_global_id_y(), z = isapack_global_id_z();
  uint32_t* record = (uint32_t*)(uintptr_t)args.output +
                     ((z * isapack_grid_size_y() + y) * isapack_grid_size() + x) * 4;
  record[0] = (uint32_t)x;
  record[1] = (uint32_t)y;
  record[2] = (uint32_t)z;
  record[3] = isapack_active_lanes();
}
