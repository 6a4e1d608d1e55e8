/* libisapack: AMD GPU device code embedded as compressed code objects for
 * many GPUs, picked per device at run time — its own device library (buffer
 * fill, copy, probe) and any program's catalog (isapack_add_device_library),
 * loaded, looked up by kernel name and dispatched the same way.
 *
 * Conventions:
 *  - Functions that can fail return isapack_status_t: NULL on success, else
 *    an object holding a code and a message that the caller frees with
 *    isapack_status_free(). libisapack never prints and never aborts.
 *  - Every object is created and destroyed explicitly.
 *  - Distinct devices may be used from distinct threads at once, and devices
 *    may be created concurrently; one device is not meant to be shared by
 *    threads without the caller's own locking.
 *  - Strings returned through *_info structs are owned by the object they
 *    describe and live as long as it does. */
#ifndef ISAPACK_ISAPACK_H_
#define ISAPACK_ISAPACK_H_

#include <stddef.h>
#include <stdint.h>

#include "isapack/status_code.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ISAPACK_API __attribute__((visibility("default")))

/* ---------------------------------------------------------------------------
 * Version and build
 * ------------------------------------------------------------------------- */

/* The library version, "MAJOR.MINOR.PATCH". */
ISAPACK_API const char* isapack_version(void);

/* What this build carries, as a JSON object: version, compiler, code object
 * mode, selectors asked, code objects, covered and left-out targets. */
ISAPACK_API const char* isapack_build_info_json(void);

/* ---------------------------------------------------------------------------
 * Status
 * ------------------------------------------------------------------------- */

/* isapack_status_code_t: see isapack/status_code.h. */

typedef struct isapack_status_s* isapack_status_t;

/* The code of a status; ISAPACK_STATUS_OK for NULL. */
ISAPACK_API isapack_status_code_t isapack_status_code(isapack_status_t status);
/* The message of a status ("" for NULL); valid until the status is freed. */
ISAPACK_API const char* isapack_status_message(isapack_status_t status);
/* A stable name for a code, e.g. "UNSUPPORTED_DEVICE". */
ISAPACK_API const char* isapack_status_code_name(isapack_status_code_t code);
/* Frees a status; NULL is allowed. */
ISAPACK_API void isapack_status_free(isapack_status_t status);

/* ---------------------------------------------------------------------------
 * The embedded catalog of code objects
 * ------------------------------------------------------------------------- */

typedef struct isapack_catalog_entry_info_s {
  const char* target_id;        /* code object target ID, e.g. "gfx11-generic" */
  const char* covers;           /* exact target IDs it was built for, space separated */
  uint32_t code_object_version; /* 4, 5 or 6 */
  uint32_t e_flags;             /* ELF e_flags of the code object */
  uint64_t compressed_size;     /* bytes this entry alone stores: its zstd delta frame;
                                   0 for a representative, kept in the shared block */
  uint64_t uncompressed_size;   /* bytes of the code object */
  uint64_t xxh3_64;             /* XXH3-64 of the uncompressed code object */
} isapack_catalog_entry_info_t;

/* Number of code objects embedded in this library. */
ISAPACK_API size_t isapack_catalog_entry_count(void);
/* Describes entry `index` (< isapack_catalog_entry_count()). */
ISAPACK_API isapack_status_t isapack_catalog_entry_info(size_t index,
                                                        isapack_catalog_entry_info_t* out_info);
/* Decompresses entry `index` into `buffer` (capacity >= uncompressed_size),
 * checks its hash and validates its ELF header against the entry. */
ISAPACK_API isapack_status_t isapack_catalog_entry_extract(size_t index, void* buffer,
                                                           size_t capacity);

/* ---------------------------------------------------------------------------
 * Catalogs: the built-in one, and any program's
 *
 * A catalog handle stands for a parsed, checked catalog (bounds and the
 * table of contents' hash at open; each entry's hashes and ELF header when
 * a device loads it). A damaged catalog is an error, never a crash.
 * ------------------------------------------------------------------------- */

typedef struct isapack_catalog_s* isapack_catalog_t;

/* isapack_catalog_open_memory flags. */
#define ISAPACK_CATALOG_BORROW                                   \
  1u /* the caller keeps the bytes alive and unchanged while the \
        catalog is open (a catalog linked into the program):     \
        libisapack does not copy them */

/* The catalog built into libisapack (its own kernels). */
ISAPACK_API isapack_status_t isapack_catalog_open_builtin(isapack_catalog_t* out_catalog);
/* A catalog in memory, copied unless flags has ISAPACK_CATALOG_BORROW. */
ISAPACK_API isapack_status_t isapack_catalog_open_memory(const void* data, size_t size,
                                                         uint32_t flags,
                                                         isapack_catalog_t* out_catalog);
/* A catalog file (catalog.bin), mapped read-only. */
ISAPACK_API isapack_status_t isapack_catalog_open_file(const char* path,
                                                       isapack_catalog_t* out_catalog);
/* Closes a catalog; executables loaded from it stay valid. NULL is allowed. */
ISAPACK_API void isapack_catalog_close(isapack_catalog_t catalog);

/* Number of code objects in the catalog (0 for NULL). */
ISAPACK_API size_t isapack_catalog_size(isapack_catalog_t catalog);
/* Describes entry `index` (< isapack_catalog_size()); strings live as long
 * as the catalog. */
ISAPACK_API isapack_status_t isapack_catalog_describe(isapack_catalog_t catalog, size_t index,
                                                      isapack_catalog_entry_info_t* out_info);
/* The catalog's build record (JSON: library, selectors, code objects, covered
 * and left-out targets), or "{}" when it has none. */
ISAPACK_API const char* isapack_catalog_build_info_json(isapack_catalog_t catalog);
/* Decompresses and checks every entry (hashes, ELF header against the
 * entry): DATA_CORRUPT naming the first damaged one. */
ISAPACK_API isapack_status_t isapack_catalog_verify(isapack_catalog_t catalog);

/* ---------------------------------------------------------------------------
 * Selection without a device
 * ------------------------------------------------------------------------- */

#define ISAPACK_NO_ENTRY ((size_t)-1)

/* Picks the embedded code object for a GPU whose HSA ISA list (priority
 * order, as hsa_agent_iterate_isas reports it) is isa_names[0..isa_count).
 * Names are HSA ISA names ("amdgcn-amd-amdhsa--gfx1103") or target IDs
 * ("gfx90a:sramecc+:xnack-"). On success *out_entry is the catalog index.
 * When trace_buffer is not NULL, the selection trace (candidates tried and
 * why each was rejected) is written there, NUL-terminated and truncated to
 * trace_capacity; *out_trace_length (if not NULL) receives its full length.
 * Fails with UNSUPPORTED_DEVICE or ROCR_TOO_OLD and a message naming the
 * selector that would cover the GPU. */
ISAPACK_API isapack_status_t isapack_select(const char* const* isa_names, size_t isa_count,
                                            size_t* out_entry, char* trace_buffer,
                                            size_t trace_capacity, size_t* out_trace_length);

/* ---------------------------------------------------------------------------
 * Devices
 *
 * A device is one GPU agent of the HSA runtime with the matching embedded
 * code object loaded, the device library's kernels resolved and a queue.
 * ------------------------------------------------------------------------- */

typedef struct isapack_device_s* isapack_device_t;

typedef struct isapack_device_options_s {
  uint32_t struct_size;         /* sizeof(isapack_device_options_t) */
  const char* libhsa_path;      /* libhsa-runtime64 file or directory; NULL: ISAPACK_LIBHSA_PATH
                                   (ignored by setuid programs), then the system loader */
  const char* agent_uuid;       /* pick the GPU agent with this HSA UUID ("GPU-..."), or NULL */
  uint32_t agent_ordinal;       /* else pick the agent_ordinal-th GPU agent (HSA order) */
  uint32_t queue_packets;       /* AQL queue size in packets; 0: 64 */
  uint32_t dispatch_timeout_ms; /* how long blocking operations wait; 0: 10000 */
  uint32_t disable_retarget;    /* nonzero: never rewrite a generic code object for a ROCr without
                                   generic support (< 6.4); ISAPACK_RETARGET=0 does the same.
                                   It occupies what was the struct's tail padding: sizeof and
                                   struct_size are unchanged */
} isapack_device_options_t;

/* Fills in the defaults (first GPU agent, system HSA runtime). */
ISAPACK_API void isapack_device_options_init(isapack_device_options_t* options);

/* Loads the HSA runtime, picks the GPU agent, selects the embedded code
 * object for its ISA list, checks it (hash, ELF flags) before HSA sees it,
 * loads it, resolves every kernel and creates a queue. Errors say what to do:
 * NO_DEVICE (no /dev/kfd), PERMISSION_DENIED (render/video groups),
 * HSA_UNAVAILABLE (no libhsa-runtime64), UNSUPPORTED_DEVICE (with the
 * selector to rebuild with), ROCR_TOO_OLD, LOAD_REJECTED. */
ISAPACK_API isapack_status_t isapack_device_create(const isapack_device_options_t* options,
                                                   isapack_device_t* out_device);

/* Waits for nothing: releases the queue, memory, executable and the HSA
 * runtime in reverse order. NULL is allowed. */
ISAPACK_API void isapack_device_destroy(isapack_device_t device);

typedef struct isapack_device_info_s {
  const char* agent_name;      /* HSA agent name, e.g. "gfx1103" */
  const char* product_name;    /* marketing name as HSA reports it */
  const char* uuid;            /* HSA UUID, e.g. "GPU-0e12865a3bf5b7ab" */
  const char* isa_names;       /* the agent's ISA names, space separated, priority order */
  const char* code_object;     /* target ID of the code object loaded; for a generic one rewritten
                                  for a ROCr without generic support, e.g. "gfx10-3-generic,
                                  retargeted to gfx1036 (code object v5) for a ROCr without
                                  generic support" */
  size_t catalog_entry;        /* its index in the catalog */
  const char* selection_trace; /* candidates tried and why each was taken or not */
  const char* hsa_library;     /* path of the libhsa-runtime64 in use */
  const char* simulation;      /* NULL on a real HSA runtime; otherwise the self-description of
                                  isapack's simulated HSA runtime (a test double: no GPU ran) */
  uint32_t agent_ordinal;      /* index among GPU agents */
  uint32_t wavefront_size;     /* as HSA reports it */
} isapack_device_info_t;

ISAPACK_API isapack_status_t isapack_device_info(isapack_device_t device,
                                                 isapack_device_info_t* out_info);

typedef enum isapack_memory_kind_e {
  ISAPACK_MEMORY_HOST_VISIBLE = 0, /* system memory the GPU can access; readable by the host */
  ISAPACK_MEMORY_DEVICE_LOCAL = 1, /* GPU memory; not readable by the host (copy it out) */
} isapack_memory_kind_t;

/* Allocates memory the device's kernels can use; free it with
 * isapack_device_free (or it is freed with the device). */
ISAPACK_API isapack_status_t isapack_device_alloc(isapack_device_t device, size_t size,
                                                  isapack_memory_kind_t kind, void** out_ptr);
ISAPACK_API isapack_status_t isapack_device_free(isapack_device_t device, void* ptr);

/* Blocking fill: byte i of [dst, dst + length) becomes byte (i % pattern_width)
 * of pattern (little-endian); pattern_width is 1, 2, 4 or 8. */
ISAPACK_API isapack_status_t isapack_device_fill(isapack_device_t device, void* dst, size_t length,
                                                 uint64_t pattern, uint32_t pattern_width);
/* Blocking copy of length bytes; the regions must not overlap. */
ISAPACK_API isapack_status_t isapack_device_copy(isapack_device_t device, void* dst,
                                                 const void* src, size_t length);

/* A dispatch in flight. */
typedef struct isapack_completion_s* isapack_completion_t;

ISAPACK_API isapack_status_t isapack_device_fill_async(isapack_device_t device, void* dst,
                                                       size_t length, uint64_t pattern,
                                                       uint32_t pattern_width,
                                                       isapack_completion_t* out_completion);
ISAPACK_API isapack_status_t isapack_device_copy_async(isapack_device_t device, void* dst,
                                                       const void* src, size_t length,
                                                       isapack_completion_t* out_completion);
/* Waits up to timeout_ms (0: the device's dispatch timeout); TIMEOUT when the
 * dispatch has not completed by then. */
ISAPACK_API isapack_status_t isapack_completion_wait(isapack_completion_t completion,
                                                     uint32_t timeout_ms);
/* Releases a completion. One still in flight is kept by its device until
 * the device is destroyed. */
ISAPACK_API void isapack_completion_release(isapack_completion_t completion);

/* What the probe kernel saw, after its records were checked against the
 * dispatch that ran it. */
typedef struct isapack_probe_report_s {
  uint32_t wavefront_size;       /* the wavefront size the kernel ran with */
  uint32_t agent_wavefront_size; /* the wavefront size HSA reports for the agent */
  uint32_t grid_size;            /* work items dispatched */
  uint32_t workgroup_size;       /* work items per workgroup */
  uint32_t work_items_verified;  /* records whose IDs and active lanes matched the dispatch */
  uint32_t distinct_hw_ids;      /* distinct HW_ID values the work items reported */
  uint32_t hw_id;                /* HW_ID (gfx6-9) or HW_ID1 (gfx10+) of work item 0 */
  uint32_t reserved;             /* zero */
  uint64_t clock;                /* cycle counter read by work item 0 */
} isapack_probe_report_t;

/* Runs the probe kernel and checks every record. DATA_CORRUPT when a record
 * does not match the dispatch. */
ISAPACK_API isapack_status_t isapack_device_probe(isapack_device_t device,
                                                  isapack_probe_report_t* out_report);

/* ---------------------------------------------------------------------------
 * Any program's kernels: load a catalog, look kernels up, dispatch them
 *
 * isapack's own fill, copy and probe go through this same path.
 * ------------------------------------------------------------------------- */

typedef struct isapack_executable_s* isapack_executable_t;
typedef struct isapack_kernel_s* isapack_kernel_t;

/* Selects the catalog's code object for the device's GPU (the agent's HSA
 * ISA list; exact beats generic), checks it (hash, ELF flags) before HSA
 * sees it, loads and freezes it, and resolves every kernel its metadata
 * lists. Fails like isapack_device_create: UNSUPPORTED_DEVICE naming the
 * selector to rebuild the catalog with, ROCR_TOO_OLD, LOAD_REJECTED,
 * DATA_CORRUPT. The device owns the executable: unload it, or it goes with
 * the device. */
ISAPACK_API isapack_status_t isapack_device_load(isapack_device_t device, isapack_catalog_t catalog,
                                                 isapack_executable_t* out_executable);
/* Waits up to the device's dispatch timeout for the executable's dispatches
 * still in flight, then unloads it (its kernel handles become invalid).
 * TIMEOUT, and it stays loaded, when one does not finish. NULL is allowed. */
ISAPACK_API isapack_status_t isapack_executable_unload(isapack_executable_t executable);

typedef struct isapack_executable_info_s {
  const char* code_object;     /* target ID of the code object loaded (as in the device info) */
  size_t catalog_entry;        /* its index in the catalog */
  const char* selection_trace; /* candidates tried and why each was taken or not */
  size_t kernel_count;         /* kernels it holds (isapack_executable_kernel_name) */
} isapack_executable_info_t;

ISAPACK_API isapack_status_t isapack_executable_info(isapack_executable_t executable,
                                                     isapack_executable_info_t* out_info);
/* Name of kernel `index` (< kernel_count), or NULL. */
ISAPACK_API const char* isapack_executable_kernel_name(isapack_executable_t executable,
                                                       size_t index);
/* The kernel called `name` ("saxpy" or its descriptor "saxpy.kd"). An
 * unknown name is NOT_FOUND listing the kernels there are. The handle lives
 * as long as the executable. */
ISAPACK_API isapack_status_t isapack_executable_kernel(isapack_executable_t executable,
                                                       const char* name,
                                                       isapack_kernel_t* out_kernel);

typedef struct isapack_kernel_info_s {
  const char* name;              /* "saxpy" */
  uint32_t kernarg_size;         /* argument bytes a dispatch passes (the explicit arguments) */
  uint32_t kernarg_segment_size; /* the whole segment, hidden arguments included (zeroed) */
  uint32_t kernarg_alignment;    /* alignment of the segment */
  uint32_t group_segment_size;   /* static group (LDS) memory per workgroup */
  uint32_t private_segment_size; /* scratch memory per work item */
  uint32_t max_workgroup_size;   /* largest workgroup it was compiled for (0: not recorded) */
} isapack_kernel_info_t;

ISAPACK_API isapack_status_t isapack_kernel_info(isapack_kernel_t kernel,
                                                 isapack_kernel_info_t* out_info);

typedef struct isapack_dispatch_s {
  uint32_t struct_size;                /* sizeof(isapack_dispatch_t) */
  uint32_t grid_size[3];               /* work items per dimension; 0 in any: nothing runs and the
                                          dispatch completes at once */
  uint16_t workgroup_size[3];          /* work items per workgroup per dimension (>= 1) */
  uint16_t reserved;                   /* zero */
  uint32_t dynamic_group_segment_size; /* group memory beyond the kernel's own, per workgroup */
  const void* kernarg;                 /* the kernel's explicit arguments, as its kernarg segment
                                          lays them out; copied before the call returns */
  size_t kernarg_size;                 /* must equal the kernel's kernarg_size */
} isapack_dispatch_t;

/* A one-dimensional dispatch of one work item in workgroups of one, no
 * arguments: set grid_size, workgroup_size and kernarg. */
ISAPACK_API void isapack_dispatch_init(isapack_dispatch_t* dispatch);

/* Starts a dispatch of `kernel` (loaded on this device). Checked first:
 * kernarg_size equals the kernel's, every workgroup dimension >= 1 and the
 * workgroup within the kernel's and the agent's limits, grid sizes below
 * 2^32. */
ISAPACK_API isapack_status_t isapack_device_dispatch_async(isapack_device_t device,
                                                           isapack_kernel_t kernel,
                                                           const isapack_dispatch_t* dispatch,
                                                           isapack_completion_t* out_completion);
/* The same, waiting for completion (up to the device's dispatch timeout). */
ISAPACK_API isapack_status_t isapack_device_dispatch(isapack_device_t device,
                                                     isapack_kernel_t kernel,
                                                     const isapack_dispatch_t* dispatch);

/* ---------------------------------------------------------------------------
 * Agents, without creating a device
 * ------------------------------------------------------------------------- */

typedef struct isapack_agent_list_s* isapack_agent_list_t;

typedef struct isapack_agent_info_s {
  uint32_t ordinal;       /* index among GPU agents */
  const char* agent_name; /* e.g. "gfx1103" */
  const char* product_name;
  const char* uuid;
  const char* isa_names;                /* space separated, priority order */
  const char* code_object;              /* target ID this build would load, or NULL; names the exact
                                           target when a generic object is retargeted (see device info) */
  isapack_status_code_t selection_code; /* OK, UNSUPPORTED_DEVICE or ROCR_TOO_OLD */
  const char* selection_message;        /* "" when covered; else why not and what to rebuild with */
  const char* selection_trace;
} isapack_agent_info_t;

/* Initialises the HSA runtime (libhsa_path as in the device options) and
 * lists its GPU agents with what this build would load on each. */
ISAPACK_API isapack_status_t isapack_agent_list_create(const char* libhsa_path,
                                                       isapack_agent_list_t* out_list);
ISAPACK_API size_t isapack_agent_list_count(isapack_agent_list_t list);
ISAPACK_API isapack_status_t isapack_agent_list_get(isapack_agent_list_t list, size_t index,
                                                    isapack_agent_info_t* out_info);
/* Path of the HSA runtime used, and its simulation description (NULL when real). */
ISAPACK_API const char* isapack_agent_list_hsa_library(isapack_agent_list_t list);
ISAPACK_API const char* isapack_agent_list_simulation(isapack_agent_list_t list);
ISAPACK_API void isapack_agent_list_free(isapack_agent_list_t list);

#ifdef __cplusplus
}
#endif

#endif /* ISAPACK_ISAPACK_H_ */
