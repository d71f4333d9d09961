// vectorized — beyond the lectures: 128-bit loads and stores (4 floats or
// 2 doubles, 4 such vectors of each input in flight per thread; for
// grayscale, 16 pixels per thread as three 16-byte loads of RGB and one
// 16-byte store): a quarter (or half) of the memory instructions, and more
// bytes in flight per thread, which is what DRAM latency needs. The grid
// covers the array once, one contiguous tile per block, rather than
// grid_stride's resident grid. Arrays that do not start on 16-byte
// boundaries take one element per vector; the last n mod (vector) elements
// always do. It costs registers (32 in float32 against grid_stride's 28)
// and that scalar path; in float64, where one_per_element's 8-byte loads
// already reach the copy ceiling, it gains nothing (1.478 against 1.472 ms
// at 2^28).
#include "kernels/map/map_common.cuh"

namespace gpubench::map {
namespace {

constexpr int kThreads = 256, kUnroll = 4;

// Block b takes the kThreads * kUnroll vectors from b * kThreads * kUnroll,
// thread t those at t, t + kThreads, ...: each load instruction of a warp
// reads 512 contiguous bytes, and the grid covers the array once.
template <class T, int V, class F>
__global__ void __launch_bounds__(kThreads) vectorized(const T* a, const T* b, T* out, std::int64_t n, F f) {
  using W = Vec<T, V>;
  const W* av = reinterpret_cast<const W*>(a);
  const W* bv = reinterpret_cast<const W*>(b);
  W* ov = reinterpret_cast<W*>(out);
  const std::int64_t vecs = n / V, first = std::int64_t(blockIdx.x) * kThreads * kUnroll + threadIdx.x;
  if (first + (kUnroll - 1) * kThreads < vecs) {
    W x[kUnroll], y[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      x[u] = av[first + u * kThreads];
      y[u] = bv[first + u * kThreads];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      W r;
#pragma unroll
      for (int e = 0; e < V; ++e) r.v[e] = f(x[u].v[e], y[u].v[e]);
      ov[first + u * kThreads] = r;
    }
  } else {
    for (std::int64_t i = first; i < vecs; i += kThreads) {
      W r;
      const W x = av[i], y = bv[i];
#pragma unroll
      for (int e = 0; e < V; ++e) r.v[e] = f(x.v[e], y.v[e]);
      ov[i] = r;
    }
  }
  const std::int64_t tail = vecs * V + threadIdx.x;  // the last n mod V elements, by block 0
  if (blockIdx.x == 0 && tail < n) out[tail] = f(a[tail], b[tail]);
}

constexpr int kPixels = 16;  // pixels per 16-byte store

// kVector false: one pixel per thread (arrays not on 16-byte boundaries).
template <bool kVector>
__global__ void __launch_bounds__(kThreads) gray_vectorized(const unsigned char* rgb, unsigned char* out, std::int64_t n) {
  const std::int64_t first = std::int64_t(blockIdx.x) * kThreads + threadIdx.x;
  if constexpr (kVector) {
    const std::int64_t chunks = n / kPixels;
    if (first < chunks) {
      const uint4* in = reinterpret_cast<const uint4*>(rgb);
      alignas(16) unsigned char px[3 * kPixels];
      uint4* words = reinterpret_cast<uint4*>(px);
#pragma unroll
      for (int k = 0; k < 3; ++k) words[k] = in[3 * first + k];
      alignas(16) unsigned char g[kPixels];
#pragma unroll
      for (int k = 0; k < kPixels; ++k) g[k] = gray(px[3 * k], px[3 * k + 1], px[3 * k + 2]);
      reinterpret_cast<uint4*>(out)[first] = *reinterpret_cast<const uint4*>(g);
    }
    const std::int64_t tail = chunks * kPixels + threadIdx.x;  // the last n mod 16 pixels, by block 0
    if (blockIdx.x == 0 && tail < n) out[tail] = gray(rgb[3 * tail], rgb[3 * tail + 1], rgb[3 * tail + 2]);
  } else if (first < n) {
    out[first] = gray(rgb[3 * first], rgb[3 * first + 1], rgb[3 * first + 2]);
  }
}

template <class T>
struct Kernels {
  static auto add() { return &vectorized<T, 16 / sizeof(T), VecAdd<T>>; }
  static auto saxpy() { return &vectorized<T, 16 / sizeof(T), Saxpy<T>>; }
  static auto gray() { return &gray_vectorized<true>; }
};

// Blocks of kThreads threads for `items` items per thread-slot; at least one
// (block 0 does the tail). n <= 2^38 keeps this under 2^31.
unsigned blocks(std::int64_t items) { return unsigned(std::max<std::int64_t>(1, (items + kThreads - 1) / kThreads)); }

struct Vectorized {
  static constexpr bool kBinary = true;
  template <class T, class F>
  static void binary(const T* a, const T* b, T* out, std::int64_t n, F f, cudaStream_t stream) {
    constexpr int kV = 16 / sizeof(T);
    if (aligned16(a) && aligned16(b) && aligned16(out)) {
      vectorized<T, kV, F><<<blocks((n / kV + kUnroll - 1) / kUnroll), kThreads, 0, stream>>>(a, b, out, n, f);
    } else {
      vectorized<T, 1, F><<<blocks((n + kUnroll - 1) / kUnroll), kThreads, 0, stream>>>(a, b, out, n, f);
    }
  }
  static void grayscale(const unsigned char* rgb, unsigned char* out, std::int64_t n, cudaStream_t stream) {
    if (aligned16(rgb) && aligned16(out))
      gray_vectorized<true><<<blocks(n / kPixels), kThreads, 0, stream>>>(rgb, out, n);
    else
      gray_vectorized<false><<<blocks(n), kThreads, 0, stream>>>(rgb, out, n);
  }
  static Resources resources(const Problem& p) { return resources_of_problem<Kernels>(p); }
};

}  // namespace
}  // namespace gpubench::map

GPUBENCH_MAP_STEP(vectorized, Vectorized, Ladder::modern, "128-bit loads and stores, 4 vectors in flight per thread", false)
