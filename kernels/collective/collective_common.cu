#include "kernels/collective/collective_common.hpp"

#include <stdexcept>
#include <string>

#include "kernels/collective/elementwise.cuh"

namespace gpubench::collective {
namespace {

constexpr int kThreads = 256;

template <class T>
__global__ void __launch_bounds__(kThreads) combine_kernel(T* dst, const T* src, std::int64_t n, Op op) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * kThreads)
    dst[i] = apply(op, dst[i], src[i]);
}

struct Sources {
  const void* p[kMaxGpus];
  int k;
};

template <class T>
__global__ void __launch_bounds__(kThreads) reduce_sources_kernel(Sources s, T* dst, std::int64_t n, Op op) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * kThreads) {
    T acc = static_cast<const T*>(s.p[0])[i];
    for (int k = 1; k < s.k; ++k) acc = apply(op, acc, static_cast<const T*>(s.p[k])[i]);
    dst[i] = acc;
  }
}

// A grid that fills the current device, or fewer blocks for small n.
unsigned blocks_for(std::int64_t n) {
  int device = 0, sms = 0;
  GPUBENCH_CUDA(cudaGetDevice(&device));
  GPUBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return unsigned(std::max<std::int64_t>(1, std::min<std::int64_t>((n + kThreads - 1) / kThreads, std::int64_t(sms) * 8)));
}

}  // namespace

void combine_on(void* dst, const void* src, std::int64_t n, Elem elem, Op op, cudaStream_t stream) {
  if (n <= 0) return;
  visit_elem(elem, [&](auto t) {
    using T = decltype(t);
    combine_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(static_cast<T*>(dst), static_cast<const T*>(src), n, op);
  });
  GPUBENCH_CHECK_LAUNCH();
}

void reduce_sources_on(const std::vector<const void*>& srcs, void* dst, std::int64_t n, Elem elem, Op op,
                       cudaStream_t stream) {
  if (n <= 0) return;
  if (srcs.size() > std::size_t(kMaxGpus))  // a step's unavailable() keeps larger spans away
    throw std::invalid_argument("reduce_sources_on: " + std::to_string(srcs.size()) + " sources, at most " +
                                std::to_string(kMaxGpus));
  Sources s{};
  s.k = int(srcs.size());
  std::copy(srcs.begin(), srcs.end(), s.p);
  visit_elem(elem, [&](auto t) {
    using T = decltype(t);
    reduce_sources_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(s, static_cast<T*>(dst), n, op);
  });
  GPUBENCH_CHECK_LAUNCH();
}

bool peers_reachable(const std::vector<int>& devices) {
  for (const int a : devices)
    for (const int b : devices) {
      int can = 1;
      if (a != b) GPUBENCH_CUDA(cudaDeviceCanAccessPeer(&can, a, b));
      if (!can) return false;
    }
  return true;
}

void enable_peer_access(const std::vector<int>& devices) {
  for (const int a : devices) {
    OnDevice on(a);
    for (const int b : devices) {
      if (a == b) continue;
      const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();  // clears it: enabled earlier in this process
      else GPUBENCH_CUDA(e);
    }
  }
}

Events::Events(const std::vector<int>& d) : devices(d), events(d.size(), nullptr) {
  for (std::size_t g = 0; g < d.size(); ++g) {
    OnDevice on(d[g]);
    GPUBENCH_CUDA(cudaEventCreateWithFlags(&events[g], cudaEventDisableTiming));
  }
}

Events::~Events() {
  int before = 0;
  cudaGetDevice(&before);
  for (std::size_t g = 0; g < devices.size(); ++g) {
    cudaSetDevice(devices[g]);
    cudaEventDestroy(events[g]);
  }
  cudaSetDevice(before);
}

}  // namespace gpubench::collective
