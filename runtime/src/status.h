// The public isapack_status_t: a heap object holding a code and a message.
#ifndef ISAPACK_RUNTIME_STATUS_H_
#define ISAPACK_RUNTIME_STATUS_H_

#include <string>

#include "error.h"
#include "isapack/isapack.h"

namespace isapack {

// Turns an Error into a public status. Never fails: when the status cannot
// be allocated, a static out-of-memory status is returned (freeing it is a
// no-op).
isapack_status_t ToStatus(Error error);
isapack_status_t ToStatus(isapack_status_code_t code, std::string message);
inline isapack_status_t ToStatus(Status status) {
  return status.ok() ? nullptr : ToStatus(status.take_error());
}

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_STATUS_H_
