// Writing the files the build tools make (records, validated code objects,
// catalogs) so that none is ever half-written: the bytes go to <path>.tmp,
// are flushed, and the temporary is renamed over <path>.
#ifndef ISAPACK_CORE_OUTPUT_FILE_H_
#define ISAPACK_CORE_OUTPUT_FILE_H_

#include <cstdint>
#include <span>
#include <string>

#include "error.h"

namespace isapack {

// Writes `bytes` to `path` through `path`.tmp and a rename. On failure the
// temporary is removed, `path` is as it was, and the error names the file
// and the system's reason.
Status WriteFileAtomically(const std::string& path, std::span<const uint8_t> bytes);

}  // namespace isapack

#endif  // ISAPACK_CORE_OUTPUT_FILE_H_
