// CHECK for the standalone programs beside it (l2_flush_check.cu,
// cublas_anchor_check.cu): prints the failed call and exits 1.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(call)                                                     \
  do {                                                                  \
    cudaError_t e_ = (call);                                            \
    if (e_ != cudaSuccess) {                                            \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                     \
    }                                                                   \
  } while (0)
