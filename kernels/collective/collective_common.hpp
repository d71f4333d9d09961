// Pieces the collective steps share (host functions, compiled in
// collective_common.cu): the element-wise combine kernels, peer access,
// per-GPU events, and slicing a buffer into one segment per GPU.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/collective/collective_step.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench::collective {

// The most GPUs one kernel reads at once (p2p_direct's pointer list).
constexpr int kMaxGpus = 8;

// Makes `device` current until the scope ends, then the one before.
class OnDevice {
 public:
  explicit OnDevice(int device) {
    GPUBENCH_CUDA(cudaGetDevice(&before_));
    GPUBENCH_CUDA(cudaSetDevice(device));
  }
  ~OnDevice() { cudaSetDevice(before_); }
  OnDevice(const OnDevice&) = delete;
  OnDevice& operator=(const OnDevice&) = delete;

 private:
  int before_ = 0;
};

// dst[i] = op(dst[i], src[i]) for i < n, on the current device's `stream`
// (src may be a peer's memory, with peer access enabled).
void combine_on(void* dst, const void* src, std::int64_t n, Elem elem, Op op, cudaStream_t stream);

// dst[i] = op over k of srcs[k][i], for i < n: every source read directly
// (peers' memory over NVLink, with peer access enabled).
void reduce_sources_on(const std::vector<const void*>& srcs, void* dst, std::int64_t n, Elem elem, Op op,
                       cudaStream_t stream);

// Whether every GPU of `devices` can read every other's memory.
bool peers_reachable(const std::vector<int>& devices);

// Lets every GPU of `devices` read and write every other's memory (once
// per pair and process; CUDA keeps it for the context's life).
void enable_peer_access(const std::vector<int>& devices);

// One event per GPU, made on it without timing: what a GPU's stream records
// for the others to wait on.
struct Events {
  explicit Events(const std::vector<int>& devices);
  ~Events();
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
  std::vector<int> devices;
  std::vector<cudaEvent_t> events;
};

// Segment s of n elements cut into `parts` as evenly as they go: [begin, end).
inline std::int64_t segment_begin(std::int64_t n, int parts, int s) { return n / parts * s + std::min<std::int64_t>(s, n % parts); }
inline std::int64_t segment_end(std::int64_t n, int parts, int s) { return segment_begin(n, parts, s + 1); }

// p + i elements of `elem`.
inline void* at(void* p, std::int64_t i, Elem elem) { return static_cast<char*>(p) + i * std::int64_t(elem_size(elem)); }
inline const void* at(const void* p, std::int64_t i, Elem elem) {
  return static_cast<const char*>(p) + i * std::int64_t(elem_size(elem));
}

inline std::size_t no_scratch(const Problem&) { return 0; }
inline std::size_t no_host_memory(const Problem&) { return 0; }
inline std::string always_available(const Problem&) { return {}; }

}  // namespace gpubench::collective
