// row_slabs — beyond the course, on Hopper: tma_ring copies tiles 32
// vectors wide, so every row of a tile drags a 32-byte sector of each
// neighbouring tile through L2 (18 sectors for 16), and its 18 rows are 18
// separate 512-byte pieces of DRAM. Here a block owns a slab of whole rows
// (16 in float32, 8 in float64): it has no x halo at all, and a plane of its
// slab with the rows above and below is one contiguous run of memory, which
// the tensor-memory accelerator copies in boxes of 256 columns. The z-1 and
// z values of each of a thread's vectors stay in registers, so only planes
// z and z+1 are being read and every other stage of the ring is in flight
// (4 of 6 at side 512 in float32, 147 KB per SM). One block of 512 threads
// per SM; marches of at most 32 planes like tma_ring's, in turn up and down
// in z so that the two marches beside a boundary read its planes at the
// same time and the second finds them in L2. Sides whose slab planes leave
// fewer than 4 stages in shared memory (past 768 in float32, 512 in
// float64) run tma_ring.
#include <algorithm>
#include <memory>

#include "kernels/common/hopper_copies.cuh"
#include "kernels/common/march.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/stencil3d/stencil3d_common.cuh"

namespace gpubench::stencil3d {

const Step& step_tma_ring();

namespace {

constexpr int kThreads = 512, kBoxWidth = 256, kMaxStages = 8, kMinStages = 4, kMaxVectorsPerThread = 6;
constexpr int kMaxShared = 227 * 1024;  // the most dynamic shared memory one block may have on Hopper

// The longest march, in planes, and its cost before it starts (the planes
// past each end), as in tma_ring: 32 was faster than 16, 24, 40, 64 and 128
// at 512^3 in float32 on the H200 (results/h200/experiments/README.md).
constexpr int kLongestMarch = 32, kMarchStart = 2;

// A slab: kRows whole rows of the grid, and the planes of the ring hold
// those rows with one more above and below, in boxes of kBoxWidth columns.
template <class T>
struct Slab {
  static constexpr int kV = 16 / int(sizeof(T));
  static constexpr int kRows = sizeof(T) == 4 ? 16 : 8;
  static constexpr int kBoxElements = kBoxWidth * (kRows + 2);
  static int boxes(std::int64_t n) { return int((n + kBoxWidth - 1) / kBoxWidth); }
  static int plane_bytes(std::int64_t n) { return boxes(n) * kBoxElements * int(sizeof(T)); }
  static int stages(std::int64_t n) { return std::min(kMaxStages, kMaxShared / plane_bytes(n)); }
  static int ring_bytes(std::int64_t n) { return stages(n) * plane_bytes(n); }  // the kernel's dynamic shared memory
  static bool fits(std::int64_t n) {
    return stages(n) >= kMinStages && (n / kV) * kRows <= std::int64_t(kThreads) * kMaxVectorsPerThread;
  }
};

// Element (x, row) of a plane in the ring: row 0 is the slab's first row
// minus one.
template <class T>
__device__ __forceinline__ int slab_index(int x, int row) {
  return (x / kBoxWidth) * Slab<T>::kBoxElements + row * kBoxWidth + x % kBoxWidth;
}

template <class T>
__global__ void __launch_bounds__(kThreads, 1)
    row_slabs(const __grid_constant__ CUtensorMap map, T* __restrict__ out, std::int64_t n, Coefficients<T> k,
              int depth, int stages) {
  using S = Slab<T>;
  constexpr int V = S::kV, H = S::kRows;
  using W = Vec<T, V>;
  extern __shared__ __align__(128) unsigned char ring[];
  __shared__ __align__(8) std::uint64_t full[kMaxStages];
  const bool issuer = threadIdx.x == 0;
  const int boxes = int((n + kBoxWidth - 1) / kBoxWidth), plane_bytes = boxes * S::kBoxElements * int(sizeof(T));
  const int y0 = int(blockIdx.x) * H, y_end = int(min(std::int64_t(y0 + H), n));
  const std::int64_t z0 = std::int64_t(blockIdx.y) * depth, z_end = min(z0 + depth, n);
  // Pieces march up and down in turn, so that the two pieces on either side
  // of a boundary read its planes at the same time (both at their start or
  // both at their end) and the second read finds them in L2. Plane i of this
  // block, for i in [0, planes), is z0 - 1 + i going up, z_end - i going
  // down; its stage is i % stages and it is that stage's fill number
  // i / stages.
  const bool up = blockIdx.y % 2 == 0;
  const int planes = int(z_end - z0) + 2;
  auto plane_z = [&](int i) { return up ? z0 - 1 + i : z_end - i; };
  // The coefficients of the planes behind and ahead in march order: z-1 and
  // z+1 going up, swapped going down.
  Coefficients<T> km = k;
  if (!up) km.c[5] = k.c[6], km.c[6] = k.c[5];
  auto stage = [&](int i) { return reinterpret_cast<const T*>(ring + (i % stages) * plane_bytes); };
  auto fill = [&](int i) {
    unsigned char* dst = ring + (i % stages) * plane_bytes;
    hopper::mbarrier_arrive_expect_bytes(&full[i % stages], plane_bytes);
    for (int b = 0; b < boxes; ++b)
      hopper::tma_load_3d(dst + b * S::kBoxElements * int(sizeof(T)), &map, &full[i % stages], b * kBoxWidth, y0 - 1,
                          int(plane_z(i)));
  };
  auto wait = [&](int i) { hopper::mbarrier_wait(&full[i % stages], (i / stages) & 1); };
  if (issuer) {
    for (int s = 0; s < stages; ++s) hopper::mbarrier_init(&full[s], 1);
    hopper::fence_barrier_init();
    for (int i = 0; i < stages && i < planes; ++i) fill(i);
  }
  __syncthreads();  // the barriers are initialized before anyone waits on them

  // This thread's vectors: q = threadIdx.x + j * kThreads, row q / (n / V) of
  // the slab, column (q % (n / V)) * V; a warp reads 32 neighbouring vectors.
  const int per_row = int(n / V), vectors = per_row * H;
  int at[kMaxVectorsPerThread], xs[kMaxVectorsPerThread], rows[kMaxVectorsPerThread];
  bool mine[kMaxVectorsPerThread];
#pragma unroll
  for (int j = 0; j < kMaxVectorsPerThread; ++j) {
    const int q = int(threadIdx.x) + j * kThreads;
    mine[j] = q < vectors && y0 + q / per_row < y_end;
    rows[j] = q / per_row + 1;
    xs[j] = (q % per_row) * V;
    at[j] = slab_index<T>(xs[j], rows[j]);
  }
  W behind[kMaxVectorsPerThread], curr[kMaxVectorsPerThread];  // the planes before this one and this one, in march order
  wait(0);
#pragma unroll
  for (int j = 0; j < kMaxVectorsPerThread; ++j)
    if (mine[j]) behind[j] = *reinterpret_cast<const W*>(stage(0) + at[j]);
  wait(1);
#pragma unroll
  for (int j = 0; j < kMaxVectorsPerThread; ++j)
    if (mine[j]) curr[j] = *reinterpret_cast<const W*>(stage(1) + at[j]);
  __syncthreads();  // plane 0 is read by all before its stage is refilled
  if (issuer && stages < planes) fill(stages);

  for (int i = 1; i + 1 < planes; ++i) {
    wait(i + 1);
    const T* here = stage(i);
    const std::int64_t z = plane_z(i);
#pragma unroll
    for (int j = 0; j < kMaxVectorsPerThread; ++j) {
      if (!mine[j]) continue;
      const int x = xs[j];
      const W ahead = *reinterpret_cast<const W*>(stage(i + 1) + at[j]);
      const W north = *reinterpret_cast<const W*>(here + at[j] - kBoxWidth),  // y - 1
          south = *reinterpret_cast<const W*>(here + at[j] + kBoxWidth);      // y + 1
      // x - 1 and x + V, clamped into the grid: only boundary points, which
      // copy their input, would reach past it.
      const T left = here[slab_index<T>(max(x - 1, 0), rows[j])];
      const T right = here[slab_index<T>(min(x + V, int(n) - 1), rows[j])];
      const std::int64_t y = y0 + rows[j] - 1;
      W result;
#pragma unroll
      for (int e = 0; e < V; ++e) {
        const T xm = e == 0 ? left : curr[j].v[e - 1], xp = e == V - 1 ? right : curr[j].v[e + 1];
        result.v[e] = interior(n, x + e, y, z) ? stencil(km, curr[j].v[e], xm, xp, north.v[e], south.v[e],
                                                         behind[j].v[e], ahead.v[e])
                                               : curr[j].v[e];
      }
      *reinterpret_cast<W*>(out + (z * n + y) * n + x) = result;
      behind[j] = curr[j];
      curr[j] = ahead;
    }
    __syncthreads();  // plane i is read by all before its stage is refilled
    if (issuer && i + stages < planes) fill(i + stages);
  }
}

// The grid as a 3D tensor (x innermost), copied in boxes of kBoxWidth
// columns and a slab's rows plus two.
template <class T>
CUtensorMap grid_map(const Problem& p) {
  const cuuint64_t n = cuuint64_t(p.n), dims[3] = {n, n, n}, strides[2] = {n * sizeof(T), n * n * sizeof(T)};
  const cuuint32_t box[3] = {cuuint32_t(kBoxWidth), cuuint32_t(Slab<T>::kRows + 2), 1};
  return plain_tensor_map(sizeof(T) == 8, 3, p.in, dims, strides, box);
}

// What a run needs, found once outside the timed region: the tensor map,
// the planes a block marches and the ring's stages; or tma_ring's plan where
// the slabs do not fit.
struct Plan {
  bool slabs;
  CUtensorMap map;
  int depth, stages, shared;
  std::shared_ptr<void> fallback;
};

bool slabs_fit(const Problem& p) {
  if (!tma_can_copy(p.in, p.out, std::size_t(p.n) * dtype_size(p.dtype))) return false;
  return visit_float(p.dtype, [&](auto tag) { return Slab<typename decltype(tag)::type>::fits(p.n); });
}

std::shared_ptr<void> make_plan(const Problem& p, cudaStream_t stream) {
  auto plan = std::make_shared<Plan>();
  plan->slabs = slabs_fit(p);
  if (!plan->slabs) {
    plan->fallback = step_tma_ring().make_plan(p, stream);
    return plan;
  }
  visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = Slab<T>;
    plan->shared = S::ring_bytes(p.n);
    GPUBENCH_CUDA(cudaFuncSetAttribute(row_slabs<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, plan->shared));
    plan->map = grid_map<T>(p);
    plan->stages = S::stages(p.n);
    plan->depth = int(march_length(&row_slabs<T>, kThreads, plan->shared, blocks(p.n, S::kRows), p.n, kLongestMarch,
                                   kMarchStart, 65535));
  });
  return plan;
}

void run(const Problem& p, const Workspace& ws) {
  const Plan& plan = *static_cast<const Plan*>(ws.plan);
  if (!plan.slabs) return step_tma_ring().run(p, Workspace{ws.stream, plan.fallback.get()});
  visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const dim3 grid(blocks(p.n, Slab<T>::kRows), blocks(p.n, plan.depth));
    row_slabs<T><<<grid, kThreads, plan.shared, ws.stream>>>(
        plan.map, static_cast<T*>(p.out), p.n, coefficients<T>(p), plan.depth, plan.stages);
  });
  GPUBENCH_CHECK_LAUNCH();
}

std::string unavailable(const Problem& p) {
  return visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return tma_code_missing(reinterpret_cast<const void*>(&row_slabs<T>));
  });
}

Resources resources(const Problem& p) {
  if (!slabs_fit(p)) return step_tma_ring().resources(p);
  return visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return resources_of(&row_slabs<T>, Slab<T>::ring_bytes(p.n));
  });
}

}  // namespace

const Step& step_row_slabs() {
  static const Step step{"row_slabs",
                         Ladder::modern,
                         "blocks own slabs of whole rows: no x halo, one contiguous copy a plane, z-1 and z in registers",
                         Where::device,
                         &run,
                         &make_plan,
                         &resources,
                         &unavailable,
                         nullptr,
                         90};
  return step;
}

}  // namespace gpubench::stencil3d
