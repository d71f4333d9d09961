// The library baselines: cuBLAS SGEMM in FP32 (cublas), with TF32 tensor
// cores (cublas_tf32), and on the BF16 copies of A and B (cublas_bf16). cuBLAS is column-major: C = A * B in row-major is
// C^T = B^T * A^T in column-major, which is the same memory, so the call
// passes B first.
#include <cublas_v2.h>

#include "kernels/gemm/cublas_check.hpp"
#include "kernels/gemm/gemm_step.hpp"

namespace gpubench::gemm {
namespace {

void run_with(const Problem& p, const Workspace& ws, cublasComputeType_t compute) {
  const float one = 1.0f, zero = 0.0f;
  cublas_check(cublasGemmEx(static_cast<cublasHandle_t>(ws.cublas), CUBLAS_OP_N, CUBLAS_OP_N, p.n, p.m, p.k, &one,
                            p.b, CUDA_R_32F, p.n, p.a, CUDA_R_32F, p.k, &zero, p.c, CUDA_R_32F, p.n, compute,
                            CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");
}

void run_fp32(const Problem& p, const Workspace& ws) { run_with(p, ws, CUBLAS_COMPUTE_32F); }
void run_tf32(const Problem& p, const Workspace& ws) { run_with(p, ws, CUBLAS_COMPUTE_32F_FAST_TF32); }

void run_bf16(const Problem& p, const Workspace& ws) {
  const float one = 1.0f, zero = 0.0f;
  cublas_check(cublasGemmEx(static_cast<cublasHandle_t>(ws.cublas), CUBLAS_OP_N, CUBLAS_OP_N, p.n, p.m, p.k, &one,
                            p.b_bf16, CUDA_R_16BF, p.ldb_bf16, p.a_bf16, CUDA_R_16BF, p.lda_bf16, &zero, p.c,
                            CUDA_R_32F, p.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");
}

}  // namespace

const Step& step_cublas() {
  static const Step step{"cublas", Ladder::baseline, "cuBLAS SGEMM, FP32 on the CUDA cores", Precision::fp32,
                         &run_fp32, nullptr};
  return step;
}

const Step& step_cublas_tf32() {
  static const Step step{"cublas_tf32", Ladder::baseline, "cuBLAS with TF32 tensor cores", Precision::tf32,
                         &run_tf32, nullptr};
  return step;
}

const Step& step_cublas_bf16() {
  static const Step step{"cublas_bf16", Ladder::baseline, "cuBLAS on BF16 inputs, FP32 accumulation", Precision::bf16,
                         &run_bf16, nullptr, 0, /*min_cc: BF16 tensor cores from Ampere on*/ 80};
  return step;
}

}  // namespace gpubench::gemm
