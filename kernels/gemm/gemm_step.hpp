// The contract between the matrix-multiplication ladder and the host harness.
//
// C = A * B with A m x k, B k x n and C m x n, all row-major float (bf16
// steps read bf16 copies of A and B). A step writes C and knows nothing
// about the run.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include "kernels/common/resources.hpp"

namespace gpubench::gemm {

// The operands' precision inside the multiply (tf32: rounded to 10 mantissa
// bits on the tensor cores; bf16: stored as bfloat16, 7 mantissa bits);
// accumulation is fp32 in every case.
enum class Precision { fp32, tf32, bf16 };

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
  // bf16 steps: A and B rounded to bfloat16, each row padded to a multiple
  // of 8 elements (16 bytes, the row alignment the tensor-memory
  // accelerator needs); padding is zero. Null when no bf16 step runs.
  const __nv_bfloat16* a_bf16 = nullptr;  // m x lda_bf16
  const __nv_bfloat16* b_bf16 = nullptr;  // k x ldb_bf16
  int lda_bf16 = 0, ldb_bf16 = 0;
};

// Leading dimension of a bf16 operand copy with `cols` columns.
inline int padded_bf16_ld(int cols) { return (cols + 7) / 8 * 8; }

struct Workspace {
  cudaStream_t stream = nullptr;
  void* cublas = nullptr;   // a cublasHandle_t bound to `stream`
  // The step's scratch_bytes of device memory, 256-byte aligned, zeroed
  // before the step's first run (steps share it); a step that keeps flags
  // there leaves them zero at the end of each run.
  void* scratch = nullptr;
};

struct Step {
  const char* name;
  Ladder ladder;
  const char* summary;
  Precision precision;
  void (*run)(const Problem&, const Workspace&);
  Resources (*resources)();  // nullptr for library steps
  // Nonzero: the step's code is built for this compute capability only
  // (e.g. 90 for sm_90a's wgmma) and runs on no other GPU.
  int only_cc = 0;
  // The lowest compute capability the step runs on (e.g. 80 for bf16 in cuBLAS).
  int min_cc = 0;
  // The step runs on the host, with host pointers in its Problem.
  bool on_host = false;
  // When set and it returns non-null, the step cannot run here, and why.
  const char* (*unavailable)() = nullptr;
  // When set: the device memory the step needs beside A, B and C (e.g. an
  // operand in another layout, made inside the timed run).
  std::size_t (*scratch_bytes)(int m, int n, int k) = nullptr;
};

}  // namespace gpubench::gemm
