// Persistent grids of thread-block clusters for the multicast steps: the
// launch of as many clusters as the GPU holds at once or of as few as take
// the tiles in as many rounds. The order in which a cluster takes its tiles
// (ClusterTileOrder) is in tiles.hpp.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "kernels/gemm/gemm_common.cuh"

namespace gpubench::gemm {

// How many clusters a persistent grid launches: as many as fit on the GPU at
// once (at most one per cluster tile), or the fewest that still take the
// tiles in the same number of rounds (256 cluster tiles on 66 places: 64
// clusters, 4 tiles each, instead of 58 with 4 and 8 with 3). The clusters
// left out would idle in the last round anyway; at the power limit their
// SMs idling from the start lets the others clock higher.
enum class GridSize { all_resident, fewest_for_rounds };

// Launches `kernel` (blocks of `threads` threads and `smem_bytes` of
// dynamic shared memory, in clusters of cluster_size) as a persistent grid
// over `work` cluster tiles, `size` clusters. The number that fit is asked
// once per device and kernel.
template <typename... Params, typename... Args>
void launch_persistent_clusters(void (*kernel)(Params...), int cluster_size, int threads, int smem_bytes, int work,
                                GridSize size, cudaStream_t stream, const char* name, Args&&... args) {
  if (work < 1) return;  // an empty C
  // Every launch: the limit belongs to the current device's context (--devices runs several).
  GPUBENCH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  cudaLaunchAttribute cluster;
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = cluster_size;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(cluster_size);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = smem_bytes;
  config.stream = stream;
  config.attrs = &cluster;
  config.numAttrs = 1;

  static std::mutex mutex;  // --devices launches from one thread per device
  static std::map<std::pair<int, const void*>, int> resident_by_device;
  int device = 0;
  GPUBENCH_CUDA(cudaGetDevice(&device));
  int resident = 0;  // clusters that fit on the GPU at once
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_pair(device, reinterpret_cast<const void*>(kernel));
    const auto known = resident_by_device.find(key);
    if (known != resident_by_device.end()) {
      resident = known->second;
    } else {
      GPUBENCH_CUDA(cudaOccupancyMaxActiveClusters(&resident, kernel, &config));
      resident_by_device.emplace(key, resident);
    }
  }
  if (resident < 1) throw CudaError(cudaErrorInvalidConfiguration, std::string(name) + ": no cluster fits on this GPU");
  int clusters = std::min(resident, work);
  if (size == GridSize::fewest_for_rounds) {
    const int rounds = (work + resident - 1) / resident;
    clusters = (work + rounds - 1) / rounds;
  }
  config.gridDim = dim3(cluster_size * clusters);
  GPUBENCH_CUDA(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
  GPUBENCH_CHECK_LAUNCH();
}

}  // namespace gpubench::gemm
