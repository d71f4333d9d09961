// grid_stride — beyond lectures 2 and 3: a grid the GPU holds at once
// (blocks per SM x SMs), each thread looping over the array with a stride
// of the whole grid. The millions of block launches of one_per_element
// become a few thousand resident blocks; the accesses are unchanged.
// It costs a loop with a 64-bit index per element, 28 registers against 12
// (float32 vecadd), and ran 0.96x one_per_element in float64.
#include "kernels/map/map_common.cuh"

namespace gpubench::map {
namespace {

constexpr int kThreads = 256;

template <class T, class F>
__global__ void __launch_bounds__(kThreads) grid_stride(const T* a, const T* b, T* out, std::int64_t n, F f) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * kThreads)
    out[i] = f(a[i], b[i]);
}

__global__ void __launch_bounds__(kThreads) gray_grid_stride(const unsigned char* rgb, unsigned char* out, std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * kThreads)
    out[i] = gray(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]);
}

template <class T>
struct Kernels {
  static auto add() { return &grid_stride<T, VecAdd<T>>; }
  static auto saxpy() { return &grid_stride<T, Saxpy<T>>; }
  static auto gray() { return &gray_grid_stride; }
};

template <class Kernel>
unsigned blocks(Kernel k, std::int64_t n) {
  return unsigned(std::min<std::int64_t>(resident_grid(k, kThreads), (n + kThreads - 1) / kThreads));
}

struct GridStride {
  static constexpr bool kBinary = true;
  template <class T, class F>
  static void binary(const T* a, const T* b, T* out, std::int64_t n, F f, cudaStream_t stream) {
    grid_stride<<<blocks(&grid_stride<T, F>, n), kThreads, 0, stream>>>(a, b, out, n, f);
  }
  static void grayscale(const unsigned char* rgb, unsigned char* out, std::int64_t n, cudaStream_t stream) {
    gray_grid_stride<<<blocks(&gray_grid_stride, n), kThreads, 0, stream>>>(rgb, out, n);
  }
  static Resources resources(const Problem& p) { return resources_of_problem<Kernels>(p); }
};

}  // namespace
}  // namespace gpubench::map

GPUBENCH_MAP_STEP(grid_stride, GridStride, Ladder::modern, "a resident grid loops over the array", false)
