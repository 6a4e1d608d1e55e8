/* saxpy, written as any project writes its kernels for isapack. */
#include "isapack/device/device_abi.h"
#include "kernels.h"

ISAPACK_KERNEL(saxpy, saxpy_args_t, args) {
  const uint64_t i = isapack_global_id();
  if (i < args.n) {
    const ISAPACK_GLOBAL float* x = (const ISAPACK_GLOBAL float*)(uintptr_t)args.x;
    ISAPACK_GLOBAL float* y = (ISAPACK_GLOBAL float*)(uintptr_t)args.y;
    y[i] = args.a * x[i] + y[i];
  }
}
