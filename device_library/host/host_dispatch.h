/* The host executor: runs kernels of the host build (device_abi.h's
 * isapack_host_kernel_t, from isapack's device library or any project's)
 * over an AQL dispatch grid, one work item at a time. Used by the kernel
 * tests and by the simulated HSA runtime (a test double). */
#ifndef ISAPACK_DEVICE_HOST_DISPATCH_H_
#define ISAPACK_DEVICE_HOST_DISPATCH_H_

#include <stdint.h>

#include "isapack/device/device_abi.h"
#include "isapack/device/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* isapack's own kernels (device_library/src), as the host build defines them. */
#define ISAPACK_KERNEL_DEF(id, symbol, args_type) \
  extern const isapack_host_kernel_t isapack_host_kernel_##symbol;
#include "isapack/device/kernels.def"
#undef ISAPACK_KERNEL_DEF

/* One of isapack's own kernels in this build, by its descriptor symbol
 * ("isapack_fill.kd") or its name ("isapack_fill"); NULL when there is none. */
const isapack_host_kernel_t* isapack_host_find_kernel(const char* name);

/* Executes `kernel` for every work item of `packet` (one to three
 * dimensions), reading its arguments from packet->kernarg_address. Work
 * items run in order, x fastest, wavefront by wavefront of `wavefront_size`
 * lanes; the last workgroup of a dimension may be partial, as on hardware.
 * Returns 0, or -1 when the kernel is not of this ABI version or the packet
 * cannot run (a zero size, no kernarg segment). */
int isapack_host_dispatch(const isapack_host_kernel_t* kernel,
                          const isapack_dispatch_packet_t* packet, uint32_t wavefront_size);

#ifdef __cplusplus
}
#endif

#endif /* ISAPACK_DEVICE_HOST_DISPATCH_H_ */
