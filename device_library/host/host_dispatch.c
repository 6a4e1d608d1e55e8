#include "host_dispatch.h"

#include <string.h>

#include "isapack/device/device_abi.h"

_Thread_local isapack_host_invocation_t isapack_host_invocation;

/* Host entry points of the kernels (device_library/src, built for the host). */
#define ISAPACK_KERNEL_DEF(id, symbol, args_type) void symbol##_host(args_type args);
#include "isapack/device/kernels.def"
#undef ISAPACK_KERNEL_DEF

isapack_kernel_id_t isapack_host_find_kernel(const char* name) {
  for (int i = 0; i < ISAPACK_KERNEL_COUNT; ++i) {
    if (strcmp(name, isapack_kernel_descriptor_names[i]) == 0 ||
        strcmp(name, isapack_kernel_names[i]) == 0) {
      return (isapack_kernel_id_t)i;
    }
  }
  return ISAPACK_KERNEL_COUNT;
}

/* Calls the kernel for the current invocation, copying its arguments out of
 * the kernarg segment as the hardware would load them. */
static void isapack_host_invoke(isapack_kernel_id_t kernel, const void* kernarg) {
  switch (kernel) {
#define ISAPACK_KERNEL_DEF(id, symbol, args_type) \
  case ISAPACK_KERNEL_##id: {                     \
    args_type args;                               \
    memcpy(&args, kernarg, sizeof(args));         \
    symbol##_host(args);                          \
    break;                                        \
  }
#include "isapack/device/kernels.def"
#undef ISAPACK_KERNEL_DEF
    default:
      break;
  }
}

int isapack_host_dispatch(isapack_kernel_id_t kernel, const isapack_dispatch_packet_t* packet,
                          uint32_t wavefront_size) {
  if (kernel >= ISAPACK_KERNEL_COUNT || packet->workgroup_size_x == 0 || packet->grid_size_x == 0 ||
      packet->workgroup_size_y != 1 || packet->workgroup_size_z != 1 || packet->grid_size_y != 1 ||
      packet->grid_size_z != 1 || wavefront_size == 0 || packet->kernarg_address == 0) {
    return -1;
  }
  const void* kernarg = (const void*)(uintptr_t)packet->kernarg_address;
  const uint32_t group_size = packet->workgroup_size_x;
  const uint32_t groups = (uint32_t)((packet->grid_size_x + (uint64_t)group_size - 1) / group_size);
  isapack_host_invocation_t* inv = &isapack_host_invocation;
  inv->packet = packet;
  inv->wavefront_size = wavefront_size;
  uint64_t clock = 0;
  for (uint32_t group = 0; group < groups; ++group) {
    /* The last workgroup may be partial, as on hardware. */
    const uint64_t first = (uint64_t)group * group_size;
    const uint32_t items =
        (uint32_t)(packet->grid_size_x - first < group_size ? packet->grid_size_x - first
                                                            : group_size);
    for (uint32_t item = 0; item < items; ++item) {
      const uint32_t wave = item / wavefront_size;
      const uint32_t wave_first = wave * wavefront_size;
      inv->workgroup_id = group;
      inv->workitem_id = item;
      inv->active_lanes = items - wave_first < wavefront_size ? items - wave_first : wavefront_size;
      /* Simulated HW_ID: wave slot in bits 3:0, workgroup in bits 31:8. */
      inv->hw_id = (wave & 0xfu) | (group << 8);
      inv->clock = ++clock;
      isapack_host_invoke(kernel, kernarg);
    }
  }
  return 0;
}
