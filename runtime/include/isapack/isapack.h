/* libisapack: an AMD GPU device library (buffer fill, copy, probe) embedded
 * as compressed code objects for many GPUs, picked per device at run time.
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

typedef enum isapack_status_code_e {
  ISAPACK_STATUS_OK = 0,
  ISAPACK_STATUS_INVALID_ARGUMENT = 1,   /* a parameter is NULL, out of range or malformed */
  ISAPACK_STATUS_NOT_FOUND = 2,          /* the named agent, entry or file does not exist */
  ISAPACK_STATUS_HSA_UNAVAILABLE = 3,    /* libhsa-runtime64 cannot be loaded or lacks a symbol */
  ISAPACK_STATUS_NO_DEVICE = 4,          /* no AMD GPU: no kernel driver, or no GPU agent */
  ISAPACK_STATUS_PERMISSION_DENIED = 5,  /* /dev/kfd exists but this user cannot open it */
  ISAPACK_STATUS_UNSUPPORTED_DEVICE = 6, /* no embedded code object matches the GPU */
  ISAPACK_STATUS_ROCR_TOO_OLD = 7,       /* only a generic code object matches; ROCr lacks generic support */
  ISAPACK_STATUS_LOAD_REJECTED = 8,      /* the HSA runtime rejected the code object */
  ISAPACK_STATUS_DATA_CORRUPT = 9,       /* embedded data or a file fails its integrity checks */
  ISAPACK_STATUS_HSA_ERROR = 10,         /* another HSA call failed */
  ISAPACK_STATUS_TIMEOUT = 11,           /* a dispatch did not complete in time */
  ISAPACK_STATUS_OUT_OF_MEMORY = 12,     /* a host or device allocation failed */
  ISAPACK_STATUS_INTERNAL = 13,          /* a bug in libisapack */
} isapack_status_code_t;

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
  uint64_t compressed_size;     /* bytes stored (zstd frame) */
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

#ifdef __cplusplus
}
#endif

#endif /* ISAPACK_ISAPACK_H_ */
