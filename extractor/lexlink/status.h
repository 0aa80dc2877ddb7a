// lexlink/status.h: errors as values, for every lexlink API (public; C++17).
//
// `Error` carries a code, a message for people and, when the error comes from a data file, its
// `file:line:col`. `Result<T>` holds either a T or an Error; `Status` is a Result without a
// value. No lexlink function throws across its boundary: functions that can fail return one of
// these. Accessing the wrong alternative of a Result (value() of an error) is a programming
// error (std::bad_variant_access).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

// Marks the functions and classes the shared library exports (every other symbol is hidden).
#if defined(__GNUC__) || defined(__clang__)
#define LEXLINK_API __attribute__((visibility("default")))
#else
#define LEXLINK_API
#endif

namespace lexlink {

enum class ErrorCode : std::uint8_t {
  kInvalidArgument,  // the caller's input is malformed (a bad name, a bad option)
  kDataError,        // a lexicon, grammar or profile file is malformed
  kNotFound,         // a file, a jurisdiction or a resolver rule does not exist
  kIoError,          // reading or writing failed
  kLimitExceeded,    // an input exceeds a configured bound
  kUnsupported,      // a feature is not available for this input
  kInternal,         // a bug: please report
};

LEXLINK_API const char* to_string(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  // Location in a data file, when the error comes from one (line and col are 1-based; 0 = unknown).
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t col = 0;
  // The errno of the system call that failed, when one did (0 otherwise): callers tell a full
  // disk (ENOSPC) from a bad document by it.
  int os_error = 0;

  // "file:line:col: message" when a location is known, else the message.
  LEXLINK_API std::string to_string() const;
};

// A T or an error (an Error unless the API says otherwise). Cheap to move; accessing the wrong
// alternative is a programming error.
template <class T, class E = Error>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(E error) : v_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const E& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, E> v_;
};

// Result of an operation without a value.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT: implicit by design
  static Status Ok() { return Status(); }
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace lexlink
