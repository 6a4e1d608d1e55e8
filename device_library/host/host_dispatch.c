#include "host_dispatch.h"

#include <string.h>

static const isapack_host_kernel_t* const isapack_host_kernels[ISAPACK_KERNEL_COUNT] = {
#define ISAPACK_KERNEL_DEF(id, symbol, args_type) &isapack_host_kernel_##symbol,
#include "isapack/device/kernels.def"
#undef ISAPACK_KERNEL_DEF
};

const isapack_host_kernel_t* isapack_host_find_kernel(const char* name) {
  for (int i = 0; i < ISAPACK_KERNEL_COUNT; ++i) {
    if (strcmp(name, isapack_kernel_descriptor_names[i]) == 0 ||
        strcmp(name, isapack_kernel_names[i]) == 0) {
      return isapack_host_kernels[i];
    }
  }
  return NULL;
}

/* Workgroups along one dimension: the last one may be partial. */
static uint32_t isapack_host_groups(uint32_t grid, uint16_t group) {
  return (uint32_t)(((uint64_t)grid + group - 1) / group);
}

/* Work items of workgroup `id` along one dimension. */
static uint32_t isapack_host_items(uint32_t grid, uint16_t group, uint32_t id) {
  const uint64_t first = (uint64_t)id * group;
  return (uint32_t)(grid - first < group ? grid - first : group);
}

/* Runs the work items of one workgroup, x fastest, wavefront by wavefront. */
static void isapack_host_run_group(const isapack_host_kernel_t* kernel, const void* kernarg,
                                   isapack_host_invocation_t* inv, const uint32_t items[3],
                                   uint32_t group_linear, uint64_t* clock) {
  const uint32_t total = items[0] * items[1] * items[2];
  const uint32_t wavefront = inv->wavefront_size;
  for (uint32_t linear = 0; linear < total; ++linear) {
    const uint32_t wave = linear / wavefront;
    const uint32_t wave_first = wave * wavefront;
    inv->workitem_id[0] = linear % items[0];
    inv->workitem_id[1] = linear / items[0] % items[1];
    inv->workitem_id[2] = linear / (items[0] * items[1]);
    inv->active_lanes = total - wave_first < wavefront ? total - wave_first : wavefront;
    /* Simulated HW_ID: wave slot in bits 3:0, workgroup in bits 31:8. */
    inv->hw_id = (wave & 0xfu) | (group_linear << 8);
    inv->clock = ++*clock;
    kernel->run(kernarg, inv);
  }
}

int isapack_host_dispatch(const isapack_host_kernel_t* kernel,
                          const isapack_dispatch_packet_t* packet, uint32_t wavefront_size) {
  if (kernel == NULL || kernel->abi_version != ISAPACK_HOST_KERNEL_ABI_VERSION ||
      kernel->run == NULL || packet->workgroup_size_x == 0 || packet->workgroup_size_y == 0 ||
      packet->workgroup_size_z == 0 || packet->grid_size_x == 0 || packet->grid_size_y == 0 ||
      packet->grid_size_z == 0 || wavefront_size == 0 || packet->kernarg_address == 0) {
    return -1;
  }
  const void* kernarg = (const void*)(uintptr_t)packet->kernarg_address;
  const uint32_t grid[3] = {packet->grid_size_x, packet->grid_size_y, packet->grid_size_z};
  const uint16_t size[3] = {packet->workgroup_size_x, packet->workgroup_size_y,
                            packet->workgroup_size_z};
  const uint32_t groups[3] = {isapack_host_groups(grid[0], size[0]),
                              isapack_host_groups(grid[1], size[1]),
                              isapack_host_groups(grid[2], size[2])};
  isapack_host_invocation_t inv;
  memset(&inv, 0, sizeof(inv));
  inv.packet = packet;
  inv.wavefront_size = wavefront_size;
  uint64_t clock = 0;
  uint32_t group_linear = 0;
  for (uint32_t z = 0; z < groups[2]; ++z) {
    for (uint32_t y = 0; y < groups[1]; ++y) {
      for (uint32_t x = 0; x < groups[0]; ++x, ++group_linear) {
        const uint32_t items[3] = {isapack_host_items(grid[0], size[0], x),
                                   isapack_host_items(grid[1], size[1], y),
                                   isapack_host_items(grid[2], size[2], z)};
        inv.workgroup_id[0] = x;
        inv.workgroup_id[1] = y;
        inv.workgroup_id[2] = z;
        isapack_host_run_group(kernel, kernarg, &inv, items, group_linear, &clock);
      }
    }
  }
  return 0;
}
