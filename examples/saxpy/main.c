/* Loads the example's kernels on the first GPU, runs saxpy and a sum, and
 * checks every value. Exit 0 when all are right. */
#include <isapack/isapack.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "saxpy_kernels.h"

enum { kN = 1000 };

static int Failed(const char* what, isapack_status_t status) {
  if (status == NULL) return 0;
  fprintf(stderr, "saxpy: %s: %s\n", what, isapack_status_message(status));
  isapack_status_free(status);
  return 1;
}

static isapack_dispatch_t Dispatch(const void* args, size_t size, uint32_t grid) {
  isapack_dispatch_t dispatch;
  isapack_dispatch_init(&dispatch);
  dispatch.grid_size[0] = grid;
  dispatch.workgroup_size[0] = 64;
  dispatch.kernarg = args;
  dispatch.kernarg_size = size;
  return dispatch;
}

static int Run(isapack_device_t device, isapack_executable_t executable) {
  isapack_kernel_t saxpy, sum_u32;
  float *x, *y;
  uint32_t* values;
  uint64_t* sum;
  if (Failed("saxpy", isapack_executable_kernel(executable, "saxpy", &saxpy)) ||
      Failed("sum_u32", isapack_executable_kernel(executable, "sum_u32", &sum_u32)) ||
      Failed("alloc", isapack_device_alloc(device, kN * sizeof(float), ISAPACK_MEMORY_HOST_VISIBLE,
                                           (void**)&x)) ||
      Failed("alloc", isapack_device_alloc(device, kN * sizeof(float), ISAPACK_MEMORY_HOST_VISIBLE,
                                           (void**)&y)) ||
      Failed("alloc", isapack_device_alloc(device, kN * sizeof(uint32_t),
                                           ISAPACK_MEMORY_HOST_VISIBLE, (void**)&values)) ||
      Failed("alloc", isapack_device_alloc(device, sizeof(uint64_t), ISAPACK_MEMORY_HOST_VISIBLE,
                                           (void**)&sum))) {
    return 1;
  }
  for (uint32_t i = 0; i < kN; ++i) {
    x[i] = (float)i;
    y[i] = 1.0f;
    values[i] = 3 * i + 1;
  }
  *sum = 0;
  const saxpy_args_t saxpy_args = {(uintptr_t)x, (uintptr_t)y, 2.0f, kN};
  const sum_args_t sum_args = {(uintptr_t)values, (uintptr_t)sum, kN, 0};
  const isapack_dispatch_t first = Dispatch(&saxpy_args, sizeof(saxpy_args), kN);
  const isapack_dispatch_t second = Dispatch(&sum_args, sizeof(sum_args), 256);
  if (Failed("saxpy", isapack_device_dispatch(device, saxpy, &first)) ||
      Failed("sum_u32", isapack_device_dispatch(device, sum_u32, &second))) {
    return 1;
  }
  int wrong = 0;
  for (uint32_t i = 0; i < kN; ++i) wrong += y[i] != 2.0f * (float)i + 1.0f;
  const uint64_t expected = 3ull * kN * (kN - 1) / 2 + kN;
  printf("saxpy: %d of %d values right; sum %llu (expected %llu)\n", kN - wrong, kN,
         (unsigned long long)*sum, (unsigned long long)expected);
  return wrong != 0 || *sum != expected;
}

int main(void) {
  isapack_device_t device;
  isapack_catalog_t catalog;
  isapack_executable_t executable;
  if (Failed("device", isapack_device_create(NULL, &device))) return 1;
  int failed = Failed("catalog", saxpy_kernels_catalog_open(&catalog)) ||
               Failed("load", isapack_device_load(device, catalog, &executable));
  if (!failed) {
    isapack_executable_info_t info;
    isapack_device_info_t device_info;
    isapack_executable_info(executable, &info);
    isapack_device_info(device, &device_info);
    printf("saxpy: %s%s runs code object %s\n", device_info.agent_name,
           device_info.simulation != NULL ? " (SIMULATED)" : "", info.code_object);
    failed = Run(device, executable);
    isapack_catalog_close(catalog);
  }
  isapack_device_destroy(device);
  return failed;
}
