// The status check of every cuBLAS call, the baselines' and the reference's.
#pragma once

#include <cublas_v2.h>

#include "src/detail/cuda_check.hpp"

namespace gpubench::gemm {

inline void cublas_check(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS) throw library_error(call, cublasGetStatusString(s));
}

}  // namespace gpubench::gemm
