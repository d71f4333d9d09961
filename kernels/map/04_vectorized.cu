// vectorized — beyond the lectures: grid_stride with 128-bit loads and
// stores (4 floats or 2 doubles, 4 such vectors of each input in flight per
// thread; for grayscale, 16 pixels per iteration as three 16-byte loads of
// RGB and one 16-byte store). A quarter (or half) of the
// memory instructions, and more bytes in flight per thread, which is what
// DRAM latency needs. Arrays that do not start on 16-byte boundaries take
// the element-wise loop; the last n mod (vector) elements always do.
#include "kernels/map/map_common.cuh"

namespace gpubench::map {
namespace {

constexpr int kThreads = 256, kUnroll = 4;

template <class T, int V>
struct alignas(V * sizeof(T)) Vec {
  T v[V];
};

template <class T, int V, class F>
__global__ void __launch_bounds__(kThreads) vectorized(const T* a, const T* b, T* out, std::int64_t n, F f) {
  using W = Vec<T, V>;
  const W* av = reinterpret_cast<const W*>(a);
  const W* bv = reinterpret_cast<const W*>(b);
  W* ov = reinterpret_cast<W*>(out);
  const std::int64_t vecs = n / V, stride = std::int64_t(gridDim.x) * kThreads;
  const std::int64_t first = std::int64_t(blockIdx.x) * kThreads + threadIdx.x;
  std::int64_t i = first;
  for (; i + (kUnroll - 1) * stride < vecs; i += kUnroll * stride) {
    W x[kUnroll], y[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      x[u] = av[i + u * stride];
      y[u] = bv[i + u * stride];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      W r;
#pragma unroll
      for (int e = 0; e < V; ++e) r.v[e] = f(x[u].v[e], y[u].v[e]);
      ov[i + u * stride] = r;
    }
  }
  for (; i < vecs; i += stride) {
    W r;
    const W x = av[i], y = bv[i];
#pragma unroll
    for (int e = 0; e < V; ++e) r.v[e] = f(x.v[e], y.v[e]);
    ov[i] = r;
  }
  const std::int64_t tail = vecs * V + first;  // the last n mod V elements
  if (tail < n) out[tail] = f(a[tail], b[tail]);
}

constexpr int kPixels = 16;  // pixels per 16-byte store

// kVector false: one pixel at a time (arrays not on 16-byte boundaries).
template <bool kVector>
__global__ void __launch_bounds__(kThreads) gray_vectorized(const unsigned char* rgb, unsigned char* out, std::int64_t n) {
  const std::int64_t stride = std::int64_t(gridDim.x) * kThreads, first = std::int64_t(blockIdx.x) * kThreads + threadIdx.x;
  std::int64_t done = 0;
  if constexpr (kVector) {
    const uint4* in = reinterpret_cast<const uint4*>(rgb);
    uint4* o = reinterpret_cast<uint4*>(out);
    const std::int64_t chunks = n / kPixels;
    for (std::int64_t c = first; c < chunks; c += stride) {
      alignas(16) unsigned char px[3 * kPixels];
      uint4* words = reinterpret_cast<uint4*>(px);
#pragma unroll
      for (int k = 0; k < 3; ++k) words[k] = in[3 * c + k];
      alignas(16) unsigned char g[kPixels];
#pragma unroll
      for (int k = 0; k < kPixels; ++k) g[k] = gray(px[3 * k], px[3 * k + 1], px[3 * k + 2]);
      o[c] = *reinterpret_cast<const uint4*>(g);
    }
    done = chunks * kPixels;
  }
  for (std::int64_t i = done + first; i < n; i += stride) out[i] = gray(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]);
}

template <class T>
struct Kernels {
  static auto add() { return &vectorized<T, 16 / sizeof(T), VecAdd<T>>; }
  static auto saxpy() { return &vectorized<T, 16 / sizeof(T), Saxpy<T>>; }
  static auto gray() { return &gray_vectorized<true>; }
};

bool aligned(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <class Kernel>
unsigned blocks(Kernel k, std::int64_t items) {
  return unsigned(std::max<std::int64_t>(1, std::min<std::int64_t>(resident_grid(k, kThreads), (items + kThreads - 1) / kThreads)));
}

struct Vectorized {
  static constexpr bool kBinary = true;
  template <class T, class F>
  static void binary(const T* a, const T* b, T* out, std::int64_t n, F f, cudaStream_t stream) {
    constexpr int kV = 16 / sizeof(T);
    if (aligned(a) && aligned(b) && aligned(out)) {
      vectorized<T, kV, F><<<blocks(&vectorized<T, kV, F>, (n / kV + kUnroll - 1) / kUnroll), kThreads, 0, stream>>>(
          a, b, out, n, f);
    } else {
      vectorized<T, 1, F><<<blocks(&vectorized<T, 1, F>, n), kThreads, 0, stream>>>(a, b, out, n, f);
    }
  }
  static void grayscale(const unsigned char* rgb, unsigned char* out, std::int64_t n, cudaStream_t stream) {
    if (aligned(rgb) && aligned(out))
      gray_vectorized<true><<<blocks(&gray_vectorized<true>, n / kPixels), kThreads, 0, stream>>>(rgb, out, n);
    else
      gray_vectorized<false><<<blocks(&gray_vectorized<false>, n), kThreads, 0, stream>>>(rgb, out, n);
  }
  static Resources resources(const Problem& p) { return resources_of_problem<Kernels>(p); }
};

}  // namespace
}  // namespace gpubench::map

GPUBENCH_MAP_STEP(vectorized, Vectorized, Ladder::modern, "128-bit loads and stores, 4 vectors in flight per thread", false)
