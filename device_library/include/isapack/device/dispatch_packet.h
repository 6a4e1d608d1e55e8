/* The HSA kernel dispatch packet as kernels read it (the layout of
 * hsa_kernel_dispatch_packet_t; the runtime checks the two agree). Part of
 * the device ABI that any project's kernels use (device_abi.h). */
#ifndef ISAPACK_DEVICE_DISPATCH_PACKET_H_
#define ISAPACK_DEVICE_DISPATCH_PACKET_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct isapack_dispatch_packet_s {
  uint16_t header;
  uint16_t setup;
  uint16_t workgroup_size_x;
  uint16_t workgroup_size_y;
  uint16_t workgroup_size_z;
  uint16_t reserved0;
  uint32_t grid_size_x;
  uint32_t grid_size_y;
  uint32_t grid_size_z;
  uint32_t private_segment_size;
  uint32_t group_segment_size;
  uint64_t kernel_object;
  uint64_t kernarg_address;
  uint64_t reserved2;
  uint64_t completion_signal;
} isapack_dispatch_packet_t;

#ifdef __cplusplus
static_assert(sizeof(isapack_dispatch_packet_t) == 64, "AQL packets are 64 bytes");
static_assert(offsetof(isapack_dispatch_packet_t, grid_size_x) == 12, "AQL layout");
static_assert(offsetof(isapack_dispatch_packet_t, kernarg_address) == 40, "AQL layout");
}
#else
_Static_assert(sizeof(isapack_dispatch_packet_t) == 64, "AQL packets are 64 bytes");
_Static_assert(offsetof(isapack_dispatch_packet_t, grid_size_x) == 12, "AQL layout");
_Static_assert(offsetof(isapack_dispatch_packet_t, kernarg_address) == 40, "AQL layout");
#endif

#endif /* ISAPACK_DEVICE_DISPATCH_PACKET_H_ */
