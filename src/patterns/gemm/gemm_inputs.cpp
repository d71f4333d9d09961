#include "src/patterns/gemm/gemm_inputs.hpp"

#include "kernels/gemm/cublas_check.hpp"
#include "src/detail/cuda_check.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/detail/parallel.hpp"
#include "src/detail/random.hpp"
#include "src/patterns/gemm/gemm_check.hpp"

namespace gpubench::gemm {

std::vector<float> random_matrix(std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  std::vector<float> v(std::size_t(rows * cols));
  const std::uint64_t base = mix(seed);
  parallel_chunks(std::int64_t(v.size()), [&](unsigned, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) v[i] = float(uniform_pm1(base, i));
  });
  return v;
}

std::vector<float> round_to_bf16(const std::vector<float>& v) {
  std::vector<float> r(v.size());
  parallel_chunks(std::int64_t(v.size()), [&](unsigned, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) r[i] = __bfloat162float(__float2bfloat16(v[i]));
  });
  return r;
}

std::vector<__nv_bfloat16> pack_bf16(const std::vector<float>& v, std::int64_t rows, int cols, int ld) {
  std::vector<__nv_bfloat16> out(std::size_t(rows) * ld, __float2bfloat16(0.0f));
  parallel_chunks(rows, [&](unsigned, std::int64_t b, std::int64_t e) {
    for (std::int64_t r = b; r < e; ++r)
      for (int c = 0; c < cols; ++c) out[std::size_t(r) * ld + c] = __float2bfloat16(v[std::size_t(r) * cols + c]);
  });
  return out;
}

Blas::Blas(cudaStream_t stream) {
  cublas_check(cublasCreate(&handle), "cublasCreate");
  cublas_check(cublasSetStream(handle, stream), "cublasSetStream");
}

Blas::~Blas() { cublasDestroy(handle); }

std::vector<float> reference_product(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k,
                                     const Blas* blas, cudaStream_t stream, const void* dev_a, const void* dev_b,
                                     float* c_scratch) {
  if (!blas || double(m) * n * k <= kHostReferenceLimit) return host_reference(a, b, m, n, k);
  DeviceBuffer tmp_a, tmp_b;
  if (!dev_a) {
    tmp_a = DeviceBuffer(a.size() * 4);
    tmp_b = DeviceBuffer(b.size() * 4);
    GPUBENCH_CUDA(cudaMemcpyAsync(tmp_a.get(), a.data(), a.size() * 4, cudaMemcpyHostToDevice, stream));
    GPUBENCH_CUDA(cudaMemcpyAsync(tmp_b.get(), b.data(), b.size() * 4, cudaMemcpyHostToDevice, stream));
    dev_a = tmp_a.get();
    dev_b = tmp_b.get();
  }
  const float one = 1.0f, zero = 0.0f;
  cublas_check(cublasGemmEx(blas->handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, dev_b, CUDA_R_32F, n, dev_a,
                            CUDA_R_32F, k, &zero, c_scratch, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_PEDANTIC,
                            CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx (reference)");
  std::vector<float> ref(std::size_t(m) * n);
  GPUBENCH_CUDA(cudaMemcpyAsync(ref.data(), c_scratch, ref.size() * 4, cudaMemcpyDeviceToHost, stream));
  GPUBENCH_CUDA(cudaStreamSynchronize(stream));  // the temporary copies may go
  const Verdict sampled = check_reference_samples(ref, a, b, m, n, k);
  if (!sampled.ok) throw CudaError(cudaErrorUnknown, "cuBLAS reference: " + sampled.detail);
  return ref;
}

}  // namespace gpubench::gemm
