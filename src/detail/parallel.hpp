// Host parallelism for inputs, references and the `cpu` baselines: one
// process-wide pool of threads, created at first use (before any timed
// sample: inputs are built with it), so a timed host step pays no thread
// creation.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gpubench {

// The host threads inputs, references and the `cpu` baselines use: every
// hardware thread the process may run on (its CPU affinity), or GPUBENCH_HOST_THREADS (a whole number from 1 to 4096;
// anything else throws UsageError, which the commands that run steps check
// before they start). Read once.
unsigned host_threads();

// The host's processor as /proc/cpuinfo names it, or "unknown".
std::string host_cpu_model();

// The host's name (gethostname), or "unknown".
std::string host_name();

class ThreadPool {
 public:
  // host_threads() - 1 workers; the calling thread is the last one.
  static ThreadPool& instance();

  explicit ThreadPool(unsigned workers);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Runs job(i) for every i in [0, count) on the workers and the caller;
  // returns when all have finished, rethrowing the first exception a job
  // threw. Calls from several threads take turns; a job must not call run.
  void run(unsigned count, const std::function<void(unsigned)>& job);

 private:
  void work();
  void drain(const std::function<void(unsigned)>* job, unsigned count);

  std::mutex turn_, m_;
  std::condition_variable wake_, done_;
  const std::function<void(unsigned)>* job_ = nullptr;
  unsigned count_ = 0;
  std::atomic<unsigned> busy_{0};  // workers in the current job: up under m_, down without it
  std::atomic<unsigned> next_{0};
  std::atomic<std::uint64_t> generation_{0};  // written under m_, read without it while spinning
  std::atomic<bool> stop_{false};  // written under m_, read without it while spinning
  std::exception_ptr error_;  // the first exception of the current job
  std::vector<std::thread> workers_;
};

// Splits [0, n) into one contiguous chunk per host thread and runs
// f(chunk_index, begin, end) on each, on the pool. Chunks below min_chunk
// elements are not worth a thread of their own. Returns the chunk count.
template <class F>
unsigned parallel_chunks(std::int64_t n, F&& f, std::int64_t min_chunk = 1 << 16) {
  const std::int64_t by_size = std::max<std::int64_t>(1, n / min_chunk);
  const unsigned chunks = static_cast<unsigned>(std::min<std::int64_t>(host_threads(), by_size));
  const std::int64_t per = (n + chunks - 1) / chunks;
  ThreadPool::instance().run(chunks, [&](unsigned c) {
    f(c, std::min<std::int64_t>(n, c * per), std::min<std::int64_t>(n, (c + 1) * per));
  });
  return chunks;
}

// Splits [0, n) into blocks of `block` elements (the last one shorter) and
// runs f(block_index, begin, end) on each, on the pool, handing blocks out as
// threads come free: a thread the OS preempts for a moment delays only the
// block it holds, not a whole share, which keeps a timed host step's spread
// down. Returns the block count.
template <class F>
std::int64_t parallel_blocks(std::int64_t n, std::int64_t block, F&& f) {
  const std::int64_t blocks = n == 0 ? 0 : (n + block - 1) / block;
  std::atomic<std::int64_t> next{0};
  ThreadPool::instance().run(static_cast<unsigned>(std::min<std::int64_t>(host_threads(), blocks)), [&](unsigned) {
    for (std::int64_t b; (b = next.fetch_add(1)) < blocks;) f(b, b * block, std::min(n, (b + 1) * block));
  });
  return blocks;
}

}  // namespace gpubench
