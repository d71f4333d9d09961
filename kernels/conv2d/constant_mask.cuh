// The mask in __constant__ memory, for the steps from constant_mask on.
#pragma once

#include "kernels/conv2d/conv2d_common.cuh"

namespace gpubench::conv2d {
namespace {

// The mask in constant memory, one copy per translation unit (each step
// that reads it uploads its own in make_plan): every thread of a warp reads
// the same weight at once, which the constant cache broadcasts, off the
// global-memory path (in SASS, an LDC per weight, or a ULDC into a uniform
// register that the FMAs read).
__constant__ float c_mask_f32[kMaxSide * kMaxSide];
__constant__ double c_mask_f64[kMaxSide * kMaxSide];

template <class T>
__device__ __forceinline__ T mask_weight(int i) {
  if constexpr (std::is_same_v<T, double>) return c_mask_f64[i];
  else return c_mask_f32[i];
}

// make_plan of the steps that read mask_weight: copies p.mask (on the
// device) into this translation unit's constant mask.
std::shared_ptr<void> upload_mask(const Problem& p, cudaStream_t stream) {
  const std::size_t bytes = std::size_t(p.side) * p.side * dtype_size(p.dtype);
  if (p.dtype == DType::f64)
    GPUBENCH_CUDA(cudaMemcpyToSymbolAsync(c_mask_f64, p.mask, bytes, 0, cudaMemcpyDeviceToDevice, stream));
  else
    GPUBENCH_CUDA(cudaMemcpyToSymbolAsync(c_mask_f32, p.mask, bytes, 0, cudaMemcpyDeviceToDevice, stream));
  GPUBENCH_CUDA(cudaStreamSynchronize(stream));
  return nullptr;
}

}  // namespace

}  // namespace gpubench::conv2d
