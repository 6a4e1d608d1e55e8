/* Runs device-library kernels on the CPU: the host build of the same kernel
 * sources, executed over an AQL dispatch grid one work item at a time. Used
 * by the kernel tests and by the simulated HSA runtime (a test double). */
#ifndef ISAPACK_DEVICE_HOST_DISPATCH_H_
#define ISAPACK_DEVICE_HOST_DISPATCH_H_

#include <stdint.h>

#include "isapack/device/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Finds a kernel by its descriptor symbol ("isapack_fill.kd") or its name;
 * returns ISAPACK_KERNEL_COUNT when there is none. */
isapack_kernel_id_t isapack_host_find_kernel(const char* name);

/* Executes `kernel` for every work item of `packet` (x dimension; y and z
 * must be 1), reading its arguments from packet->kernarg_address. Work items
 * run in order, wavefront by wavefront of `wavefront_size` lanes. Returns 0,
 * or -1 when the packet's geometry is invalid (zero sizes, y/z not 1). */
int isapack_host_dispatch(isapack_kernel_id_t kernel, const isapack_dispatch_packet_t* packet,
                          uint32_t wavefront_size);

#ifdef __cplusplus
}
#endif

#endif /* ISAPACK_DEVICE_HOST_DISPATCH_H_ */
