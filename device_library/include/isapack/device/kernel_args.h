/* Kernel argument structs of the isapack device library, shared by the
 * device code, the host build of the same kernels and the runtime. Fixed-width
 * fields only; sizes and offsets are checked at compile time on both sides.
 * Addresses are 64-bit device addresses stored as integers. */
#ifndef ISAPACK_DEVICE_KERNEL_ARGS_H_
#define ISAPACK_DEVICE_KERNEL_ARGS_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define ISAPACK_STATIC_ASSERT static_assert
#define ISAPACK_ALIGNOF alignof
extern "C" {
#else
#define ISAPACK_STATIC_ASSERT _Static_assert
#define ISAPACK_ALIGNOF _Alignof
#endif

/* isapack_fill: byte i of [dst, dst + length) becomes byte (i % pattern_width)
 * of pattern (little-endian). Aligned 16-byte stores for the bulk, byte stores
 * for the unaligned head and tail. */
typedef struct isapack_fill_args_s {
  uint64_t dst;           /* device address of the first byte */
  uint64_t length;        /* bytes to write; 0 writes nothing */
  uint64_t pattern;       /* pattern bytes, little-endian; low pattern_width bytes used */
  uint32_t pattern_width; /* 1, 2, 4 or 8 */
  uint32_t reserved;      /* zero */
} isapack_fill_args_t;
ISAPACK_STATIC_ASSERT(sizeof(isapack_fill_args_t) == 32, "fill args are 32 bytes");
ISAPACK_STATIC_ASSERT(ISAPACK_ALIGNOF(isapack_fill_args_t) == 8, "fill args are 8-byte aligned");
ISAPACK_STATIC_ASSERT(offsetof(isapack_fill_args_t, pattern_width) == 24, "fill args layout");

/* isapack_copy: copies length bytes from src to dst (regions must not
 * overlap). 16-byte loads and stores when src and dst share their alignment
 * modulo 16, byte copies otherwise and for the head and tail. */
typedef struct isapack_copy_args_s {
  uint64_t dst;    /* device address of the destination */
  uint64_t src;    /* device address of the source */
  uint64_t length; /* bytes to copy; 0 copies nothing */
} isapack_copy_args_t;
ISAPACK_STATIC_ASSERT(sizeof(isapack_copy_args_t) == 24, "copy args are 24 bytes");
ISAPACK_STATIC_ASSERT(ISAPACK_ALIGNOF(isapack_copy_args_t) == 8, "copy args are 8-byte aligned");

/* isapack_probe: records what the executing GPU saw. The output is an
 * isapack_probe_header_t followed by record_capacity isapack_probe_record_t;
 * work item 0 writes the header, work item i < record_capacity record i. */
typedef struct isapack_probe_args_s {
  uint64_t output;          /* device address of the header */
  uint32_t record_capacity; /* records the output has room for */
  uint32_t reserved;        /* zero */
} isapack_probe_args_t;
ISAPACK_STATIC_ASSERT(sizeof(isapack_probe_args_t) == 16, "probe args are 16 bytes");

#define ISAPACK_PROBE_MAGIC 0x52504149u /* "IAPR" little-endian */

typedef struct isapack_probe_header_s {
  uint32_t magic;          /* ISAPACK_PROBE_MAGIC once the kernel ran */
  uint32_t wavefront_size; /* the wavefront size the code runs with */
  uint32_t grid_size;      /* grid_size_x of the dispatch packet */
  uint32_t workgroup_size; /* workgroup_size_x of the dispatch packet */
  uint32_t hw_id;          /* HW_ID (gfx6-gfx9) or HW_ID1 (gfx10+) of work item 0 */
  uint32_t reserved;       /* zero */
  uint64_t clock;          /* cycle counter read by work item 0 */
} isapack_probe_header_t;
ISAPACK_STATIC_ASSERT(sizeof(isapack_probe_header_t) == 32, "probe header is 32 bytes");

typedef struct isapack_probe_record_s {
  uint32_t workgroup_id; /* workgroup ID (x) */
  uint32_t workitem_id;  /* work-item ID within the workgroup (x) */
  uint32_t active_lanes; /* lanes active in this wavefront (popcount of EXEC) */
  uint32_t hw_id;        /* HW_ID / HW_ID1: wave, SIMD and compute unit of this lane */
} isapack_probe_record_t;
ISAPACK_STATIC_ASSERT(sizeof(isapack_probe_record_t) == 16, "probe record is 16 bytes");

/* Bytes of probe output for `records` work items. */
#define ISAPACK_PROBE_OUTPUT_SIZE(records) \
  (sizeof(isapack_probe_header_t) + (size_t)(records) * sizeof(isapack_probe_record_t))

#ifdef __cplusplus
}
#endif

#endif /* ISAPACK_DEVICE_KERNEL_ARGS_H_ */
