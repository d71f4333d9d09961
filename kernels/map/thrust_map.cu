// The library baseline: thrust::transform with a device execution policy
// on the benchmark's stream. The policy is par_nosync: thrust's default
// device policy synchronizes the stream after the algorithm, which would
// wait on the harness's stream-holding kernel (and time the host); the
// kernel thrust launches is the same. The functors are marked with
// cuda::proclaim_copyable_arguments, as thrust's documentation asks of a
// functor that does not take its arguments' addresses: without the mark
// thrust must hand it the elements in place in global memory, and on
// Hopper it launches its prefetching kernel instead of the one that copies
// each block's tile into shared memory first (with TMA bulk copies, but for
// the first and last two blocks), which it picks by itself for
// thrust::plus<float>. thrust reports a failed launch by throwing
// thrust::system_error, which becomes a CudaError like any other.
#include <cuda/functional>
#include <thrust/execution_policy.h>
#include <thrust/system_error.h>
#include <thrust/transform.h>

#include "kernels/map/map_common.cuh"

namespace gpubench::map {
namespace {

struct Gray3 {
  __device__ unsigned char operator()(const uchar3& p) const { return gray(p.x, p.y, p.z); }
};

// thrust's functors are called on the host side of its dispatch too.
template <class F>
struct Binary {
  F f;
  template <class T>
  __device__ T operator()(T x, T y) const { return f(x, y); }
};

template <class Call>
void checked(Call&& call) {
  try {
    call();
  } catch (const thrust::system_error& e) {
    throw library_error("thrust::transform", e.what());
  }
}

struct Thrust {
  static constexpr bool kBinary = true;
  template <class T, class F>
  static void binary(const T* a, const T* b, T* out, std::int64_t n, F f, cudaStream_t stream) {
    checked([&] {
      thrust::transform(thrust::cuda::par_nosync.on(stream), a, a + n, b, out,
                        cuda::proclaim_copyable_arguments(Binary<F>{f}));
    });
  }
  static void grayscale(const unsigned char* rgb, unsigned char* out, std::int64_t n, cudaStream_t stream) {
    const uchar3* px = reinterpret_cast<const uchar3*>(rgb);
    checked([&] {
      thrust::transform(thrust::cuda::par_nosync.on(stream), px, px + n, out,
                        cuda::proclaim_copyable_arguments(Gray3{}));
    });
  }
};

}  // namespace

const Step& step_thrust() {
  static const Step step{"thrust", Ladder::baseline, "thrust::transform (par_nosync on the stream)", Where::device,
                         &run_dispatch<Thrust>};
  return step;
}

}  // namespace gpubench::map
