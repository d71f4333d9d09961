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
// float64) run tma_ring. It costs occupancy: the ring fills most of an SM's
// shared memory, so one block is resident per SM and a stalled block has no
// other to hide behind.
#include <memory>

#include "kernels/common/hopper_copies.cuh"
#include "kernels/stencil3d/row_slab.cuh"

namespace gpubench::stencil3d {

const Step& step_tma_ring();

namespace {

using namespace row_slab;

template <class T>
__global__ void __launch_bounds__(kThreads, 1)
    row_slabs(const __grid_constant__ CUtensorMap map, T* __restrict__ out, std::int64_t n, Coefficients<T> k,
              int depth, int stages) {
  using S = Slab<T, false>;
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

constexpr auto kernel_of = [](auto tag) { return &row_slabs<typename decltype(tag)::type>; };

std::shared_ptr<void> make_plan(const Problem& p, cudaStream_t stream) {
  return row_slab::make_plan<false>(p, stream, step_tma_ring(), kernel_of);
}

void run(const Problem& p, const Workspace& ws) {
  row_slab::run(p, ws, step_tma_ring(), [&](auto tag, const Plan& plan, dim3 grid) {
    using T = typename decltype(tag)::type;
    const auto kernel = kernel_of(tag);
    kernel<<<grid, kThreads, plan.shared, ws.stream>>>(plan.in, static_cast<T*>(p.out), p.n, coefficients<T>(p), plan.depth,
                                                       plan.stages);
  });
}

std::string unavailable(const Problem& p) { return row_slab::unavailable(p, kernel_of); }

Resources resources(const Problem& p) { return row_slab::resources<false>(p, step_tma_ring(), kernel_of); }

}  // namespace
}  // namespace gpubench::stencil3d

GPUBENCH_STENCIL3D_TMA_STEP(row_slabs,
                            "blocks own slabs of whole rows: no x halo, one contiguous copy a plane, z-1 and z in registers")
