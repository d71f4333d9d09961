// bulk_copy — beyond the lectures, on Hopper: each block brings its tile of
// every input (16 KiB of each; for grayscale 4096 pixels) into shared
// memory with one TMA bulk copy per input, issued by one thread and counted
// on an mbarrier, then computes from shared memory and stores 16-byte
// vectors. The loads in flight are no longer bounded by each thread's
// registers: a block asks for its whole tile with one instruction (as
// thrust's kernel does on Hopper for all but its first and last two blocks,
// with tiles sized to its occupancy). It costs shared memory (32 KiB
// a block for two inputs, which caps the blocks an SM holds) and needs
// sm_90; arrays not on 16-byte boundaries take one_per_element's kernels,
// and the last n mod (vector) elements of a tile are read from global memory.
#include "kernels/common/hopper_copies.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/map/map_common.cuh"

namespace gpubench::map {

const Step& step_one_per_element();

namespace {

constexpr int kThreads = 256, kTileBytes = 16384;  // of each input, a block
constexpr int kPixels = 16, kTilePixels = kThreads * kPixels;

// Brings the block's tile into shared memory: thread 0 sets up the block's
// mbarrier, expects `bytes` on it and issues the copies issue(bar) makes;
// every thread waits for them. With no bytes to bring the barrier's phase
// would never complete, so no thread waits.
template <class Issue>
__device__ __forceinline__ void load_tile(std::uint64_t* bar, std::uint32_t bytes, Issue issue) {
  if (threadIdx.x == 0) {
    hopper::mbarrier_init(bar, 1);
    hopper::fence_barrier_init();
  }
  __syncthreads();
  if (bytes == 0) return;
  if (threadIdx.x == 0) {
    hopper::mbarrier_arrive_expect_bytes(bar, bytes);
    issue(bar);
  }
  hopper::mbarrier_wait(bar, 0);
}

// Block b takes the kTile elements from b * kTile: the two inputs' tiles
// land side by side in shared memory, thread t computes vectors t,
// t + kThreads, ...
template <class T, class F>
__global__ void __launch_bounds__(kThreads) bulk_copy(const T* a, const T* b, T* out, std::int64_t n, F f) {
  constexpr int kTile = kTileBytes / sizeof(T), kV = 16 / sizeof(T);
  using W = Vec<T, kV>;
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ std::uint64_t full;
  T* sa = reinterpret_cast<T*>(smem);
  T* sb = sa + kTile;
  const std::int64_t first = std::int64_t(blockIdx.x) * kTile;
  const int count = n - first < kTile ? int(n - first) : kTile, whole = count / kV * kV;
  const std::uint32_t bytes = whole * sizeof(T);
  load_tile(&full, 2 * bytes, [&](std::uint64_t* bar) {
    hopper::bulk_load(sa, a + first, bytes, bar);
    hopper::bulk_load(sb, b + first, bytes, bar);
  });
  for (int i = threadIdx.x * kV; i < whole; i += kThreads * kV) {
    const W x = *reinterpret_cast<const W*>(sa + i), y = *reinterpret_cast<const W*>(sb + i);
    W r;
#pragma unroll
    for (int e = 0; e < kV; ++e) r.v[e] = f(x.v[e], y.v[e]);
    *reinterpret_cast<W*>(out + first + i) = r;
  }
  const int tail = whole + threadIdx.x;
  if (tail < count) out[first + tail] = f(a[first + tail], b[first + tail]);
}

// Thread t of block b converts pixels b * kTilePixels + 16 t .. + 15 from
// three 16-byte reads of shared memory.
__global__ void __launch_bounds__(kThreads) gray_bulk_copy(const unsigned char* rgb, unsigned char* out, std::int64_t n) {
  __shared__ __align__(16) unsigned char px[3 * kTilePixels];
  __shared__ std::uint64_t full;
  const std::int64_t first = std::int64_t(blockIdx.x) * kTilePixels;
  const int count = n - first < kTilePixels ? int(n - first) : kTilePixels, whole = count / kPixels * kPixels;
  load_tile(&full, 3 * whole, [&](std::uint64_t* bar) { hopper::bulk_load(px, rgb + 3 * first, 3 * whole, bar); });
  if (threadIdx.x * kPixels < whole) {
    alignas(16) unsigned char mine[3 * kPixels];
#pragma unroll
    for (int k = 0; k < 3; ++k)
      reinterpret_cast<uint4*>(mine)[k] = reinterpret_cast<const uint4*>(px)[3 * threadIdx.x + k];
    alignas(16) unsigned char g[kPixels];
#pragma unroll
    for (int k = 0; k < kPixels; ++k) g[k] = gray(mine[3 * k], mine[3 * k + 1], mine[3 * k + 2]);
    reinterpret_cast<uint4*>(out + first)[threadIdx.x] = *reinterpret_cast<const uint4*>(g);
  }
  const std::int64_t tail = first + whole + threadIdx.x;
  if (tail < first + count) out[tail] = gray(rgb[3 * tail], rgb[3 * tail + 1], rgb[3 * tail + 2]);
}

template <class T>
struct Kernels {
  static auto add() { return &bulk_copy<T, VecAdd<T>>; }
  static auto saxpy() { return &bulk_copy<T, Saxpy<T>>; }
  static auto gray() { return &gray_bulk_copy; }
};

// Blocks of `per_block` items for n items (n <= 2^38 keeps this under 2^31).
unsigned blocks(std::int64_t n, int per_block) { return unsigned((n + per_block - 1) / per_block); }

struct BulkCopy {
  static constexpr bool kBinary = true;
  template <class T, class F>
  static void binary(const T* a, const T* b, T* out, std::int64_t n, F f, cudaStream_t stream) {
    bulk_copy<T, F><<<blocks(n, kTileBytes / sizeof(T)), kThreads, 2 * kTileBytes, stream>>>(a, b, out, n, f);
  }
  static void grayscale(const unsigned char* rgb, unsigned char* out, std::int64_t n, cudaStream_t stream) {
    gray_bulk_copy<<<blocks(n, kTilePixels), kThreads, 0, stream>>>(rgb, out, n);
  }
};

std::string unavailable(const Problem&) { return tma_code_missing(reinterpret_cast<const void*>(&gray_bulk_copy)); }

// Arrays not on 16-byte boundaries, which bulk copies cannot take, go to
// the first step's kernels.
bool bulk_copies_take(const Problem& p) {
  return aligned16(p.a) && (p.op == Op::grayscale || aligned16(p.b)) && aligned16(p.out);
}

void run(const Problem& p, const Workspace& ws) {
  if (bulk_copies_take(p)) run_dispatch<BulkCopy>(p, ws);
  else step_one_per_element().run(p, ws);
}

// The resources of what runs, with the binary kernels' dynamic shared memory.
Resources resources(const Problem& p) {
  if (!bulk_copies_take(p)) return step_one_per_element().resources(p);
  Resources r = resources_of_problem<Kernels>(p);
  if (p.op != Op::grayscale) r.shared_bytes += 2 * kTileBytes;
  return r;
}

}  // namespace

const Step& step_bulk_copy() {
  static const Step step{"bulk_copy", Ladder::modern, "TMA bulk copies of each block's tiles into shared memory",
                         Where::device, &run, &resources, false, false, &unavailable, 90};
  return step;
}

}  // namespace gpubench::map
