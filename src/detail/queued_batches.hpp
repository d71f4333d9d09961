// Batches of runs for an energy window, kept one batch ahead on a stream so
// the GPU is never idle while the host reads the energy counter. Waiting for
// each batch before reading did idle it: on the H200 a batch's wait and
// NVML read took about 4 ms (the runs of an energy window came out that much
// longer per batch than their median), and that idle time was billed to the
// runs at the window's average power. A batch must outlast that read, and
// the work must all be on `stream` (as it is for steps timed with events
// there). The lead is one batch or what CUDA's launch queue holds, whichever
// is less: for runs of a few microseconds the queue may run dry during a read.
#pragma once

#include <cstdint>
#include <functional>

#include <cuda_runtime.h>

namespace gpubench {

class QueuedBatches {
 public:
  QueuedBatches(cudaStream_t stream, std::function<void()> run, std::int64_t runs_per_batch);
  ~QueuedBatches();  // waits for the batch still queued
  QueuedBatches(const QueuedBatches&) = delete;
  QueuedBatches& operator=(const QueuedBatches&) = delete;

  // Queues the next batch, then returns when the one before it is done: each
  // call completes runs_per_batch runs, with one more batch still queued.
  void operator()();

 private:
  void enqueue(cudaEvent_t done);

  cudaStream_t stream_;
  std::function<void()> run_;
  std::int64_t runs_per_batch_;
  cudaEvent_t done_[2] = {nullptr, nullptr};
  int oldest_ = 0;
  bool primed_ = false;
};

}  // namespace gpubench
