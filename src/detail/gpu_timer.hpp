// Times one sample of device work with CUDA events: untimed preparation (an
// input restore, an output poison), an optional L2 flush, then the timed body.
// A kernel holds the stream until the host has queued the whole body, so the
// events time the GPU's work and not the host's launch overhead (nvbench's
// "blocking kernel").
#pragma once

#include <functional>
#include <vector>

#include <cuda_runtime_api.h>

#include "src/detail/device_buffer.hpp"

namespace gpubench {

class GpuTimer {
 public:
  // flush_bytes > 0: before each sample, read a buffer that large so no input
  // is left in L2 (a cold-cache measurement); 0: hot runs.
  GpuTimer(cudaStream_t stream, std::size_t flush_bytes);
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  // Milliseconds between the events around body().
  double time(const std::function<void()>& prepare, const std::function<void()>& body);

  // Milliseconds of the host's clock from idle devices (prepared, L2
  // flushed) to the end of a device-wide synchronize after body(): for a
  // body whose host calls block, which the holding kernel would deadlock.
  // One timer per device the body runs on (each made with its device
  // current); the first timer's device is current for body() and after.
  static double time_on_host(const std::vector<GpuTimer*>& timers, const std::function<void()>& prepare,
                             const std::function<void()>& body);

 private:
  void flush_l2();  // queues the L2 flush on the stream, when there is one

  int device_ = 0;  // current when the timer was made
  cudaStream_t stream_;
  DeviceBuffer flush_;
  volatile int* release_ = nullptr;  // host-mapped flag the holding kernel waits on
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

}  // namespace gpubench
