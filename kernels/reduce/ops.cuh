// Reduction operators and the element types they run over, shared by every
// step. An operator is associative and commutative and has an identity, the
// value that out-of-range threads contribute.
#pragma once

#include <cstdint>

#include <cuda/std/limits>

namespace gpubench::reduce {

struct SumOp {
  template <class T> __host__ __device__ static constexpr T identity() { return T(0); }
  template <class T> __host__ __device__ T operator()(T a, T b) const { return a + b; }
};

struct MinOp {
  template <class T> __host__ __device__ static constexpr T identity() {
    using L = cuda::std::numeric_limits<T>;
    return L::has_infinity ? L::infinity() : L::max();
  }
  template <class T> __host__ __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};

struct MaxOp {
  template <class T> __host__ __device__ static constexpr T identity() {
    using L = cuda::std::numeric_limits<T>;
    return L::has_infinity ? -L::infinity() : L::lowest();
  }
  template <class T> __host__ __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};

// Dynamic shared memory typed as T (aligned for the widest type, double).
template <class T>
__device__ T* shared_array() {
  extern __shared__ __align__(16) unsigned char gpubench_shared_raw[];
  return reinterpret_cast<T*>(gpubench_shared_raw);
}

// in[i] when i is in range, else the identity: lets every kernel run on any n.
template <class T, class Op>
__device__ T load_or_identity(const T* in, std::int64_t i, std::int64_t n) {
  return i < n ? in[i] : Op::template identity<T>();
}

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace gpubench::reduce
