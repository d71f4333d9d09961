// tma_ring — beyond the course, on Hopper: vectorized keeps one plane of
// loads in flight per thread, and prefetched buys a second only with
// registers, which cost blocks per SM. Here no thread loads at all: one
// thread asks the tensor-memory accelerator (TMA) for whole plane tiles,
// halo included (the copy engine zero-fills what lies outside the grid),
// into a ring of kStages planes in shared memory, each with its own
// mbarrier. Three planes of the ring are being computed on; the other
// kStages - 3 are in flight, so the bytes waiting on DRAM per SM are set by
// shared memory, not by registers. Threads read z-1, z and z+1 from the
// ring and write their 128-bit vector straight to global memory. A tile is
// 16 rows tall, twice vectorized's 8, so the halo rows it copies are 2 in
// 18, not 2 in 10: 4.9% to 6.6% faster at 384^3 to 640^3 on the H200, though
// the ring (79 KB) leaves room for 2 blocks per SM instead of 5. Grids the
// TMA cannot describe (a side that is not a multiple of the vector, or a
// grid not on a 16-byte boundary) run the vectorized step.
#include <memory>

#include "kernels/common/hopper_copies.cuh"
#include "kernels/common/march.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/stencil3d/stencil3d_common.cuh"

namespace gpubench::stencil3d {

const Step& step_vectorized();

namespace {

constexpr int kBlockX = 32, kBlockY = 16, kStages = 8;

// The longest march a block makes, in planes: 32, the best of the lengths
// tried at sides 256 and 384 in float32 and 384 to 640 in float64 on the
// H200 with 8-row tiles (at 256 in float64, 128 planes was 3% faster),
// and against 64 with 16-row ones at 512 and 640
// (results/h200/experiments/README.md); shorter where that fills the GPU's
// last wave of blocks better. A march reads two planes more than it
// writes (one past each end): its cost before it starts.
constexpr int kLongestMarch = 32, kMarchStart = 2;

// One plane tile in shared memory: the block's 32 vectors of 16 rows, one
// vector more on each side (the x halo, keeping rows 16-byte aligned) and
// a row more above and below. 544 bytes a row for either element type.
template <class T>
struct PlaneTile {
  static constexpr int kV = 16 / int(sizeof(T));
  static constexpr int kWidth = (kBlockX + 2) * kV, kRows = kBlockY + 2;
  static constexpr int kBytes = kWidth * kRows * int(sizeof(T));
  static constexpr int kStride = (kBytes + 127) / 128 * 128;  // TMA writes to 128-byte-aligned shared memory
};

template <class T>
constexpr int shared_bytes() { return kStages * PlaneTile<T>::kStride; }

template <class T>
__global__ void __launch_bounds__(kBlockX * kBlockY)
    tma_ring(const __grid_constant__ CUtensorMap map, T* __restrict__ out, std::int64_t n, Coefficients<T> k, int depth) {
  using Tile = PlaneTile<T>;
  constexpr int V = Tile::kV;
  using W = Vec<T, V>;
  extern __shared__ __align__(128) unsigned char ring[];
  __shared__ __align__(8) std::uint64_t full[kStages];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const bool issuer = tx == 0 && ty == 0;
  const int x0 = int(blockIdx.x) * kBlockX * V, y0 = int(blockIdx.y) * kBlockY;
  const std::int64_t z0 = std::int64_t(blockIdx.z) * depth, z_end = min(z0 + depth, n);
  // Plane i of this block is z0 - 1 + i, for i in [0, planes): its stage is
  // i % kStages and it is that stage's fill number i / kStages.
  const int planes = int(z_end - z0) + 2;
  auto stage = [&](int i) { return reinterpret_cast<const T*>(ring + (i % kStages) * Tile::kStride); };
  auto fill = [&](int i) {
    hopper::mbarrier_arrive_expect_bytes(&full[i % kStages], Tile::kBytes);
    hopper::tma_load_3d(ring + (i % kStages) * Tile::kStride, &map, &full[i % kStages], x0 - V, y0 - 1,
                        int(z0 - 1 + i));
  };
  auto wait = [&](int i) { hopper::mbarrier_wait(&full[i % kStages], (i / kStages) & 1); };
  if (issuer) {
    for (int s = 0; s < kStages; ++s) hopper::mbarrier_init(&full[s], 1);
    hopper::fence_barrier_init();
    for (int i = 0; i < kStages && i < planes; ++i) fill(i);
  }
  __syncthreads();  // the barriers are initialized before anyone waits on them
  const std::int64_t x = x0 + std::int64_t(tx) * V, y = y0 + ty;
  const int at = (ty + 1) * Tile::kWidth + (tx + 1) * V;  // this thread's vector in a plane tile
  wait(0);
  wait(1);
  for (int i = 1; i + 1 < planes; ++i) {
    wait(i + 1);
    const T* here = stage(i);
    const W curr = *reinterpret_cast<const W*>(here + at), up = *reinterpret_cast<const W*>(here + at - Tile::kWidth),
            down = *reinterpret_cast<const W*>(here + at + Tile::kWidth),
            below = *reinterpret_cast<const W*>(stage(i - 1) + at), above = *reinterpret_cast<const W*>(stage(i + 1) + at);
    const T left = here[at - 1], right = here[at + V];
    const std::int64_t z = z0 - 1 + i;
    W result;
#pragma unroll
    for (int e = 0; e < V; ++e) {
      const T xm = e == 0 ? left : curr.v[e - 1], xp = e == V - 1 ? right : curr.v[e + 1];
      result.v[e] = interior(n, x + e, y, z) ? stencil(k, curr.v[e], xm, xp, up.v[e], down.v[e], below.v[e], above.v[e])
                                             : curr.v[e];
    }
    if (x < n && y < n) store_vec(out + (z * n + y) * n + x, result);
    __syncthreads();  // plane i - 1 is read by all before its stage is refilled
    if (issuer && i - 1 + kStages < planes) fill(i - 1 + kStages);
  }
}

// The grid as a 3D tensor (x innermost), copied in plane tiles.
template <class T>
CUtensorMap grid_map(const Problem& p) {
  using Tile = PlaneTile<T>;
  const cuuint64_t n = cuuint64_t(p.n), dims[3] = {n, n, n}, strides[2] = {n * sizeof(T), n * n * sizeof(T)};
  const cuuint32_t box[3] = {cuuint32_t(Tile::kWidth), cuuint32_t(Tile::kRows), 1};
  return plain_tensor_map(sizeof(T) == 8, 3, p.in, dims, strides, box);
}

// What a run needs: the tensor map and the planes a block marches, both
// found once outside the timed region; null where the vectorized step runs
// instead.
struct Plan {
  CUtensorMap map;
  int depth;
};

std::shared_ptr<void> make_plan(const Problem& p, cudaStream_t) {
  if (!tma_can_copy(p.in, p.out, std::size_t(p.n) * dtype_size(p.dtype))) return nullptr;
  return visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    GPUBENCH_CUDA(cudaFuncSetAttribute(tma_ring<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes<T>()));
    const std::int64_t columns = std::int64_t(blocks(p.n, kBlockX * PlaneTile<T>::kV)) * blocks(p.n, kBlockY);
    const auto depth = march_length(&tma_ring<T>, kBlockX * kBlockY, shared_bytes<T>(), columns, p.n, kLongestMarch,
                                    kMarchStart, 65535);
    return std::shared_ptr<void>(std::make_shared<Plan>(Plan{grid_map<T>(p), int(depth)}));
  });
}

void run(const Problem& p, const Workspace& ws) {
  if (!ws.plan) return step_vectorized().run(p, ws);
  const Plan& plan = *static_cast<const Plan*>(ws.plan);
  visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const dim3 grid(blocks(p.n, kBlockX * PlaneTile<T>::kV), blocks(p.n, kBlockY), blocks(p.n, plan.depth));
    tma_ring<T><<<grid, dim3(kBlockX, kBlockY), shared_bytes<T>(), ws.stream>>>(plan.map, static_cast<T*>(p.out), p.n,
                                                                             coefficients<T>(p), plan.depth);
  });
  GPUBENCH_CHECK_LAUNCH();
}

std::string unavailable(const Problem& p) {
  return visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return tma_code_missing(reinterpret_cast<const void*>(&tma_ring<T>));
  });
}

Resources resources(const Problem& p) {
  if (!tma_can_copy(p.in, p.out, std::size_t(p.n) * dtype_size(p.dtype))) return step_vectorized().resources(p);  // what runs
  return visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return resources_of(&tma_ring<T>, shared_bytes<T>());
  });
}

}  // namespace
}  // namespace gpubench::stencil3d

GPUBENCH_STENCIL3D_TMA_STEP(tma_ring,
                            "TMA copies plane tiles with their halo into an 8-plane shared ring; 5 planes in flight")
