/* The example's device code: freestanding C17 against isapack's device ABI.
 * The same file builds for every GPU the selectors cover and, with
 * HOST_LIBRARY, for the CPU (what isapack's simulated HSA runtime runs). */
#include <isapack/device/device_abi.h>

#include "kernels.h"

ISAPACK_KERNEL(saxpy, saxpy_args_t, args) {
  const uint64_t i = isapack_global_id();
  if (i < args.n) {
    const ISAPACK_GLOBAL float* x = (const ISAPACK_GLOBAL float*)(uintptr_t)args.x;
    ISAPACK_GLOBAL float* y = (ISAPACK_GLOBAL float*)(uintptr_t)args.y;
    y[i] = args.a * x[i] + y[i];
  }
}

ISAPACK_KERNEL(sum_u32, sum_args_t, args) {
  const ISAPACK_GLOBAL uint32_t* values = (const ISAPACK_GLOBAL uint32_t*)(uintptr_t)args.values;
  uint64_t partial = 0;
  for (uint64_t i = isapack_global_id(); i < args.n; i += isapack_grid_size()) partial += values[i];
  if (partial != 0)
    __atomic_fetch_add((ISAPACK_GLOBAL uint64_t*)(uintptr_t)args.sum, partial, __ATOMIC_RELAXED);
}
