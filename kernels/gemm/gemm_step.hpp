// The contract between the matrix-multiplication ladder and the host harness.
//
// C = A * B with A m x k, B k x n and C m x n, all row-major float. A step
// writes C and knows nothing about the run.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace gpubench::gemm {

// The operands' precision inside the multiply (tf32: rounded to 10 mantissa
// bits on the tensor cores); accumulation is fp32 either way.
enum class Precision { fp32, tf32 };

// cuda-core: FP32 steps on the CUDA cores; tensor-core: the tensor-core rung;
// baseline: the libraries.
enum class Ladder { cuda_core, tensor_core, baseline };

// a, b and c must be 16-byte aligned (cudaMalloc's are): steps use 16-byte
// loads, stores and asynchronous copies where the sizes allow.
struct Problem {
  const float* a = nullptr;  // m x k
  const float* b = nullptr;  // k x n
  float* c = nullptr;       // m x n
  int m = 0, n = 0, k = 0;  // each >= 1
};

struct Workspace {
  cudaStream_t stream = nullptr;
  void* cublas = nullptr;  // a cublasHandle_t bound to `stream`
};

// What the compiler gave the step's main kernel (cudaFuncGetAttributes).
struct Resources {
  int registers = 0;     // per thread
  int shared_bytes = 0;  // per block, static + dynamic
  int local_bytes = 0;   // per thread; > 0 means spills or a stack array
};

struct Step {
  const char* name;
  Ladder ladder;
  const char* summary;
  Precision precision;
  void (*run)(const Problem&, const Workspace&);
  Resources (*resources)();  // nullptr for library steps
};

}  // namespace gpubench::gemm
