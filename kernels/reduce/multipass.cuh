// Host-side drivers that turn a block-level kernel into a whole reduction.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "kernels/common/resources.cuh"
#include "kernels/reduce/ops.cuh"
#include "kernels/reduce/reduce_step.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench::reduce {

// Scratch for reduce_multipass: the first level of partials plus the second
// (later levels reuse the first buffer).
inline std::size_t multipass_scratch_bytes(std::int64_t n, std::int64_t per_block,
                                           std::size_t elem_size) {
  const std::int64_t level1 = ceil_div(n, per_block);
  if (level1 <= 1) return 0;
  return static_cast<std::size_t>(level1 + ceil_div(level1, per_block)) * elem_size;
}

// Launches a block-level kernel that folds each run of `per_block` consecutive
// elements into one partial, then again on the partials, until one value is
// left in `out`. launch_pass(src, dst, n, blocks) issues one launch.
template <class T, class LaunchPass>
void reduce_multipass(const T* in, T* out, std::int64_t n, std::int64_t per_block, void* scratch,
                      LaunchPass launch_pass) {
  T* level[2] = {static_cast<T*>(scratch), static_cast<T*>(scratch) + ceil_div(n, per_block)};
  const T* src = in;
  for (int pass = 0;; ++pass) {
    const std::int64_t blocks = std::max<std::int64_t>(1, ceil_div(n, per_block));
    if (blocks > std::numeric_limits<int>::max())
      throw std::invalid_argument("reduce_multipass: more blocks than a grid holds; use a larger block");
    T* dst = blocks == 1 ? out : level[pass % 2];
    launch_pass(src, dst, n, static_cast<unsigned>(blocks));
    GPUBENCH_CHECK_LAUNCH();
    if (dst == out) return;
    src = dst;
    n = blocks;
  }
}

// The scratch_bytes of a step whose kernel folds elems_per_thread * block
// consecutive elements per block and runs under reduce_multipass.
template <int kElemsPerThread>
struct MultipassScratch {
  template <class T, class Op>
  static std::size_t scratch_bytes(const Problem& p, const Workspace&) {
    return multipass_scratch_bytes(p.n, std::int64_t(p.block) * kElemsPerThread, sizeof(T));
  }
};

// The kernel a step launches and the dynamic shared memory it launches with.
template <class Kernel>
struct Launch {
  Kernel kernel;
  std::size_t shared_bytes;
};
template <class Kernel>
Launch(Kernel, std::size_t) -> Launch<Kernel>;

// The resource columns of a step that gives launch<T, Op>(problem).
template <class Impl>
struct LaunchResources {
  template <class T, class Op>
  static Resources resources(const Problem& p) {
    const auto l = Impl::template launch<T, Op>(p);
    return resources_of(l.kernel, int(l.shared_bytes));
  }
};

// Runs kernel(src, dst, n) pass after pass, p.block threads and elems_per_thread
// elements per thread. `In` is `const T` for kernels that only read their input
// and `T` for those that fold it in place (Step::modifies_input).
template <class T, class In>
void run_multipass(const Problem& p, const Workspace& ws, int elems_per_thread,
                   void (*kernel)(In*, T*, std::int64_t), std::size_t smem_bytes) {
  reduce_multipass<T>(static_cast<const T*>(p.in), static_cast<T*>(p.out), p.n,
                      std::int64_t(p.block) * elems_per_thread, ws.scratch,
                      [&](const T* src, T* dst, std::int64_t n, unsigned blocks) {
                        kernel<<<blocks, p.block, smem_bytes, ws.stream>>>(const_cast<In*>(src), dst, n);
                      });
}

// A step run by run_multipass: Impl gives launch<T, Op>(problem), its
// kernel and dynamic shared bytes, which run and the resource columns share.
template <class Impl, int kElemsPerThread>
struct Multipass : MultipassScratch<kElemsPerThread>, LaunchResources<Impl> {
  template <class T, class Op>
  static void run(const Problem& p, const Workspace& ws) {
    const auto l = Impl::template launch<T, Op>(p);
    run_multipass<T>(p, ws, kElemsPerThread, l.kernel, l.shared_bytes);
  }
};

// Grid for a grid-stride kernel: as many blocks as the SMs hold at once, but
// no more than the work needs (one pass of `per_block_pass` elements each).
inline unsigned grid_to_fill(const Workspace& ws, int block, std::int64_t n,
                             std::int64_t per_block_pass) {
  const std::int64_t resident = std::int64_t(ws.sm_count) * (ws.max_threads_per_sm / block);
  return static_cast<unsigned>(std::clamp<std::int64_t>(ceil_div(n, per_block_pass), 1, resident));
}

// Steps with a grid-stride loop: a grid that fills the GPU folds the input
// into `grid` partials, then a single block of the same kernel folds those.
// Each thread loads kLoads values of kBytesPerLoad bytes (0: one element) per
// trip; that sets how many blocks small inputs need.
template <int kLoads, int kBytesPerLoad = 0>
struct GridStrideTwoPass {
  template <class T>
  static unsigned grid(const Problem& p, const Workspace& ws) {
    const std::int64_t per_load = kBytesPerLoad ? kBytesPerLoad / std::int64_t(sizeof(T)) : 1;
    return grid_to_fill(ws, p.block, p.n, std::int64_t(p.block) * kLoads * per_load);
  }
  template <class T, class Op>
  static std::size_t scratch_bytes(const Problem& p, const Workspace& ws) {
    const unsigned g = grid<T>(p, ws);
    return g > 1 ? g * sizeof(T) : 0;
  }
  template <class T>
  static void run_two_pass(const Problem& p, const Workspace& ws,
                           void (*kernel)(const T*, T*, std::int64_t), std::size_t smem_bytes) {
    const unsigned g = grid<T>(p, ws);
    const T* in = static_cast<const T*>(p.in);
    T* out = static_cast<T*>(p.out);
    T* partials = g > 1 ? static_cast<T*>(ws.scratch) : out;
    kernel<<<g, p.block, smem_bytes, ws.stream>>>(in, partials, p.n);
    GPUBENCH_CHECK_LAUNCH();
    if (g == 1) return;
    kernel<<<1, p.block, smem_bytes, ws.stream>>>(partials, out, g);
    GPUBENCH_CHECK_LAUNCH();
  }
};

// A step run by run_two_pass, its launch<T, Op>(problem) as Multipass's.
template <class Impl, int kLoads, int kBytesPerLoad = 0>
struct GridStride : GridStrideTwoPass<kLoads, kBytesPerLoad>, LaunchResources<Impl> {
  template <class T, class Op>
  static void run(const Problem& p, const Workspace& ws) {
    const auto l = Impl::template launch<T, Op>(p);
    GridStrideTwoPass<kLoads, kBytesPerLoad>::template run_two_pass<T>(p, ws, l.kernel, l.shared_bytes);
  }
};

}  // namespace gpubench::reduce
