// slab_stores — beyond the course, on Hopper: in row_slabs every thread
// writes its results to global memory itself, up to six 16-byte stores a
// plane from each of 512 threads (four at side 512 in float32), in a burst
// after each barrier. Here each thread
// writes its results into a plane of output staged in shared memory, and
// once the block's barrier shows the plane complete, one thread hands it to
// the tensor-memory accelerator: one bulk store a box of 256 columns and the
// slab's rows, which the TMA writes out while the warps go on to the next
// plane. Two staged planes alternate, so that a store reads one while the
// threads fill the other; they take ring stages' room (at side 512, 4
// stages where row_slabs has 6 in float32, 5 in float64). Grids whose slab
// planes would leave fewer than 4 stages beside the staged output (sides
// past 512), or that row_slabs would not take either, run row_slabs (which
// hands the latter on to tma_ring).
#include <memory>

#include "kernels/common/hopper_copies.cuh"
#include "kernels/stencil3d/row_slab.cuh"

namespace gpubench::stencil3d {

const Step& step_row_slabs();

namespace {

using namespace row_slab;

template <class T>
__global__ void __launch_bounds__(kThreads, 1)
    slab_stores(const __grid_constant__ CUtensorMap map, const __grid_constant__ CUtensorMap out_map, std::int64_t n,
                Coefficients<T> k, int depth, int stages) {
  using S = Slab<T, true>;
  constexpr int V = S::kV, H = S::kRows;
  using W = Vec<T, V>;
  extern __shared__ __align__(128) unsigned char ring[];
  __shared__ __align__(8) std::uint64_t full[kMaxStages];
  const bool issuer = threadIdx.x == 0;
  const int boxes = int((n + kBoxWidth - 1) / kBoxWidth), plane_bytes = boxes * S::kBoxElements * int(sizeof(T));
  T* const staged = reinterpret_cast<T*>(ring + stages * plane_bytes);  // two planes of output, `boxes` boxes each
  const int out_elements = boxes * S::kOutBoxElements;
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
      // Element (x, row) of the plane's staged output: box x / kBoxWidth.
      *reinterpret_cast<W*>(staged + (i % 2) * out_elements + (x / kBoxWidth) * S::kOutBoxElements +
                            (rows[j] - 1) * kBoxWidth + x % kBoxWidth) = result;
      behind[j] = curr[j];
      curr[j] = ahead;
    }
    hopper::fence_proxy_async();  // the staged output reaches the TMA
    // Before the barrier lets anyone on to plane i + 1, whose results go into
    // the half that plane i - 1's store reads, that store has read it.
    if (issuer) hopper::bulk_wait_read<0>();
    __syncthreads();  // plane i is read by all before its stage is refilled, and its output staged
    if (issuer) {
      for (int b = 0; b < boxes; ++b)
        hopper::tma_store_3d(&out_map, staged + (i % 2) * out_elements + b * S::kOutBoxElements, b * kBoxWidth, y0, int(z));
      hopper::bulk_commit();
      if (i + stages < planes) fill(i + stages);
    }
  }
  if (issuer) hopper::bulk_wait_all();  // the last stores are done before the block's shared memory goes
}

constexpr auto kernel_of = [](auto tag) { return &slab_stores<typename decltype(tag)::type>; };

std::shared_ptr<void> make_plan(const Problem& p, cudaStream_t stream) {
  return row_slab::make_plan<true>(p, stream, step_row_slabs(), kernel_of);
}

void run(const Problem& p, const Workspace& ws) {
  row_slab::run(p, ws, step_row_slabs(), [&](auto tag, const Plan& plan, dim3 grid) {
    using T = typename decltype(tag)::type;
    const auto kernel = kernel_of(tag);
    kernel<<<grid, kThreads, plan.shared, ws.stream>>>(plan.in, plan.out, p.n, coefficients<T>(p), plan.depth, plan.stages);
  });
}

std::string unavailable(const Problem& p) { return row_slab::unavailable(p, kernel_of); }

Resources resources(const Problem& p) { return row_slab::resources<true>(p, step_row_slabs(), kernel_of); }

}  // namespace
}  // namespace gpubench::stencil3d

GPUBENCH_STENCIL3D_TMA_STEP(slab_stores,
                            "row_slabs, each plane's output staged in shared memory and written out by TMA bulk stores")
