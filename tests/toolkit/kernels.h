/* The argument structs of the toolkit test's device library: a project's
 * own kernels, built with isapack_add_device_library like any project's. */
#ifndef ISAPACK_TESTS_TOOLKIT_KERNELS_H_
#define ISAPACK_TESTS_TOOLKIT_KERNELS_H_

#include <stdint.h>

/* y[i] = a * x[i] + y[i] for i < n. */
typedef struct saxpy_args_s {
  uint64_t x; /* device address of n floats */
  uint64_t y; /* device address of n floats */
  float a;
  uint32_t n;
} saxpy_args_t;

/* *sum += values[0] + ... + values[n - 1], grid-stride, atomically. */
typedef struct sum_args_s {
  uint64_t values; /* device address of n uint32_t */
  uint64_t sum;    /* device address of one uint64_t */
  uint32_t n;
  uint32_t reserved;
} sum_args_t;

/* Each work item writes its 3-D grid IDs at
 * ids[((z * grid_y + y) * grid_x + x) * 3]. */
typedef struct grid_ids_args_s {
  uint64_t ids; /* device address of grid_x * grid_y * grid_z * 3 uint32_t */
} grid_ids_args_t;

#endif /* ISAPACK_TESTS_TOOLKIT_KERNELS_H_ */
