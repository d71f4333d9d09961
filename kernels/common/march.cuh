// How far each block of a marching kernel goes (stencil3d's planes in z,
// conv2d's tile rows down a column): `columns` blocks stand side by side
// and together march `length` units. Cut the march into as many pieces as
// one wave of resident blocks holds, so every block starts at once and
// keeps in step with its neighbours (they share halo rows through L2), no
// block of a ragged second wave runs alone at the end, and a small grid
// still has a block for every slot; never a piece longer than `longest`,
// the length the step was tuned at, and never more than `max_pieces`
// pieces (a grid dimension's limit).
#pragma once

#include <algorithm>
#include <cstdint>

#include "src/detail/cuda_check.hpp"

namespace gpubench {

template <class Kernel>
std::int64_t march_length(Kernel kernel, int threads, int dynamic_shared, std::int64_t columns,
                          std::int64_t length, std::int64_t longest, std::int64_t max_pieces) {
  int device = 0, sms = 0, per_sm = 0;
  GPUBENCH_CUDA(cudaGetDevice(&device));
  GPUBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPUBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic_shared));
  const std::int64_t slots = std::int64_t(sms) * std::max(per_sm, 1);
  std::int64_t pieces = std::max<std::int64_t>(slots / std::max<std::int64_t>(columns, 1), 1);
  pieces = std::max(pieces, (length + longest - 1) / longest);
  pieces = std::min({pieces, max_pieces, std::max<std::int64_t>(length, 1)});
  return (length + pieces - 1) / pieces;
}

}  // namespace gpubench
