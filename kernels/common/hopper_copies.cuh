// Thin wrappers over Hopper's asynchronous copies: mbarriers and the
// tensor-memory accelerator (TMA). The bodies exist only in device passes
// for compute capability 9.0 and up; a step that uses them runs only there.
#pragma once

#include <cuda.h>

#include <cstdint>

namespace gpubench::hopper {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define GPUBENCH_SM90(...) __VA_ARGS__
#else
#define GPUBENCH_SM90(...)
#endif

__device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
  return std::uint32_t(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbarrier_init(std::uint64_t* bar, int arrivals) {
  GPUBENCH_SM90(asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(arrivals));)
}

// Makes the initialized barriers visible to the copy engine.
__device__ __forceinline__ void fence_barrier_init() {
  GPUBENCH_SM90(asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");)
}

// Arrives and tells the barrier to also wait for `bytes` of TMA traffic.
__device__ __forceinline__ void mbarrier_arrive_expect_bytes(std::uint64_t* bar, std::uint32_t bytes) {
  GPUBENCH_SM90(asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)),
                             "r"(bytes) : "memory");)
}

__device__ __forceinline__ void mbarrier_arrive(std::uint64_t* bar) {
  GPUBENCH_SM90(asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");)
}

// Waits until the barrier's phase with this parity has completed.
__device__ __forceinline__ void mbarrier_wait(std::uint64_t* bar, int parity) {
  GPUBENCH_SM90(std::uint32_t done; do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(smem_addr(bar)), "r"(parity)
        : "memory");
  } while (!done);)
}

// A bulk copy (TMA without a tensor map): `bytes` contiguous bytes from
// global memory to shared memory, both addresses and the size multiples of
// 16, counted on `bar`.
__device__ __forceinline__ void bulk_load(void* dst, const void* src, std::uint32_t bytes, std::uint64_t* bar) {
  GPUBENCH_SM90(asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(smem_addr(dst)),
      "l"(src), "r"(bytes), "r"(smem_addr(bar))
      : "memory");)
}

// TMA: copies the box at (c0, c1) or (c0, c1, c2) (innermost first) of
// `map`'s tensor to shared memory, zero-filling what lies outside the
// tensor, and counts the bytes on `bar`.
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, std::uint64_t* bar, int c0, int c1) {
  GPUBENCH_SM90(asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          smem_addr(dst)),
      "l"(map), "r"(c0), "r"(c1), "r"(smem_addr(bar))
      : "memory");)
}

__device__ __forceinline__ void tma_load_3d(void* dst, const CUtensorMap* map, std::uint64_t* bar, int c0, int c1,
                                            int c2) {
  GPUBENCH_SM90(asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
          smem_addr(dst)),
      "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(smem_addr(bar))
      : "memory");)
}

// Thread-block clusters: this block's rank in its cluster, and a barrier
// every thread of every block of the cluster reaches (release/acquire: the
// blocks' shared-memory writes before it are visible after it).
__device__ __forceinline__ std::uint32_t cluster_ctarank() {
  std::uint32_t rank = 0;
  GPUBENCH_SM90(asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));)
  return rank;
}

__device__ __forceinline__ void cluster_sync() {
  GPUBENCH_SM90(asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");)
}

// Arrives on the barrier at bar's offset in block `cta` of the cluster
// (mapa: the address there).
__device__ __forceinline__ void mbarrier_arrive_cluster(std::uint64_t* bar, std::uint32_t cta) {
  GPUBENCH_SM90(asm volatile("{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
                             "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}" ::"r"(smem_addr(bar)),
                             "r"(cta)
                             : "memory");)
}

// tma_load_2d into every block of the cluster whose bit is set in `mask`:
// the box lands at dst's offset in each, and counts its bytes on the
// barrier at bar's offset in each.
__device__ __forceinline__ void tma_load_2d_multicast(void* dst, const CUtensorMap* map, std::uint64_t* bar, int c0,
                                                      int c1, std::uint16_t mask) {
  GPUBENCH_SM90(asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, "
      "%3}], [%4], %5;" ::"r"(smem_addr(dst)),
      "l"(map), "r"(c0), "r"(c1), "r"(smem_addr(bar)), "h"(mask)
      : "memory");)
}

// TMA stores: the box at (c0, c1[, c2]) of `map`'s tensor written from shared
// memory at src (what lies outside the tensor is not written), in a bulk
// group that bulk_commit closes. Shared memory written by threads reaches
// the TMA only after fence_proxy_async. bulk_wait_read<N> waits until at
// most N of this thread's groups still read their shared memory;
// bulk_wait_all, until every group's writes are done.
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, const void* src, int c0, int c1) {
  GPUBENCH_SM90(asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(map),
                             "r"(c0), "r"(c1), "r"(smem_addr(src))
                             : "memory");)
}

// tma_store_2d marking C's lines first to leave L2 (createpolicy evict_first),
// so that a stream of output does not push out the operands still reused.
__device__ __forceinline__ void tma_store_2d_evict_first(const CUtensorMap* map, const void* src, int c0, int c1) {
  GPUBENCH_SM90(std::uint64_t policy; asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
                asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.L2::cache_hint [%0, {%1, %2}], [%3], %4;" ::"l"(map),
                             "r"(c0), "r"(c1), "r"(smem_addr(src)), "l"(policy)
                             : "memory");)
}

__device__ __forceinline__ void tma_store_3d(const CUtensorMap* map, const void* src, int c0, int c1, int c2) {
  GPUBENCH_SM90(asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];" ::"l"(map),
                             "r"(c0), "r"(c1), "r"(c2), "r"(smem_addr(src))
                             : "memory");)
}

__device__ __forceinline__ void bulk_commit() { GPUBENCH_SM90(asm volatile("cp.async.bulk.commit_group;" ::: "memory");) }

template <int N>
__device__ __forceinline__ void bulk_wait_read() {
  GPUBENCH_SM90(asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");)
}

__device__ __forceinline__ void bulk_wait_all() { GPUBENCH_SM90(asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");) }

__device__ __forceinline__ void fence_proxy_async() {
  GPUBENCH_SM90(asm volatile("fence.proxy.async.shared::cta;" ::: "memory");)
}

// A barrier for `threads` threads of the block (whole warps) on hardware
// barrier `id` (1 to 15; 0 is __syncthreads').
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace gpubench::hopper
