#include "src/detail/device.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include "src/detail/cuda_check.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/detail/errors.hpp"
#include "src/detail/gpu_timer.hpp"
#include "src/detail/stats.hpp"

namespace gpubench {

namespace {

// FP32 lanes per SM by compute capability (CUDA C++ Programming Guide,
// "Arithmetic Instructions" throughput table).
int fp32_lanes_per_sm(int major, int minor) {
  if (major == 6 && minor == 0) return 64;
  if (major == 7 || (major == 8 && minor == 0)) return 64;
  return 128;  // 5.x, 6.1+, 8.6+, 9.x, 10.x, 12.x
}

}  // namespace

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no driver / no device" error
    return 0;
  }
  return count;
}

std::string no_device_message(std::string_view needs) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  cudaGetLastError();
  int driver = 0, runtime = 0;
  // No driver at all reads as an insufficient one whose version is 0: plainly no device.
  if (e == cudaSuccess || e == cudaErrorNoDevice || cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0)
    return fmt::format("no CUDA device found ({})", needs);
  if (e == cudaErrorInsufficientDriver && cudaRuntimeGetVersion(&runtime) == cudaSuccess)
    return fmt::format("no usable CUDA device: the NVIDIA driver supports CUDA {}.{}, this build needs {}.{} ({})",
                       driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10, needs);
  return fmt::format("no usable CUDA device: {}, {} ({})", cudaGetErrorName(e), cudaGetErrorString(e), needs);
}

DeviceInfo open_device(int index) {
  const int count = cuda_device_count();
  if (count == 0) throw NoDeviceError(no_device_message("this command needs an NVIDIA GPU and its driver"));
  if (index < 0 || index >= count)
    throw UsageError(fmt::format("--device {}: no such device; valid: 0..{}", index, count - 1));
  GPUBENCH_CUDA(cudaSetDevice(index));

  cudaDeviceProp prop{};
  GPUBENCH_CUDA(cudaGetDeviceProperties(&prop, index));
  auto attr = [index](cudaDeviceAttr a) {
    int v = 0;
    GPUBENCH_CUDA(cudaDeviceGetAttribute(&v, a, index));
    return v;
  };
  DeviceInfo d;
  d.index = index;
  d.name = prop.name;
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  d.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  d.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  d.shared_per_block_bytes = prop.sharedMemPerBlockOptin;
  d.memory_bytes = prop.totalGlobalMem;
  d.sm_clock_mhz = attr(cudaDevAttrClockRate) / 1000;
  d.memory_clock_mhz = attr(cudaDevAttrMemoryClockRate) / 1000;
  d.bus_width_bits = attr(cudaDevAttrGlobalMemoryBusWidth);
  d.theoretical_gbps = 2.0 * attr(cudaDevAttrMemoryClockRate) * 1e3 * (d.bus_width_bits / 8.0) / 1e9;
  d.fp32_peak_gflops = d.sm_count * fp32_lanes_per_sm(d.cc_major, d.cc_minor) * 2.0 * attr(cudaDevAttrClockRate) / 1e6;
  char bus_id[32] = {};
  GPUBENCH_CUDA(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index));
  d.pci_bus_id = bus_id;
  d.uuid = "GPU-";
  for (int i = 0; i < 16; ++i)
    d.uuid += fmt::format("{}{:02x}", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "",
                          static_cast<unsigned char>(prop.uuid.bytes[i]));
  return d;
}

double copy_gbps_once(int device, cudaStream_t stream) {
  static std::map<int, double> measured;
  static std::mutex m;  // --concurrent: a thread per device
  {
    std::lock_guard<std::mutex> lock(m);
    const auto it = measured.find(device);
    if (it != measured.end()) return it->second;
  }
  const double gbps = measure_copy_gbps(stream);  // only this device's thread measures it
  std::lock_guard<std::mutex> lock(m);
  return measured[device] = gbps;
}

std::size_t device_free_bytes() {
  std::size_t free = 0, total = 0;
  GPUBENCH_CUDA(cudaMemGetInfo(&free, &total));
  return free;
}

double measure_copy_gbps(cudaStream_t stream) {
  const std::size_t bytes = std::min<std::size_t>(std::size_t(1) << 30, device_free_bytes() / 4);
  DeviceBuffer src(bytes), dst(bytes);
  GPUBENCH_CUDA(cudaMemsetAsync(src.get(), 1, bytes, stream));
  GpuTimer timer(stream, 0);  // 1 GiB buffers are far larger than any L2
  auto copy = [&] { GPUBENCH_CUDA(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream)); };
  timer.time(nullptr, copy);  // warm-up
  std::vector<double> ms;
  for (int i = 0; i < 10; ++i) ms.push_back(timer.time(nullptr, copy));
  return 2.0 * bytes / (summarize(ms).median_ms * 1e-3) / 1e9;
}

std::string lacks_compute_capability(const DeviceInfo& d, int min_cc) {
  if (d.cc_major * 10 + d.cc_minor >= min_cc) return {};
  return fmt::format("needs compute capability {}.{} or later; {} is {}.{}", min_cc / 10, min_cc % 10, d.name,
                     d.cc_major, d.cc_minor);
}

}  // namespace gpubench
