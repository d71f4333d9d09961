// one_per_element — lecture 2's kernel (and lecture 3's image kernel on a
// 1D grid): one thread per element, as many 256-thread blocks as it takes.
// Every load is coalesced; what it leaves on the table is the launch of
// millions of short blocks and one 4- or 8-byte access per instruction.
#include "kernels/map/map_common.cuh"

namespace gpubench::map {
namespace {

constexpr int kThreads = 256;

template <class T, class F>
__global__ void __launch_bounds__(kThreads) one_per_element(const T* a, const T* b, T* out, std::int64_t n, F f) {
  const std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x;
  if (i < n) out[i] = f(a[i], b[i]);
}

__global__ void __launch_bounds__(kThreads) gray_one_per_pixel(const unsigned char* rgb, unsigned char* out, std::int64_t n) {
  const std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x;
  if (i < n) out[i] = gray(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]);
}

template <class T>
struct Kernels {
  static auto add() { return &one_per_element<T, VecAdd<T>>; }
  static auto saxpy() { return &one_per_element<T, Saxpy<T>>; }
  static auto gray() { return &gray_one_per_pixel; }
};

struct OnePerElement {
  static constexpr bool kBinary = true;
  static unsigned blocks(std::int64_t n) { return unsigned((n + kThreads - 1) / kThreads); }
  template <class T, class F>
  static void binary(const T* a, const T* b, T* out, std::int64_t n, F f, cudaStream_t stream) {
    one_per_element<<<blocks(n), kThreads, 0, stream>>>(a, b, out, n, f);
  }
  static void grayscale(const unsigned char* rgb, unsigned char* out, std::int64_t n, cudaStream_t stream) {
    gray_one_per_pixel<<<blocks(n), kThreads, 0, stream>>>(rgb, out, n);
  }
  static Resources resources(const Problem& p) { return resources_of_problem<Kernels>(p); }
};

}  // namespace
}  // namespace gpubench::map

GPUBENCH_MAP_STEP(one_per_element, OnePerElement, Ladder::course, "one thread per element, a block per 256", false)
