/* Arguments of the example's kernels, shared by the device code and the
 * program. Fixed-width fields; device addresses as 64-bit integers. */
#ifndef SAXPY_EXAMPLE_KERNELS_H_
#define SAXPY_EXAMPLE_KERNELS_H_

#include <stdint.h>

typedef struct saxpy_args_s { /* y[i] = a * x[i] + y[i] for i < n */
  uint64_t x;
  uint64_t y;
  float a;
  uint32_t n;
} saxpy_args_t;

typedef struct sum_args_s { /* *sum += values[0] + ... + values[n - 1] */
  uint64_t values;
  uint64_t sum;
  uint32_t n;
  uint32_t reserved;
} sum_args_t;

#endif /* SAXPY_EXAMPLE_KERNELS_H_ */
