// Tensor maps for the steps that copy tiles with the tensor-memory
// accelerator (TMA): a row-major matrix copied in 128-byte-swizzled boxes.
#pragma once

#include <cuda.h>
#include <cuda_bf16.h>

#include <cstdint>
#include <string>

#include "kernels/common/tensor_map.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench::gemm {

// A row-major matrix of `rows` x `cols` elements of `element_bytes` each
// (leading dimension ld elements, ld * element_bytes a multiple of 16),
// copied in boxes of box_rows x box_cols (box_cols * element_bytes = 128:
// one swizzle row), zero-filled past the edges. `promotion`: how many bytes
// L2 fetches for a line the copy misses.
inline CUtensorMap swizzled_tensor_map(CUtensorMapDataType type, int element_bytes, const void* p, int rows, int cols,
                                       std::int64_t ld, int box_cols, int box_rows,
                                       CUtensorMapL2promotion promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)}, strides[1] = {cuuint64_t(ld) * element_bytes};
  const cuuint32_t box[2] = {cuuint32_t(box_cols), cuuint32_t(box_rows)}, element_strides[2] = {1, 1};
  const CUresult r = encode_tiled()(&map, type, 2, const_cast<void*>(p), dims, strides, box, element_strides,
                                    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                    promotion, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  check_encoded(r);
  return map;
}

// A row-major bf16 matrix in boxes of box_rows x 64 columns (one 128-byte
// swizzle row): the A and B operands of the wgmma_bf16 steps.
inline CUtensorMap bf16_tensor_map(const __nv_bfloat16* p, int rows, int cols, std::int64_t ld, int box_rows,
                                   CUtensorMapL2promotion promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B) {
  return swizzled_tensor_map(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, p, rows, cols, ld, 64, box_rows, promotion);
}

// The row-major fp32 m x n matrix C for TMA stores of box_rows x 32
// boxes (one 128-byte swizzle row of floats), where TMA can address its
// rows: `usable` is false where a row does not start on a 16-byte boundary
// (n not a multiple of 4, or C itself unaligned), and the step writes C
// from registers instead.
struct StoreMap {
  bool usable;
  CUtensorMap map;
};
inline StoreMap fp32_store_map(float* c, int m, int n, int box_rows) {
  if (n % 4 != 0 || reinterpret_cast<std::uintptr_t>(c) % 16 != 0) return {false, CUtensorMap{}};
  return {true, swizzled_tensor_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, c, m, n, n, 32, box_rows)};
}

}  // namespace gpubench::gemm
