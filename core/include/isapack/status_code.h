/* The status codes of libisapack's C API (included by isapack/isapack.h).
 * A header of its own because the code-object, bundle and catalog readers in
 * core/ report the same codes without depending on the runtime's API. */
#ifndef ISAPACK_STATUS_CODE_H_
#define ISAPACK_STATUS_CODE_H_

#ifdef __cplusplus
extern "C" {
#endif

typedef enum isapack_status_code_e {
  ISAPACK_STATUS_OK = 0,
  ISAPACK_STATUS_INVALID_ARGUMENT = 1,   /* a parameter is NULL, out of range or malformed */
  ISAPACK_STATUS_NOT_FOUND = 2,          /* the named agent, entry or file does not exist */
  ISAPACK_STATUS_HSA_UNAVAILABLE = 3,    /* libhsa-runtime64 cannot be loaded or lacks a symbol */
  ISAPACK_STATUS_NO_DEVICE = 4,          /* no AMD GPU: no kernel driver, or no GPU agent */
  ISAPACK_STATUS_PERMISSION_DENIED = 5,  /* /dev/kfd exists but this user cannot open it */
  ISAPACK_STATUS_UNSUPPORTED_DEVICE = 6, /* no embedded code object matches the GPU */
  ISAPACK_STATUS_ROCR_TOO_OLD =
      7, /* only a generic code object matches; ROCr lacks generic support */
  ISAPACK_STATUS_LOAD_REJECTED = 8,  /* the HSA runtime rejected the code object */
  ISAPACK_STATUS_DATA_CORRUPT = 9,   /* embedded data or a file fails its integrity checks */
  ISAPACK_STATUS_HSA_ERROR = 10,     /* another HSA call failed */
  ISAPACK_STATUS_TIMEOUT = 11,       /* a dispatch did not complete in time */
  ISAPACK_STATUS_OUT_OF_MEMORY = 12, /* a host or device allocation failed */
  ISAPACK_STATUS_INTERNAL = 13,      /* a bug in libisapack */
} isapack_status_code_t;

#ifdef __cplusplus
}
#endif

#endif /* ISAPACK_STATUS_CODE_H_ */
