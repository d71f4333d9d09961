// warptiled — a warp owns a 64 x 64 sub-tile of the block tile (lecture P24).
// The block (128 x 128, slabs of BK = 16, 4 warps) is split into warp tiles,
// and each warp's tile into 4 column strips of 64 x 16. A thread computes an
// 8 x 4 piece of every strip: 128 results. Per slab element a warp reads 8
// distinct 32-byte pieces of A (4 lanes share each, a broadcast) and 4
// distinct 16-byte pieces of B (8 lanes share each), and its stores cover
// 64-byte row segments of C. Fewer threads, more work each: more registers
// in use, fewer shared-memory loads per multiply-add.
#include "kernels/gemm/vectorized_tile.cuh"

namespace gpubench::gemm {
namespace {

constexpr int kBM = 128, kBN = 128, kBK = 16;
constexpr int kWM = 64, kWN = 64, kWNIter = 4, kTM = 8, kTN = 4;
constexpr int kThreads = (kBM / kWM) * (kBN / kWN) * 32;         // 128
constexpr int kWMIter = (kWM * kWN) / (32 * kTM * kTN * kWNIter);  // 1
constexpr int kWSubM = kWM / kWMIter, kWSubN = kWN / kWNIter;     // 64 x 16
constexpr int kLdA = kBM + 4;  // padded as in bank_conflict_free; with BK = 16 the transposed store stays 2-way conflicted

template <bool kVec>
__global__ void __launch_bounds__(kThreads) warptiled_kernel(const float* a, const float* b, float* c, int m, int n,
                                                              int k) {
  __shared__ __align__(16) float as[kBK * kLdA];  // transposed
  __shared__ __align__(16) float bs[kBK * kBN];
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / (kBN / kWN)) * kWM, warp_col = (warp % (kBN / kWN)) * kWN;
  const int lane_row = lane / (kWSubN / kTN), lane_col = lane % (kWSubN / kTN);  // 8 x 4 lanes
  const int a_row = threadIdx.x / (kBK / 4), a_col = (threadIdx.x % (kBK / 4)) * 4;
  const int b_row = threadIdx.x / (kBN / 4), b_col = (threadIdx.x % (kBN / 4)) * 4;
  constexpr int kStrideA = kThreads / (kBK / 4), kStrideB = kThreads / (kBN / 4);

  float acc[kWMIter * kTM][kWNIter * kTN] = {};
  float reg_a[kWMIter * kTM], reg_b[kWNIter * kTN];
  for (int k0 = 0; k0 < k; k0 += kBK) {
#pragma unroll
    for (int r = 0; r < kBM; r += kStrideA) {
      const float4 v = vectorized::load4<kVec>(a, row0 + a_row + r, k0 + a_col, m, k, k);
      as[(a_col + 0) * kLdA + a_row + r] = v.x;
      as[(a_col + 1) * kLdA + a_row + r] = v.y;
      as[(a_col + 2) * kLdA + a_row + r] = v.z;
      as[(a_col + 3) * kLdA + a_row + r] = v.w;
    }
#pragma unroll
    for (int r = 0; r < kBK; r += kStrideB)
      *reinterpret_cast<float4*>(&bs[(b_row + r) * kBN + b_col]) =
          vectorized::load4<kVec>(b, k0 + b_row + r, col0 + b_col, k, n, n);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < kBK; ++p) {
#pragma unroll
      for (int wm = 0; wm < kWMIter; ++wm)
#pragma unroll
        for (int i = 0; i < kTM; i += 4)
          vectorized::unpack(
              *reinterpret_cast<const float4*>(&as[p * kLdA + warp_row + wm * kWSubM + lane_row * kTM + i]),
              &reg_a[wm * kTM + i]);
#pragma unroll
      for (int wn = 0; wn < kWNIter; ++wn)
        vectorized::unpack(*reinterpret_cast<const float4*>(&bs[p * kBN + warp_col + wn * kWSubN + lane_col * kTN]),
                           &reg_b[wn * kTN]);
#pragma unroll
      for (int i = 0; i < kWMIter * kTM; ++i)
#pragma unroll
        for (int j = 0; j < kWNIter * kTN; ++j) acc[i][j] += reg_a[i] * reg_b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int wm = 0; wm < kWMIter; ++wm)
#pragma unroll
    for (int i = 0; i < kTM; ++i)
#pragma unroll
      for (int wn = 0; wn < kWNIter; ++wn) {
        const int row = row0 + warp_row + wm * kWSubM + lane_row * kTM + i;
        const int col = col0 + warp_col + wn * kWSubN + lane_col * kTN;
        const float* v = &acc[wm * kTM + i][wn * kTN];
        vectorized::store4<kVec>(c, row, col, m, n, n, make_float4(v[0], v[1], v[2], v[3]));
      }
}

void run(const Problem& p, const Workspace& ws) {
  const dim3 grid(ceil_div(p.n, kBN), ceil_div(p.m, kBM));
  if (p.k % 4 == 0 && p.n % 4 == 0)
    warptiled_kernel<true><<<grid, kThreads, 0, ws.stream>>>(p.a, p.b, p.c, p.m, p.n, p.k);
  else
    warptiled_kernel<false><<<grid, kThreads, 0, ws.stream>>>(p.a, p.b, p.c, p.m, p.n, p.k);
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace
}  // namespace gpubench::gemm

GPUBENCH_GEMM_STEP(warptiled, Ladder::cuda_core, Precision::fp32,
                   "warp tiling: 64x64 warp tiles, 8x4 pieces of 4 strips per thread, 128 threads", run,
                   warptiled_kernel<true>)
