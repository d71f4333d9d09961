// The library baseline: what a user without a stencil library does, the
// stencil as a sparse matrix times the grid as a vector, cusparseSpMV on a
// CSR matrix with one row per point (7 nonzeros for interior points, a 1
// on the diagonal for boundary points, so out = in there). The matrix is
// built on the device before timing, with the SpMV buffer and
// cusparseSpMV_preprocess, as cuSPARSE's documentation recommends for a
// matrix used many times. Its nonzeros (about 7 n^3) are read on every run,
// which is why it is far from the copy ceiling.
#include <cusparse.h>

#include <algorithm>
#include <climits>
#include <string>

#include "kernels/stencil3d/stencil3d_common.cuh"

namespace gpubench::stencil3d {
namespace {

void check(cusparseStatus_t status, const char* call) {
  if (status != CUSPARSE_STATUS_SUCCESS) throw library_error(call, cusparseGetErrorString(status));
}
#define GPUBENCH_CUSPARSE(call) check(call, #call)

__host__ __device__ std::int64_t nonzeros(std::int64_t n) {
  const std::int64_t m = n > 2 ? n - 2 : 0;
  return n * n * n + 6 * m * m * m;
}

// Interior points before (x, y, z) in index order, so row r starts at
// r + 6 * interior_before.
__device__ std::int64_t interior_before(std::int64_t n, std::int64_t x, std::int64_t y, std::int64_t z) {
  const std::int64_t m = n - 2;
  auto clamp = [m](std::int64_t v) { return v < 0 ? 0 : (v > m ? m : v); };
  std::int64_t before = clamp(z - 1) * m * m;
  if (z >= 1 && z <= m) {
    before += clamp(y - 1) * m;
    if (y >= 1 && y <= m) before += clamp(x - 1);
  }
  return before;
}

template <class T>
__global__ void build_csr(std::int64_t n, Coefficients<T> k, int* row_start, int* cols, T* vals) {
  const std::int64_t rows = n * n * n, plane = n * n;
  for (std::int64_t r = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r <= rows;
       r += std::int64_t(gridDim.x) * blockDim.x) {
    if (r == rows) {
      row_start[rows] = int(nonzeros(n));
      continue;
    }
    const std::int64_t x = r % n, y = r / n % n, z = r / plane;
    const std::int64_t start = r + 6 * (n >= 3 ? interior_before(n, x, y, z) : 0);
    row_start[r] = int(start);
    if (!interior(n, x, y, z)) {
      cols[start] = int(r);
      vals[start] = T(1);
      continue;
    }
    const std::int64_t col[7] = {r - plane, r - n, r - 1, r, r + 1, r + n, r + plane};  // ascending
    const T val[7] = {k.c[5], k.c[3], k.c[1], k.c[0], k.c[2], k.c[4], k.c[6]};
    for (int j = 0; j < 7; ++j) {
      cols[start + j] = int(col[j]);
      vals[start + j] = val[j];
    }
  }
}

struct Plan {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t matrix = nullptr;
  cusparseConstDnVecDescr_t x = nullptr;
  cusparseDnVecDescr_t y = nullptr;
  void *row_start = nullptr, *cols = nullptr, *vals = nullptr, *buffer = nullptr;
  cudaDataType type = CUDA_R_32F;

  ~Plan() {
    if (x) cusparseDestroyDnVec(x);
    if (y) cusparseDestroyDnVec(y);
    if (matrix) cusparseDestroySpMat(matrix);
    if (handle) cusparseDestroy(handle);
    for (void* p : {row_start, cols, vals, buffer})
      if (p) cudaFree(p);
  }
};

std::string unavailable(const Problem& p) {
  if (nonzeros(p.n) > INT_MAX)
    return "its CSR matrix would hold more than 2^31 - 1 nonzeros (32-bit indices, and more memory than the grid)";
  return {};
}

double extra_device_bytes(const Problem& p) {
  const double nnz = double(nonzeros(p.n)), rows = double(p.n) * double(p.n) * double(p.n);
  return nnz * (4.0 + double(dtype_size(p.dtype))) + 4.0 * (rows + 1);
}

std::shared_ptr<void> make_plan(const Problem& p, cudaStream_t stream) {
  auto plan = std::make_shared<Plan>();
  const std::int64_t rows = p.n * p.n * p.n, nnz = nonzeros(p.n);
  const std::size_t size = dtype_size(p.dtype);
  plan->type = p.dtype == DType::f64 ? CUDA_R_64F : CUDA_R_32F;
  GPUBENCH_CUDA(cudaMalloc(&plan->row_start, std::size_t(rows + 1) * 4));
  GPUBENCH_CUDA(cudaMalloc(&plan->cols, std::size_t(nnz) * 4));
  GPUBENCH_CUDA(cudaMalloc(&plan->vals, std::size_t(nnz) * size));
  visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    build_csr<T><<<1024, 256, 0, stream>>>(p.n, coefficients<T>(p), static_cast<int*>(plan->row_start),
                                           static_cast<int*>(plan->cols), static_cast<T*>(plan->vals));
  });
  GPUBENCH_CHECK_LAUNCH();
  GPUBENCH_CUSPARSE(cusparseCreate(&plan->handle));
  GPUBENCH_CUSPARSE(cusparseSetStream(plan->handle, stream));
  GPUBENCH_CUSPARSE(cusparseCreateCsr(&plan->matrix, rows, rows, nnz, plan->row_start, plan->cols, plan->vals,
                                      CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, plan->type));
  GPUBENCH_CUSPARSE(cusparseCreateConstDnVec(&plan->x, rows, p.in, plan->type));
  GPUBENCH_CUSPARSE(cusparseCreateDnVec(&plan->y, rows, p.out, plan->type));
  const double one = 1, zero = 0;
  const float one32 = 1, zero32 = 0;
  const void* alpha = p.dtype == DType::f64 ? static_cast<const void*>(&one) : &one32;
  const void* beta = p.dtype == DType::f64 ? static_cast<const void*>(&zero) : &zero32;
  std::size_t bytes = 0;
  GPUBENCH_CUSPARSE(cusparseSpMV_bufferSize(plan->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, plan->matrix,
                                            plan->x, beta, plan->y, plan->type, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  GPUBENCH_CUDA(cudaMalloc(&plan->buffer, std::max<std::size_t>(bytes, 16)));
  GPUBENCH_CUSPARSE(cusparseSpMV_preprocess(plan->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, plan->matrix,
                                            plan->x, beta, plan->y, plan->type, CUSPARSE_SPMV_ALG_DEFAULT,
                                            plan->buffer));
  GPUBENCH_CUDA(cudaStreamSynchronize(stream));
  return plan;
}

void run(const Problem& p, const Workspace& ws) {
  const Plan& plan = *static_cast<const Plan*>(ws.plan);
  const double one = 1, zero = 0;
  const float one32 = 1, zero32 = 0;
  const bool f64 = p.dtype == DType::f64;
  GPUBENCH_CUSPARSE(cusparseSpMV(plan.handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                 f64 ? static_cast<const void*>(&one) : &one32, plan.matrix, plan.x,
                                 f64 ? static_cast<const void*>(&zero) : &zero32, plan.y, plan.type,
                                 CUSPARSE_SPMV_ALG_DEFAULT, plan.buffer));
}

}  // namespace

const Step& step_cusparse() {
  static const Step step{"cusparse",          Ladder::baseline, "cusparseSpMV: the stencil as a CSR matrix times the grid",
                         Where::device,       &run,             &make_plan,
                         nullptr,             &unavailable,     &extra_device_bytes};
  return step;
}

}  // namespace gpubench::stencil3d
