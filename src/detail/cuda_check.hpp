// Every CUDA runtime call goes through GPUBENCH_CUDA; every launch is followed
// by GPUBENCH_CHECK_LAUNCH. A failure becomes a CudaError naming the call site.
#pragma once

#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

namespace gpubench {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* what_call, const char* file, int line)
      : std::runtime_error(std::string(what_call) + " failed at " + file + ":" +
                           std::to_string(line) + ": " + cudaGetErrorName(code) +
                           " (" + cudaGetErrorString(code) + ")"),
        code_(code) {}
  // The same error with more context in front.
  CudaError(cudaError_t code, const std::string& message) : std::runtime_error(message), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

inline void cuda_check(cudaError_t code, const char* what_call, const char* file, int line) {
  if (code != cudaSuccess) throw CudaError(code, what_call, file, line);
}

// What a failed call of a CUDA library (cuBLAS, cuSPARSE, cuDNN, NCCL,
// thrust, the driver's tensor-map encoder) says: `why` is the library's own
// text for the status it returned.
inline std::string library_failure(const char* call, const char* why) {
  return std::string(call) + " failed: " + (why ? why : "(no status text)");
}

// The same as a CudaError, so that the run names the step and size it
// failed at.
inline CudaError library_error(const char* call, const char* why) {
  return CudaError(cudaErrorUnknown, library_failure(call, why));
}

}  // namespace gpubench

#define GPUBENCH_CUDA(call) ::gpubench::cuda_check((call), #call, __FILE__, __LINE__)
#define GPUBENCH_CHECK_LAUNCH() \
  ::gpubench::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
