// The driver's tensor-map encoder, for steps that copy tiles with the
// tensor-memory accelerator (TMA).
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/common/hopper_code.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench {

// The address of a driver function, or null where the driver lacks it or
// cannot be asked: the runtime hands it out, so the binary needs no link
// against libcuda.
inline void* driver_entry(const char* name, int version) {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult found{};
  const cudaError_t e = cudaGetDriverEntryPointByVersion(name, &f, version, cudaEnableDefault, &found);
  return e == cudaSuccess && found == cudaDriverEntryPointSuccess ? f : nullptr;
}

inline PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static const auto fn =
      reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(driver_entry("cuTensorMapEncodeTiled", 12000));
  if (!fn) throw CudaError(cudaErrorNotSupported, "the driver has no cuTensorMapEncodeTiled");
  return fn;
}

// Throws unless cuTensorMapEncodeTiled returned CUDA_SUCCESS, naming the
// driver's error (its number where the driver cannot name it).
inline void check_encoded(CUresult r) {
  if (r == CUDA_SUCCESS) return;
  static const auto error_name = reinterpret_cast<PFN_cuGetErrorName_v6000>(driver_entry("cuGetErrorName", 6000));
  const char* name = nullptr;
  if (error_name) error_name(r, &name);  // leaves it null for a number it does not know
  const std::string why = name ? std::string(name) : "CUresult " + std::to_string(r);
  throw library_error("cuTensorMapEncodeTiled", why.c_str());
}

// Whether TMA can copy from `in` a dense array whose rows are `row_bytes`
// long, for a step that writes `out` as 16-byte vectors: both on 16-byte
// boundaries, and the rows a multiple of 16 bytes.
inline bool tma_can_copy(const void* in, const void* out, std::size_t row_bytes) {
  return row_bytes % 16 == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
         reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
}

// Why a TMA kernel cannot run on the current GPU, or "" if it can: the
// copies are compiled out where it lacks its Hopper code.
inline std::string tma_code_missing(const void* kernel) {
  return has_hopper_code(kernel) ? std::string() : "this build has no sm_90 code for it (CMAKE_CUDA_ARCHITECTURES)";
}

// A dense float or double array of `rank` dimensions (dims and box
// innermost first; strides in bytes, one fewer than rank, each a multiple
// of 16) copied in unswizzled boxes, zero-filled past the edges, its L2
// fills 128 bytes (wider fills fetch halo bytes a neighbouring box reads
// only later, after they may have left L2).
inline CUtensorMap plain_tensor_map(bool f64, int rank, const void* p, const cuuint64_t* dims,
                                    const cuuint64_t* strides, const cuuint32_t* box) {
  CUtensorMap map;
  const cuuint32_t element_strides[5] = {1, 1, 1, 1, 1};
  const CUresult r = encode_tiled()(&map, f64 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT64 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                                    cuuint32_t(rank), const_cast<void*>(p), dims, strides, box, element_strides,
                                    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                    CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  check_encoded(r);
  return map;
}

}  // namespace gpubench
