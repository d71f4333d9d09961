// The TMA tile ring of tma_ring and the steps after it: each block marches
// down a column of tiles, and one thread has the tensor-memory accelerator
// copy the block's next tiles, halo included (the copy engine writes the
// ghost cells' zeros), into a ring of kStages tile buffers while the block
// computes the current one. A tile keeps register_tiled's layout. What a
// step computes from a tile is its LOOP: a type with
//   template <class T, int R> static __device__ void tile(const Vec<T>* tile, T* out,
//       std::int64_t w, std::int64_t h, std::int64_t x0, std::int64_t y0, bool vector_store);
// Images the TMA cannot describe (a width that is not a multiple of the
// vector, or an image not on a 16-byte boundary) run loads_in_flight.
#pragma once

#include <memory>

#include "kernels/common/hopper_copies.cuh"
#include "kernels/common/march.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/conv2d/register_tile.cuh"

namespace gpubench::conv2d {

const Step& step_loads_in_flight();

namespace {

// The longest march a block makes, in tile rows: 3, the best or within 1%
// of the best of 1, 2, 3, 4 and 6 at 8192 x 8192 for every mask on the H200,
// and of 8, 16 and 43 too at masks 3 and 7, the only ones they were tried
// at (results/h200/experiments/README.md); shorter where that fills the
// GPU's last wave of blocks better. A march starts with one tile's
// wait on the copy engine: its cost before the first tile row.
constexpr int kLongestMarch = 3, kMarchStart = 1;

// Masks up to 5 are bound by DRAM and want tiles in flight: four stages.
// From 7 the arithmetic wants the warps of more blocks per SM: three (the
// best of 2, 3 and 4 at masks 7 and 9 on the H200, 15 not tried;
// results/h200/experiments/README.md).
template <class T, int R>
struct Ring {
  using S = TileShape<T, R>;
  static constexpr int kStages = R <= 2 ? 4 : 3;
  static constexpr int kTileBytes = S::kH * S::kW * int(sizeof(T));
  static constexpr int kStride = (kTileBytes + 127) / 128 * 128;  // TMA writes to 128-byte-aligned shared memory
  static constexpr int kBytes = kStages * kStride;
};

// Tile rows first_tile ... of column blockIdx.x, `per_block` of them (fewer
// at the bottom of the image).
template <class Loop, class T, int R>
__global__ void __launch_bounds__(TileShape<T, R>::kThreads)
    tile_ring(const __grid_constant__ CUtensorMap map, T* __restrict__ out, std::int64_t w, std::int64_t h,
              int per_block) {
  using S = TileShape<T, R>;
  using G = Ring<T, R>;
  extern __shared__ __align__(128) unsigned char ring[];
  constexpr int stages = G::kStages;
  __shared__ __align__(8) std::uint64_t full[stages];
  const bool issuer = threadIdx.x == 0 && threadIdx.y == 0;
  const std::int64_t x0 = std::int64_t(blockIdx.x) * S::kTileW, first_tile = std::int64_t(blockIdx.y) * per_block;
  const std::int64_t rows_of_tiles = (h + S::kTileH - 1) / S::kTileH;
  const int tiles = int(min(std::int64_t(per_block), rows_of_tiles - first_tile));
  // Tile j of this block is tile row first_tile + j: stage j % stages, that stage's fill number j / stages.
  auto fill = [&](int j) {
    hopper::mbarrier_arrive_expect_bytes(&full[j % stages], G::kTileBytes);
    hopper::tma_load_2d(ring + (j % stages) * G::kStride, &map, &full[j % stages], int(x0 - S::kA),
                        int((first_tile + j) * S::kTileH - R));
  };
  if (issuer) {
    for (int s = 0; s < stages; ++s) hopper::mbarrier_init(&full[s], 1);
    hopper::fence_barrier_init();
    for (int j = 0; j < stages && j < tiles; ++j) fill(j);
  }
  __syncthreads();  // the barriers are initialized before anyone waits on them
  const bool vector_store = vector_rows(out, w);
  for (int j = 0; j < tiles; ++j) {
    hopper::mbarrier_wait(&full[j % stages], (j / stages) & 1);
    Loop::template tile<T, R>(reinterpret_cast<const Vec<T>*>(ring + (j % stages) * G::kStride), out, w, h, x0,
                              (first_tile + j) * S::kTileH, vector_store);
    __syncthreads();  // tile j is read by all before its stage is refilled
    if (issuer && j + stages < tiles) fill(j + stages);
  }
}

// The image as a 2D tensor, copied in tiles with their halo.
template <class T, int R>
CUtensorMap image_map(const Problem& p) {
  using S = TileShape<T, R>;
  const cuuint64_t dims[2] = {cuuint64_t(p.width), cuuint64_t(p.height)}, strides[1] = {cuuint64_t(p.width) * sizeof(T)};
  const cuuint32_t box[2] = {cuuint32_t(S::kW), cuuint32_t(S::kH)};
  return plain_tensor_map(sizeof(T) == 8, 2, p.in, dims, strides, box);
}

// What a run needs: the tensor map and the tile rows a block marches.
struct RingPlan {
  CUtensorMap map;
  int per_block;
};

// Outside the timed region: the mask into this file's constant memory, the
// ring's shared-memory limit, the tensor map and the march; or, where the
// TMA cannot copy the image, loads_in_flight's own plan and a null one here.
template <class Loop>
std::shared_ptr<void> ring_plan(const Problem& p, cudaStream_t stream) {
  if (!tma_can_copy(p.in, p.out, std::size_t(p.width) * dtype_size(p.dtype))) {
    step_loads_in_flight().make_plan(p, stream);
    return nullptr;
  }
  upload_mask(p, stream);
  return visit_problem(p, [&](auto tag, auto radius) {
    using T = typename decltype(tag)::type;
    constexpr int R = decltype(radius)::value;
    using S = TileShape<T, R>;
    const auto kernel = tile_ring<Loop, T, R>;
    GPUBENCH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Ring<T, R>::kBytes));
    const std::int64_t columns = (p.width + S::kTileW - 1) / S::kTileW, rows = (p.height + S::kTileH - 1) / S::kTileH;
    const auto per_block = march_length(kernel, S::kThreads, Ring<T, R>::kBytes, columns, rows, kLongestMarch,
                                        kMarchStart, 65535);
    return std::shared_ptr<void>(std::make_shared<RingPlan>(RingPlan{image_map<T, R>(p), int(per_block)}));
  });
}

template <class Loop>
void ring_run(const Problem& p, const Workspace& ws) {
  if (!ws.plan) return step_loads_in_flight().run(p, ws);
  const RingPlan& plan = *static_cast<const RingPlan*>(ws.plan);
  visit_problem(p, [&](auto tag, auto radius) {
    using T = typename decltype(tag)::type;
    constexpr int R = decltype(radius)::value;
    using S = TileShape<T, R>;
    const std::int64_t rows = (p.height + S::kTileH - 1) / S::kTileH;
    const dim3 grid(unsigned((p.width + S::kTileW - 1) / S::kTileW), unsigned((rows + plan.per_block - 1) / plan.per_block));
    tile_ring<Loop, T, R><<<grid, dim3(S::kBlockX, S::kBlockY), Ring<T, R>::kBytes, ws.stream>>>(
        plan.map, static_cast<T*>(p.out), p.width, p.height, plan.per_block);
  });
  GPUBENCH_CHECK_LAUNCH();
}

template <class Loop>
std::string ring_unavailable(const Problem& p) {
  return visit_problem(p, [&](auto tag, auto radius) {
    using T = typename decltype(tag)::type;
    constexpr int R = decltype(radius)::value;
    return tma_code_missing(reinterpret_cast<const void*>(&tile_ring<Loop, T, R>));
  });
}

template <class Loop>
Resources ring_resources(const Problem& p) {
  if (!tma_can_copy(p.in, p.out, std::size_t(p.width) * dtype_size(p.dtype)))  // loads_in_flight runs
    return step_loads_in_flight().resources(p);
  return visit_problem(p, [&](auto tag, auto radius) {
    using T = typename decltype(tag)::type;
    constexpr int R = decltype(radius)::value;
    return resources_of(&tile_ring<Loop, T, R>, Ring<T, R>::kBytes);
  });
}

}  // namespace
}  // namespace gpubench::conv2d

// Defines step_NAME() for a TMA-ring step whose tile computation is LOOP.
#define GPUBENCH_CONV2D_RING_STEP(NAME, LOOP, SUMMARY)                                                       \
  namespace gpubench::conv2d {                                                                               \
  const Step& step_##NAME() {                                                                                \
    static const Step step{#NAME,           Ladder::modern,        SUMMARY, Where::device, &ring_run<LOOP>, \
                           &ring_plan<LOOP>, &ring_resources<LOOP>, &ring_unavailable<LOOP>, nullptr,       \
                           90};                                                                              \
    return step;                                                                                             \
  }                                                                                                          \
  }
