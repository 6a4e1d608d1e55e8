// Reads of little-endian integers from untrusted bytes, and the bounds check
// every reader applies first. Load does no checking itself: callers test
// InBounds before they load.
#ifndef ISAPACK_CORE_BOUNDED_READ_H_
#define ISAPACK_CORE_BOUNDED_READ_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace isapack {

// The value of type T at `offset`, without alignment requirements.
template <typename T>
T Load(std::span<const uint8_t> bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

// True when [offset, offset + size) lies within a buffer of `total` bytes
// (written so that no sum can overflow).
inline bool InBounds(uint64_t offset, uint64_t size, uint64_t total) {
  return offset <= total && size <= total - offset;
}

}  // namespace isapack

#endif  // ISAPACK_CORE_BOUNDED_READ_H_
