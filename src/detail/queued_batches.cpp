#include "src/detail/queued_batches.hpp"

#include "src/detail/cuda_check.hpp"

namespace gpubench {

QueuedBatches::QueuedBatches(cudaStream_t stream, std::function<void()> run, std::int64_t runs_per_batch)
    : stream_(stream), run_(std::move(run)), runs_per_batch_(runs_per_batch) {
  GPUBENCH_CUDA(cudaEventCreateWithFlags(&done_[0], cudaEventDisableTiming));
  if (const cudaError_t e = cudaEventCreateWithFlags(&done_[1], cudaEventDisableTiming); e != cudaSuccess) {
    cudaEventDestroy(done_[0]);
    GPUBENCH_CUDA(e);
  }
}

QueuedBatches::~QueuedBatches() {
  cudaDeviceSynchronize();  // no throw from here; a failed run was reported by the call that waited on it
  for (cudaEvent_t e : done_) cudaEventDestroy(e);
}

void QueuedBatches::enqueue(cudaEvent_t done) {
  for (std::int64_t k = 0; k < runs_per_batch_; ++k) run_();
  GPUBENCH_CUDA(cudaEventRecord(done, stream_));
}

void QueuedBatches::operator()() {
  if (!primed_) {
    enqueue(done_[oldest_]);
    primed_ = true;
  }
  enqueue(done_[1 - oldest_]);  // its event was last waited on: free to record again
  GPUBENCH_CUDA(cudaEventSynchronize(done_[oldest_]));
  oldest_ = 1 - oldest_;
}

}  // namespace gpubench
