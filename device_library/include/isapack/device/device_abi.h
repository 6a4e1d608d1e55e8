/* The device ABI: what kernel code may use, for both builds of the same
 * sources — isapack's own kernels and any project's (isapack_add_device_library):
 *  - the AMDGPU build (clang --target=amdgcn-amd-amdhsa, -nogpulib), where
 *    everything maps to clang's AMDGPU builtins;
 *  - the host build (any C17 compiler), where each kernel also becomes an
 *    isapack_host_kernel_t that the host executor (device_library/host) runs
 *    one work item at a time, with the IDs, the dispatch packet and the wave
 *    state of the work item being run. The simulated HSA runtime and the
 *    kernel tests use it.
 *
 * A kernel takes one argument struct by value, laid out as the kernarg
 * segment holds it:
 *
 *   ISAPACK_KERNEL(saxpy, saxpy_args_t, args) {
 *     const uint64_t i = isapack_global_id();
 *     if (i < args.n) ...
 *   }
 */
#ifndef ISAPACK_DEVICE_DEVICE_ABI_H_
#define ISAPACK_DEVICE_DEVICE_ABI_H_

#include <stdint.h>

#include "isapack/device/dispatch_packet.h"

/* 16 bytes moved as one load or store; only used on 16-byte aligned addresses. */
typedef uint64_t isapack_u64x2 __attribute__((vector_size(16), aligned(16), may_alias));

#if defined(__AMDGCN__)

/* A kernel entry point: an AMDGPU kernel with default visibility, so the
 * code object exports <name> and <name>.kd. */
#define ISAPACK_KERNEL(name, args_type, args) \
  __attribute__((amdgpu_kernel, visibility("default"))) void name(args_type args)
/* Global memory, addressed without going through flat addressing (gfx6 has none). */
#define ISAPACK_GLOBAL __attribute__((address_space(1)))

static inline uint32_t isapack_workitem_id(void) {
  return __builtin_amdgcn_workitem_id_x();
}
static inline uint32_t isapack_workitem_id_y(void) {
  return __builtin_amdgcn_workitem_id_y();
}
static inline uint32_t isapack_workitem_id_z(void) {
  return __builtin_amdgcn_workitem_id_z();
}
static inline uint32_t isapack_workgroup_id(void) {
  return __builtin_amdgcn_workgroup_id_x();
}
static inline uint32_t isapack_workgroup_id_y(void) {
  return __builtin_amdgcn_workgroup_id_y();
}
static inline uint32_t isapack_workgroup_id_z(void) {
  return __builtin_amdgcn_workgroup_id_z();
}
static inline const __attribute__((address_space(4))) isapack_dispatch_packet_t*
isapack_dispatch_packet(void) {
  return (const __attribute__((address_space(4)))
          isapack_dispatch_packet_t*)__builtin_amdgcn_dispatch_ptr();
}
static inline uint32_t isapack_wavefront_size(void) {
  return __builtin_amdgcn_wavefrontsize();
}
static inline uint32_t isapack_active_lanes(void) {
  return (uint32_t)__builtin_popcountll(__builtin_amdgcn_read_exec());
}
static inline uint64_t isapack_clock(void) {
  return __builtin_readcyclecounter();
}
/* HW_ID (gfx6-gfx9, hwreg 4) or HW_ID1 (gfx10+, hwreg 23): wave, SIMD, CU. */
static inline uint32_t isapack_hw_id(void) {
#if defined(__GFX6__) || defined(__GFX7__) || defined(__GFX8__) || defined(__GFX9__)
  return __builtin_amdgcn_s_getreg(4 | (0 << 6) | (31 << 11));
#else
  return __builtin_amdgcn_s_getreg(23 | (0 << 6) | (31 << 11));
#endif
}

#else /* host build */

#define ISAPACK_GLOBAL

/* The work item the host executor is running. */
typedef struct isapack_host_invocation_s {
  const isapack_dispatch_packet_t* packet; /* the dispatch being executed */
  uint32_t workgroup_id[3];                /* workgroup ID (x, y, z) */
  uint32_t workitem_id[3];                 /* work-item ID within the workgroup (x, y, z) */
  uint32_t wavefront_size;                 /* wavefront size of the simulated agent */
  uint32_t active_lanes;                   /* lanes of the current wavefront */
  uint32_t hw_id;                          /* simulated HW_ID */
  uint32_t reserved;                       /* zero */
  uint64_t clock;                          /* simulated cycle counter */
} isapack_host_invocation_t;

/* A kernel of the host build. Each ISAPACK_KERNEL defines one and exports it
 * as isapack_host_kernel_<name>, which is how the host executor and the
 * simulated HSA runtime find a kernel of any library by its symbol. */
#define ISAPACK_HOST_KERNEL_ABI_VERSION 1u
#define ISAPACK_HOST_KERNEL_SYMBOL_PREFIX "isapack_host_kernel_"
typedef struct isapack_host_kernel_s {
  uint32_t abi_version; /* ISAPACK_HOST_KERNEL_ABI_VERSION */
  uint32_t args_size;   /* bytes of the kernel's argument struct */
  const char* name;     /* the kernel's symbol, without ".kd" */
  /* Runs one work item: arguments read from the kernarg segment. */
  void (*run)(const void* kernarg, const isapack_host_invocation_t* invocation);
} isapack_host_kernel_t;

/* The work item being run, per thread and per module (every module that
 * holds kernels has its own: a library of host kernels needs no symbol of
 * the executor that runs it). */
__attribute__((
    weak,
    visibility("hidden"))) extern __thread const isapack_host_invocation_t* isapack_host_current;
__attribute__((
    weak, visibility("hidden"))) __thread const isapack_host_invocation_t* isapack_host_current;

#define ISAPACK_KERNEL(name, args_type, args)                                                   \
  static void name(args_type args);                                                             \
  static void name##_isapack_run(const void* kernarg,                                           \
                                 const isapack_host_invocation_t* invocation) {                 \
    args_type isapack_args_copy;                                                                \
    __builtin_memcpy(&isapack_args_copy, kernarg, sizeof(isapack_args_copy));                   \
    isapack_host_current = invocation;                                                          \
    name(isapack_args_copy);                                                                    \
  }                                                                                             \
  __attribute__((                                                                               \
      visibility("default"))) extern const isapack_host_kernel_t isapack_host_kernel_##name;    \
  const isapack_host_kernel_t isapack_host_kernel_##name = {                                    \
      ISAPACK_HOST_KERNEL_ABI_VERSION, (uint32_t)sizeof(args_type), #name, name##_isapack_run}; \
  static void name(args_type args)

static inline uint32_t isapack_workitem_id(void) {
  return isapack_host_current->workitem_id[0];
}
static inline uint32_t isapack_workitem_id_y(void) {
  return isapack_host_current->workitem_id[1];
}
static inline uint32_t isapack_workitem_id_z(void) {
  return isapack_host_current->workitem_id[2];
}
static inline uint32_t isapack_workgroup_id(void) {
  return isapack_host_current->workgroup_id[0];
}
static inline uint32_t isapack_workgroup_id_y(void) {
  return isapack_host_current->workgroup_id[1];
}
static inline uint32_t isapack_workgroup_id_z(void) {
  return isapack_host_current->workgroup_id[2];
}
static inline const isapack_dispatch_packet_t* isapack_dispatch_packet(void) {
  return isapack_host_current->packet;
}
static inline uint32_t isapack_wavefront_size(void) {
  return isapack_host_current->wavefront_size;
}
static inline uint32_t isapack_active_lanes(void) {
  return isapack_host_current->active_lanes;
}
static inline uint64_t isapack_clock(void) {
  return isapack_host_current->clock;
}
static inline uint32_t isapack_hw_id(void) {
  return isapack_host_current->hw_id;
}

#endif

/* The work item's ID in the grid and the grid's size, per dimension. */
static inline uint64_t isapack_global_id(void) {
  return (uint64_t)isapack_workgroup_id() * isapack_dispatch_packet()->workgroup_size_x +
         isapack_workitem_id();
}
static inline uint64_t isapack_global_id_y(void) {
  return (uint64_t)isapack_workgroup_id_y() * isapack_dispatch_packet()->workgroup_size_y +
         isapack_workitem_id_y();
}
static inline uint64_t isapack_global_id_z(void) {
  return (uint64_t)isapack_workgroup_id_z() * isapack_dispatch_packet()->workgroup_size_z +
         isapack_workitem_id_z();
}
static inline uint64_t isapack_grid_size(void) {
  return isapack_dispatch_packet()->grid_size_x;
}
static inline uint64_t isapack_grid_size_y(void) {
  return isapack_dispatch_packet()->grid_size_y;
}
static inline uint64_t isapack_grid_size_z(void) {
  return isapack_dispatch_packet()->grid_size_z;
}

#endif /* ISAPACK_DEVICE_DEVICE_ABI_H_ */
