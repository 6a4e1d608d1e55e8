/* The probe: each work item records what only the executing GPU knows (its
 * IDs as the hardware assigned them, the active lanes of its wavefront, the
 * HW_ID register); work item 0 also records the wavefront size, the dispatch
 * geometry and the cycle counter. A smoke test checks these against the
 * dispatch it made. */
#include "isapack/device/device_abi.h"
#include "isapack/device/kernel_args.h"

ISAPACK_KERNEL(isapack_probe, isapack_probe_args_t, args) {
  ISAPACK_GLOBAL isapack_probe_header_t* header =
      (ISAPACK_GLOBAL isapack_probe_header_t*)(uintptr_t)args.output;
  ISAPACK_GLOBAL isapack_probe_record_t* records =
      (ISAPACK_GLOBAL isapack_probe_record_t*)(uintptr_t)(args.output + sizeof(*header));
  const uint64_t id = isapack_global_id();
  if (id == 0) {
    header->wavefront_size = isapack_wavefront_size();
    header->grid_size = isapack_dispatch_packet()->grid_size_x;
    header->workgroup_size = isapack_dispatch_packet()->workgroup_size_x;
    header->hw_id = isapack_hw_id();
    header->reserved = 0;
    header->clock = isapack_clock();
    header->magic = ISAPACK_PROBE_MAGIC;
  }
  if (id < args.record_capacity) {
    ISAPACK_GLOBAL isapack_probe_record_t* record = &records[id];
    record->workgroup_id = isapack_workgroup_id();
    record->workitem_id = isapack_workitem_id();
    record->active_lanes = isapack_active_lanes();
    record->hw_id = isapack_hw_id();
  }
}
