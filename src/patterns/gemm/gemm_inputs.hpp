// The matrices a gemm run multiplies: seeded inputs, their bf16 copies, and
// the reference product (on the host, or by cuBLAS for large problems).
#pragma once

#include <cstdint>
#include <vector>

#include <cublas_v2.h>
#include <cuda_bf16.h>

namespace gpubench::gemm {

// rows x cols values uniform in [-1, 1), row-major, the same for every run with the same seed.
std::vector<float> random_matrix(std::int64_t rows, std::int64_t cols, std::uint64_t seed);

// Each value rounded to the nearest bfloat16, kept as float.
std::vector<float> round_to_bf16(const std::vector<float>& v);

// rows x cols values as bf16 rows of `ld` elements, the padding zero.
std::vector<__nv_bfloat16> pack_bf16(const std::vector<float>& v, std::int64_t rows, int cols, int ld);

// A cuBLAS handle bound to a stream.
struct Blas {
  cublasHandle_t handle = nullptr;
  explicit Blas(cudaStream_t stream);
  ~Blas();
  Blas(const Blas&) = delete;
  Blas& operator=(const Blas&) = delete;
};

// Below this many multiply-adds the reference is computed on the host in
// double; above, by cuBLAS in pedantic FP32 (no TF32, no reordering tricks).
constexpr double kHostReferenceLimit = double(1ull << 31);

// The reference product of the host matrices a (m x k) and b (k x n): on the
// host below kHostReferenceLimit or without a GPU (blas null); else by cuBLAS
// into c_scratch (m x n floats on the device) from device copies of a and b
// (dev_a and dev_b, or temporary ones when those are null), checked at
// sampled elements against the host.
std::vector<float> reference_product(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k,
                                     const Blas* blas, cudaStream_t stream, const void* dev_a, const void* dev_b,
                                     float* c_scratch);

}  // namespace gpubench::gemm
