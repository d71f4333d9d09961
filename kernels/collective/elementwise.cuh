// The element types and operators of the collective steps, for device and
// host code alike (the host-staged step reduces on the host).
#pragma once

#include <cuda_bf16.h>

#include "kernels/collective/collective_step.hpp"

namespace gpubench::collective {

// op(a, b). BF16 is computed in float and rounded back once, as a BF16 add
// or max gives.
template <class T>
__host__ __device__ __forceinline__ T apply(Op op, T a, T b) {
  return op == Op::sum ? T(a + b) : (a < b ? b : a);
}

template <>
__host__ __device__ __forceinline__ __nv_bfloat16 apply(Op op, __nv_bfloat16 a, __nv_bfloat16 b) {
  const float x = __bfloat162float(a), y = __bfloat162float(b);
  return __float2bfloat16(op == Op::sum ? x + y : (x < y ? y : x));
}

// Calls f(T{}) with the C++ type of `e`.
template <class F>
void visit_elem(Elem e, F&& f) {
  switch (e) {
    case Elem::f32: return f(float{});
    case Elem::bf16: return f(__nv_bfloat16{});
    case Elem::f64: return f(double{});
  }
}

}  // namespace gpubench::collective
