// One 128-bit store of 16 bytes of registers to global memory. Assigning a
// 16-byte struct, or even a float4 built from a register array, compiled
// to four scalar stores in the conv2d and stencil3d tiles (nvcc 13.0: no
// st.global.v4 in their PTX): each 32-byte sector then reaches L2 as
// several partial writes where one full one will do. So it is PTX here.
#pragma once

namespace gpubench {

// dst is 16-byte aligned. No "memory" clobber: the kernels never read
// back what they store, so other accesses may move past it.
__device__ __forceinline__ void store_128(float* dst, const float (&v)[4]) {
  asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(dst), "f"(v[0]), "f"(v[1]), "f"(v[2]), "f"(v[3]));
}
__device__ __forceinline__ void store_128(double* dst, const double (&v)[2]) {
  asm volatile("st.global.v2.f64 [%0], {%1, %2};" ::"l"(dst), "d"(v[0]), "d"(v[1]));
}

}  // namespace gpubench
