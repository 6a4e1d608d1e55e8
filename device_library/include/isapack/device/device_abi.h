/* What kernel code may use, for both builds of the same sources:
 *  - the AMDGPU build (clang --target=amdgcn-amd-amdhsa, -nogpulib), where
 *    everything maps to clang's AMDGPU builtins;
 *  - the host build (any C17 compiler), where a thin shim supplies the IDs,
 *    the dispatch packet and the wave state of the work item being run
 *    (device_library/host/host_dispatch.c). */
#ifndef ISAPACK_DEVICE_DEVICE_ABI_H_
#define ISAPACK_DEVICE_DEVICE_ABI_H_

#include <stdint.h>

#include "isapack/device/kernel_args.h"

/* 16 bytes moved as one load or store; only used on 16-byte aligned addresses. */
typedef uint64_t isapack_u64x2 __attribute__((vector_size(16), aligned(16), may_alias));

#if defined(__AMDGCN__)

/* A kernel entry point: an AMDGPU kernel with default visibility, so the
 * code object exports <name> and <name>.kd. */
#define ISAPACK_KERNEL(name) __attribute__((amdgpu_kernel, visibility("default"))) void name
/* Global memory, addressed without going through flat addressing (gfx6 has none). */
#define ISAPACK_GLOBAL __attribute__((address_space(1)))

static inline uint32_t isapack_workitem_id(void) {
  return __builtin_amdgcn_workitem_id_x();
}
static inline uint32_t isapack_workgroup_id(void) {
  return __builtin_amdgcn_workgroup_id_x();
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

#define ISAPACK_KERNEL(name) void name##_host
#define ISAPACK_GLOBAL

/* The work item the host executor is running; one per thread. */
typedef struct isapack_host_invocation_s {
  const isapack_dispatch_packet_t* packet; /* the dispatch being executed */
  uint32_t workgroup_id;                   /* workgroup ID (x) */
  uint32_t workitem_id;                    /* work-item ID within the workgroup (x) */
  uint32_t wavefront_size;                 /* wavefront size of the simulated agent */
  uint32_t active_lanes;                   /* lanes of the current wavefront */
  uint32_t hw_id;                          /* simulated HW_ID */
  uint64_t clock;                          /* simulated cycle counter */
} isapack_host_invocation_t;

extern _Thread_local isapack_host_invocation_t isapack_host_invocation;

static inline uint32_t isapack_workitem_id(void) {
  return isapack_host_invocation.workitem_id;
}
static inline uint32_t isapack_workgroup_id(void) {
  return isapack_host_invocation.workgroup_id;
}
static inline const isapack_dispatch_packet_t* isapack_dispatch_packet(void) {
  return isapack_host_invocation.packet;
}
static inline uint32_t isapack_wavefront_size(void) {
  return isapack_host_invocation.wavefront_size;
}
static inline uint32_t isapack_active_lanes(void) {
  return isapack_host_invocation.active_lanes;
}
static inline uint64_t isapack_clock(void) {
  return isapack_host_invocation.clock;
}
static inline uint32_t isapack_hw_id(void) {
  return isapack_host_invocation.hw_id;
}

#endif

/* The flat work-item ID and the number of work items in the grid (x only). */
static inline uint64_t isapack_global_id(void) {
  return (uint64_t)isapack_workgroup_id() * isapack_dispatch_packet()->workgroup_size_x +
         isapack_workitem_id();
}
static inline uint64_t isapack_grid_size(void) {
  return isapack_dispatch_packet()->grid_size_x;
}

#endif /* ISAPACK_DEVICE_DEVICE_ABI_H_ */
