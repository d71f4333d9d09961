// What row_slabs and slab_stores share: a block's slab of whole rows, the
// ring of its planes in shared memory that the TMA fills, and the host's
// plan of a run (the tensor maps, the march length, the ring's stages), or
// the step a grid hands over to when its slab planes do not fit.
#pragma once

#include <algorithm>
#include <memory>
#include <string>

#include "kernels/common/march.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/stencil3d/stencil3d_common.cuh"

namespace gpubench::stencil3d::row_slab {

constexpr int kThreads = 512, kBoxWidth = 256, kMaxStages = 8, kMinStages = 4, kMaxVectorsPerThread = 6;
// The most shared memory one block may have on Hopper (227 KB, static and
// dynamic together), less 1 KB for the kernels' static barriers and the
// dynamic part's alignment.
constexpr int kMaxShared = 227 * 1024 - 1024;

// The longest march, in planes, and its cost before it starts (the planes
// past each end), as in tma_ring: 32 was faster than 16, 24, 40, 64 and 128
// at 512^3 in float32 on the H200 (results/h200/experiments/README.md).
constexpr int kLongestMarch = 32, kMarchStart = 2;

// A slab: kRows whole rows of the grid, and the planes of the ring hold
// those rows with one more above and below, in boxes of kBoxWidth columns.
// kStaged: the kernel also keeps two planes of its output in shared memory
// (boxes of kRows rows), one being written while the TMA stores the other.
template <class T, bool kStaged>
struct Slab {
  static constexpr int kV = 16 / int(sizeof(T));
  static constexpr int kRows = sizeof(T) == 4 ? 16 : 8;
  static constexpr int kBoxElements = kBoxWidth * (kRows + 2);
  static constexpr int kOutBoxElements = kBoxWidth * kRows;
  static int boxes(std::int64_t n) { return int((n + kBoxWidth - 1) / kBoxWidth); }
  static int plane_bytes(std::int64_t n) { return boxes(n) * kBoxElements * int(sizeof(T)); }
  static int staged_bytes(std::int64_t n) { return kStaged ? 2 * boxes(n) * kOutBoxElements * int(sizeof(T)) : 0; }
  static int stages(std::int64_t n) {
    return std::min(kMaxStages, (kMaxShared - staged_bytes(n)) / plane_bytes(n));
  }
  static int shared_bytes(std::int64_t n) { return stages(n) * plane_bytes(n) + staged_bytes(n); }
  static bool fits(std::int64_t n) {
    return stages(n) >= kMinStages && (n / kV) * kRows <= std::int64_t(kThreads) * kMaxVectorsPerThread;
  }
};

// Element (x, row) of a plane in the ring: row 0 is the slab's first row
// minus one.
template <class T>
__device__ __forceinline__ int slab_index(int x, int row) {
  return (x / kBoxWidth) * Slab<T, false>::kBoxElements + row * kBoxWidth + x % kBoxWidth;
}

// A grid as a 3D tensor (x innermost), copied in boxes of kBoxWidth columns
// and `rows` rows.
template <class T>
CUtensorMap slab_map(const void* grid, std::int64_t side, int rows) {
  const cuuint64_t n = cuuint64_t(side), dims[3] = {n, n, n}, strides[2] = {n * sizeof(T), n * n * sizeof(T)};
  const cuuint32_t box[3] = {cuuint32_t(kBoxWidth), cuuint32_t(rows), 1};
  return plain_tensor_map(sizeof(T) == 8, 3, grid, dims, strides, box);
}

// What a run needs, found once outside the timed region: the tensor maps of
// the input (a slab's rows plus two) and, where the output is staged, of the
// output (a slab's rows); the planes a block marches and the ring's stages;
// or the plan of the step it hands over to.
struct Plan {
  bool slabs;
  CUtensorMap in, out;
  int depth, stages, shared;
  std::shared_ptr<void> fallback;
};

template <bool kStaged>
bool slabs_fit(const Problem& p) {
  if (!tma_can_copy(p.in, p.out, std::size_t(p.n) * dtype_size(p.dtype))) return false;
  return visit_float(p.dtype, [&](auto tag) { return Slab<typename decltype(tag)::type, kStaged>::fits(p.n); });
}

// kernel_of(tag): the slab kernel for the tag's element type.
template <bool kStaged, class KernelOf>
std::shared_ptr<void> make_plan(const Problem& p, cudaStream_t stream, const Step& fallback, KernelOf kernel_of) {
  auto plan = std::make_shared<Plan>();
  plan->slabs = slabs_fit<kStaged>(p);
  if (!plan->slabs) {
    plan->fallback = fallback.make_plan(p, stream);
    return plan;
  }
  visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = Slab<T, kStaged>;
    const auto kernel = kernel_of(tag);
    plan->shared = S::shared_bytes(p.n);
    GPUBENCH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, plan->shared));
    plan->in = slab_map<T>(p.in, p.n, S::kRows + 2);
    if (kStaged) plan->out = slab_map<T>(p.out, p.n, S::kRows);
    plan->stages = S::stages(p.n);
    plan->depth = int(march_length(kernel, kThreads, plan->shared, blocks(p.n, S::kRows), p.n, kLongestMarch,
                                   kMarchStart, 65535));
  });
  return plan;
}

// launch(tag, plan, grid): the slab kernel's launch on ws.stream.
template <class Launch>
void run(const Problem& p, const Workspace& ws, const Step& fallback, Launch launch) {
  const Plan& plan = *static_cast<const Plan*>(ws.plan);
  if (!plan.slabs) return fallback.run(p, Workspace{ws.stream, plan.fallback.get()});
  visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch(tag, plan, dim3(blocks(p.n, Slab<T, false>::kRows), blocks(p.n, plan.depth)));
  });
  GPUBENCH_CHECK_LAUNCH();
}

template <class KernelOf>
std::string unavailable(const Problem& p, KernelOf kernel_of) {
  return visit_float(p.dtype, [&](auto tag) { return tma_code_missing(reinterpret_cast<const void*>(kernel_of(tag))); });
}

template <bool kStaged, class KernelOf>
Resources resources(const Problem& p, const Step& fallback, KernelOf kernel_of) {
  if (!slabs_fit<kStaged>(p)) return fallback.resources(p);
  return visit_float(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return resources_of(kernel_of(tag), Slab<T, kStaged>::shared_bytes(p.n));
  });
}

}  // namespace gpubench::stencil3d::row_slab
