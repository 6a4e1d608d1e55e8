// Errors inside isapack's C++ code: a status code of the public C API and
// a message that names the problem and the fix. Expected<T> carries a value
// or an Error (C++20 has no std::expected).
#ifndef ISAPACK_CORE_ERROR_H_
#define ISAPACK_CORE_ERROR_H_

#include <string>
#include <utility>
#include <variant>

#include "isapack/status_code.h"

namespace isapack {

struct Error {
  isapack_status_code_t code = ISAPACK_STATUS_INTERNAL;
  std::string message;
};

inline Error MakeError(isapack_status_code_t code, std::string message) {
  return Error{code, std::move(message)};
}

template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}      // NOLINT: implicit by design
  Expected(Error error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<T>(state_); }
  const T& value() const { return std::get<T>(state_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  const Error& error() const { return std::get<Error>(state_); }
  Error&& take_error() { return std::move(std::get<Error>(state_)); }

 private:
  std::variant<T, Error> state_;
};

// Success or an Error, for operations without a value.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), failed_(true) {}  // NOLINT: implicit

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return error_; }
  Error&& take_error() { return std::move(error_); }

 private:
  Error error_;
  bool failed_ = false;
};

}  // namespace isapack

#endif  // ISAPACK_CORE_ERROR_H_
