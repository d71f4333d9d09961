#include "src/patterns/transfer/host_arrays.hpp"

#include <algorithm>
#include <cstring>

#include <cuda_runtime_api.h>

#include "src/detail/cuda_check.hpp"
#include "src/detail/parallel.hpp"

namespace gpubench::transfer {
namespace {

float* allocate(Memory kind, std::size_t bytes) {
  void* p = nullptr;
  switch (kind) {
    case Memory::pageable: return new float[bytes / sizeof(float)];
    case Memory::pinned: GPUBENCH_CUDA(cudaMallocHost(&p, bytes)); break;
    case Memory::mapped: GPUBENCH_CUDA(cudaHostAlloc(&p, bytes, cudaHostAllocMapped)); break;
    case Memory::managed: GPUBENCH_CUDA(cudaMallocManaged(&p, bytes, cudaMemAttachGlobal)); break;
  }
  return static_cast<float*>(p);
}

void release(Memory kind, float* p) {
  if (!p) return;
  switch (kind) {
    case Memory::pageable: delete[] p; break;
    case Memory::pinned:
    case Memory::mapped: cudaFreeHost(p); break;
    case Memory::managed: cudaFree(p); break;
  }
}

void parallel_copy(float* to, const float* from, std::int64_t n) {
  parallel_chunks(n, [&](unsigned, std::int64_t b, std::int64_t e) { std::copy(from + b, from + e, to + b); });
}

}  // namespace

HostArrays::HostArrays(Memory kind, std::int64_t n, const float* in_a, const float* in_b) : kind_(kind) {
  const std::size_t bytes = std::size_t(std::max<std::int64_t>(n, 1)) * sizeof(float);
  try {
    a = allocate(kind, bytes);
    b = allocate(kind, bytes);
    c = allocate(kind, bytes);
  } catch (...) {
    release(kind, a);
    release(kind, b);
    release(kind, c);
    throw;
  }
  parallel_copy(a, in_a, n);
  parallel_copy(b, in_b, n);
  parallel_chunks(n, [&](unsigned, std::int64_t lo, std::int64_t hi) { std::memset(c + lo, 0, (hi - lo) * sizeof(float)); });
  if (kind == Memory::mapped) {
    GPUBENCH_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&da), a, 0));
    GPUBENCH_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&db), b, 0));
    GPUBENCH_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&dc), c, 0));
  }
}

HostArrays::~HostArrays() {
  release(kind_, a);
  release(kind_, b);
  release(kind_, c);
}

}  // namespace gpubench::transfer
