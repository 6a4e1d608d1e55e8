/* Tables derived from kernels.def. */
#ifndef ISAPACK_DEVICE_KERNELS_H_
#define ISAPACK_DEVICE_KERNELS_H_

#include "isapack/device/kernel_args.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum isapack_kernel_id_e {
#define ISAPACK_KERNEL_DEF(id, symbol, args_type) ISAPACK_KERNEL_##id,
#include "isapack/device/kernels.def"
#undef ISAPACK_KERNEL_DEF
  ISAPACK_KERNEL_COUNT
} isapack_kernel_id_t;

/* Descriptor symbol names ("<symbol>.kd"), indexed by isapack_kernel_id_t. */
static const char* const isapack_kernel_descriptor_names[ISAPACK_KERNEL_COUNT] = {
#define ISAPACK_KERNEL_DEF(id, symbol, args_type) #symbol ".kd",
#include "isapack/device/kernels.def"
#undef ISAPACK_KERNEL_DEF
};

/* Kernel names without the ".kd" suffix. */
static const char* const isapack_kernel_names[ISAPACK_KERNEL_COUNT] = {
#define ISAPACK_KERNEL_DEF(id, symbol, args_type) #symbol,
#include "isapack/device/kernels.def"
#undef ISAPACK_KERNEL_DEF
};

/* Size of each kernel's argument struct. */
static const uint32_t isapack_kernel_args_sizes[ISAPACK_KERNEL_COUNT] = {
#define ISAPACK_KERNEL_DEF(id, symbol, args_type) (uint32_t)sizeof(args_type),
#include "isapack/device/kernels.def"
#undef ISAPACK_KERNEL_DEF
};

#ifdef __cplusplus
}
#endif

#endif /* ISAPACK_DEVICE_KERNELS_H_ */
