#include "status.h"

#include <new>
#include <utility>

struct isapack_status_s {
  isapack_status_code_t code;
  std::string message;
};

namespace isapack {
namespace {

// Returned when even the status cannot be allocated; never freed.
isapack_status_s kOutOfMemoryStatus{ISAPACK_STATUS_OUT_OF_MEMORY,
                                    "out of memory (while reporting an error)"};

}  // namespace

isapack_status_t ToStatus(Error error) {
  try {
    return new isapack_status_s{error.code, std::move(error.message)};
  } catch (const std::bad_alloc&) {
    return &kOutOfMemoryStatus;
  }
}

isapack_status_t ToStatus(isapack_status_code_t code, std::string message) {
  return ToStatus(Error{code, std::move(message)});
}

}  // namespace isapack

extern "C" {

ISAPACK_API isapack_status_code_t isapack_status_code(isapack_status_t status) {
  return status == nullptr ? ISAPACK_STATUS_OK : status->code;
}

ISAPACK_API const char* isapack_status_message(isapack_status_t status) {
  return status == nullptr ? "" : status->message.c_str();
}

ISAPACK_API const char* isapack_status_code_name(isapack_status_code_t code) {
  switch (code) {
    case ISAPACK_STATUS_OK:
      return "OK";
    case ISAPACK_STATUS_INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case ISAPACK_STATUS_NOT_FOUND:
      return "NOT_FOUND";
    case ISAPACK_STATUS_HSA_UNAVAILABLE:
      return "HSA_UNAVAILABLE";
    case ISAPACK_STATUS_NO_DEVICE:
      return "NO_DEVICE";
    case ISAPACK_STATUS_PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case ISAPACK_STATUS_UNSUPPORTED_DEVICE:
      return "UNSUPPORTED_DEVICE";
    case ISAPACK_STATUS_ROCR_TOO_OLD:
      return "ROCR_TOO_OLD";
    case ISAPACK_STATUS_LOAD_REJECTED:
      return "LOAD_REJECTED";
    case ISAPACK_STATUS_DATA_CORRUPT:
      return "DATA_CORRUPT";
    case ISAPACK_STATUS_HSA_ERROR:
      return "HSA_ERROR";
    case ISAPACK_STATUS_TIMEOUT:
      return "TIMEOUT";
    case ISAPACK_STATUS_OUT_OF_MEMORY:
      return "OUT_OF_MEMORY";
    case ISAPACK_STATUS_INTERNAL:
      return "INTERNAL";
  }
  return "UNKNOWN";
}

ISAPACK_API void isapack_status_free(isapack_status_t status) {
  if (status != nullptr && status != &isapack::kOutOfMemoryStatus) delete status;
}

}  // extern "C"
