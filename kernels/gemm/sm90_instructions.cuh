// Thin wrappers over the Hopper (sm_90a) instructions the wgmma steps use
// beside the asynchronous copies (kernels/common/hopper_copies.cuh): warpgroup
// matrix multiply-accumulate. The bodies exist only in the sm_90a pass
// (__CUDA_ARCH_FEAT_SM90_ALL); the step runs only on compute capability 9.0.
#pragma once

#include <cstdint>

#include "kernels/common/hopper_copies.cuh"

namespace gpubench::gemm::sm90 {

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GPUBENCH_SM90A(...) __VA_ARGS__
#else
#define GPUBENCH_SM90A(...)
#endif

using namespace ::gpubench::hopper;  // smem_addr, the mbarriers, tma_load_2d

// Shared-memory matrix descriptor for a 128-byte-swizzled operand (what TMA
// writes with CU_TENSOR_MAP_SWIZZLE_128B): start address, leading and stride
// byte offsets (the distances between 8-row core-matrix groups along the
// two dimensions), swizzle mode 1 in bits 62-63.
__device__ __forceinline__ std::uint64_t smem_descriptor(const void* p, std::uint32_t leading_bytes,
                                                         std::uint32_t stride_bytes) {
  return std::uint64_t((smem_addr(p) & 0x3FFFF) >> 4) | (std::uint64_t(leading_bytes >> 4) << 16) |
         (std::uint64_t(stride_bytes >> 4) << 32) | (1ull << 62);
}

__device__ __forceinline__ void wgmma_fence() { GPUBENCH_SM90A(asm volatile("wgmma.fence.sync.aligned;" ::: "memory");) }
__device__ __forceinline__ void wgmma_commit() {
  GPUBENCH_SM90A(asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");)
}
// Waits until at most N committed wgmma groups are still running.
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  GPUBENCH_SM90A(asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");)
}
__device__ __forceinline__ void wgmma_wait_all() { wgmma_wait<0>(); }

// The 128 fp32 accumulators of an m64n256 wgmma: the register list in the
// instruction's text, and the operands that bind it to d[0..127].
#define GPUBENCH_WGMMA_D128_REGS \
  "{" \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127" \
  "}"
#define GPUBENCH_WGMMA_D128_OPERANDS(d) \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),  \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),  \
  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),  \
  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),  \
  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),  \
  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),  \
  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),  \
  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),  \
  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),  \
  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),  \
  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),  \
  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),  \
  "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),  \
  "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),  \
  "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),  \
  "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

// d (64 x 256, fp32, the warpgroup's fragment) += A (64 x 16, bf16, K-major)
// * B (16 x 256, bf16, N-major: the transpose flag is set for B).
__device__ __forceinline__ void wgmma_m64n256k16_bf16(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b) {
  GPUBENCH_SM90A(asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                              "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 " GPUBENCH_WGMMA_D128_REGS
                              ", %128, %129, p, 1, 1, 0, 1;\n}\n"
                              : GPUBENCH_WGMMA_D128_OPERANDS(d)
                              : "l"(desc_a), "l"(desc_b), "r"(1));)
}

// d (64 x 256, fp32) += A (64 x 8, tf32, K-major) * B (8 x 256, tf32,
// K-major: tf32 operands cannot be transposed). The tensor cores read the
// upper 19 bits of each fp32 value.
__device__ __forceinline__ void wgmma_m64n256k8_tf32(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b) {
  GPUBENCH_SM90A(asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                              "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 " GPUBENCH_WGMMA_D128_REGS
                              ", %128, %129, p, 1, 1;\n}\n"
                              : GPUBENCH_WGMMA_D128_OPERANDS(d)
                              : "l"(desc_a), "l"(desc_b), "r"(1));)
}

}  // namespace gpubench::gemm::sm90
