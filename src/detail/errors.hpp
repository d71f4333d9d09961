// Errors that end a command with one line on stderr and a documented exit code.
#pragma once

#include <stdexcept>
#include <string>

namespace gpubench {

// Process exit codes (also in README.md).
enum ExitCode : int {
  kExitOk = 0,
  kExitVerifyFailed = 1,  // a benchmark ran but its result was wrong (FAIL row)
  kExitUsage = 2,         // bad arguments, sizes, paths or configs
  kExitNoDevice = 3,      // a GPU command with no usable CUDA device
  kExitCudaError = 4,     // a CUDA call, or a CUDA library's, failed while running
  kExitInternal = 5,      // anything else: out of host memory, a bug
};

// Bad input from the user: unknown names, bad sizes, unwritable paths.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// No CUDA device (or the chosen one does not exist).
class NoDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gpubench
