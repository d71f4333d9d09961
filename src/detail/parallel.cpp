#include "src/detail/parallel.hpp"

#include <fstream>
#include <utility>

namespace gpubench {

std::string host_cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
      return line.substr(line.find(':') + 2);
  return "unknown";
}

ThreadPool& ThreadPool::instance() {
  static ThreadPool pool(host_threads() - 1);
  return pool;
}

ThreadPool::ThreadPool(unsigned workers) {
  for (unsigned i = 0; i < workers; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

// Takes indices until none is left. An exception (out of memory, say) ends
// the job: it is kept for the caller, and no further index starts.
void ThreadPool::drain(const std::function<void(unsigned)>* job, unsigned count) {
  for (unsigned i; (i = next_.fetch_add(1)) < count;) {
    try {
      (*job)(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(m_);
      if (!error_) error_ = std::current_exception();
      next_ = count;
    }
  }
}

// Every worker takes part in every job and says when it is done with it.
// Jobs come back to back while a host step is timed: a worker waits for the
// next one awake (no lock, no system call on either side) for a while
// before it sleeps, so a sample times neither a mutex handoff nor waking 15
// threads.
void ThreadPool::work() {
  std::uint64_t seen = 0;
  for (;;) {
    for (int spin = 0; spin < 20000 && generation_.load(std::memory_order_acquire) == seen; ++spin)
      std::this_thread::yield();
    if (generation_.load(std::memory_order_acquire) == seen) {
      std::unique_lock<std::mutex> lock(m_);
      wake_.wait(lock, [&] { return stop_ || generation_.load() != seen; });
      if (stop_) return;
    }
    seen = generation_.load(std::memory_order_acquire);  // job_ and count_ were written before it
    drain(job_, count_);
    finished_.fetch_add(1, std::memory_order_acq_rel);
  }
}

void ThreadPool::run(unsigned count, const std::function<void(unsigned)>& job) {
  std::lock_guard<std::mutex> turn(turn_);
  {
    // Under the lock: a worker about to sleep sees the new generation.
    std::lock_guard<std::mutex> lock(m_);
    job_ = &job;
    count_ = count;
    next_ = 0;
    finished_.store(0, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  drain(&job, count);
  while (finished_.load(std::memory_order_acquire) != workers_.size()) std::this_thread::yield();
  std::lock_guard<std::mutex> lock(m_);
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

}  // namespace gpubench
