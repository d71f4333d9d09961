// The GPU a run uses: what it is, its ceilings, and the stream work goes on.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

namespace gpubench {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int max_threads_per_sm = 0;
  std::size_t l2_bytes = 0;
  std::size_t shared_per_block_bytes = 0;  // the shared memory one block may opt into
  std::size_t memory_bytes = 0;
  int sm_clock_mhz = 0;      // maximum SM clock
  int memory_clock_mhz = 0;  // maximum memory clock
  int bus_width_bits = 0;
  double theoretical_gbps = 0;  // 2 (double data rate) x memory clock x bus width
  double copy_gbps = 0;         // measured device-to-device copy, bytes read + written
  double fp32_peak_gflops = 0;  // SMs x FP32 lanes per SM x 2 (an FMA) x maximum SM clock
  std::string pci_bus_id;       // as cudaDeviceGetPCIBusId writes it
  std::string uuid;             // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi -L names it
  // What NVML says (Telemetry::state, temperature_c_start, _end), or
  // {"unavailable": why}; null in files written before it was added.
  nlohmann::json telemetry;
  // In a report merged from the ranks of an mpirun or srun launch
  // (merge_ranks): the rank that ran on the GPU, its host, and the GPU's
  // CUDA index there (`index` is then the rank). -1 and empty otherwise.
  int rank = -1, cuda_index = -1;
  std::string host;
};

// Number of CUDA devices, 0 when there is no driver or no GPU.
int cuda_device_count();

// The line of a NoDeviceError, `needs` saying what needed a GPU: "no CUDA
// device found (needs)", or, where a driver is there but unusable (older
// than this build's CUDA runtime, say), "no usable CUDA device: why (needs)".
std::string no_device_message(std::string_view needs);

// Makes `index` current and reads its properties. Throws NoDeviceError when
// there is no device and UsageError when `index` is not one of them.
DeviceInfo open_device(int index);

// Median bandwidth of cudaMemcpyAsync between two device buffers (bytes read
// plus bytes written over time), with buffers of up to 1 GiB each.
double measure_copy_gbps(cudaStream_t stream);

// measure_copy_gbps, once per process and device; later calls return the
// first measurement, so every result of a run shares one ceiling.
double copy_gbps_once(int device, cudaStream_t stream);

// Why a step that needs compute capability min_cc (major * 10 + minor; 0:
// any) cannot run on `d`, or empty.
std::string lacks_compute_capability(const DeviceInfo& d, int min_cc);

// Free device memory on the current device.
std::size_t device_free_bytes();

}  // namespace gpubench
