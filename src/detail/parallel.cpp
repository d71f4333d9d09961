#include "src/detail/parallel.hpp"

#include <pthread.h>
#include <sched.h>

#include <cstdlib>
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

unsigned host_threads() {
  static const unsigned threads = [] {
    const unsigned all = std::max(1u, std::thread::hardware_concurrency());
    const char* text = std::getenv("GPUBENCH_HOST_THREADS");
    if (!text || !*text) return all;
    char* end = nullptr;
    const unsigned long asked = std::strtoul(text, &end, 10);
    return *end == '\0' && asked >= 1 && asked <= 4096 && text[0] != '-' ? unsigned(asked) : all;
  }();
  return threads;
}

ThreadPool& ThreadPool::instance() {
  static ThreadPool pool(host_threads() - 1);
  return pool;
}

namespace {

// The CPUs this process may run on, in order; empty where that cannot be read.
std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

// Best effort: a container may refuse, and the pool then runs unpinned.
void pin(std::thread& t, int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(t.native_handle(), sizeof set, &set);
}

}  // namespace

// Worker w goes to the (w+1)-th allowed CPU; the caller stays unpinned (the
// threads it creates later, the CUDA runtime's among them, inherit its mask)
// and the scheduler leaves it the CPU no worker holds.
ThreadPool::ThreadPool(unsigned workers) {
  const std::vector<int> cpus = allowed_cpus();
  for (unsigned w = 0; w < workers; ++w) {
    workers_.emplace_back([this, w] { work(w); });
    if (cpus.size() > 1) pin(workers_.back(), cpus[(w + 1) % cpus.size()]);
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

// Runs this thread's share of the indices; `count` and `job` were read under
// the lock. An exception (out of memory, say) ends the job: it is kept for
// the caller, and no further index starts.
void ThreadPool::deal(const std::function<void(unsigned)>* job, unsigned count, unsigned self) {
  for (unsigned i = self; i < count && !failed_.load(std::memory_order_relaxed); i += threads()) {
    try {
      (*job)(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(m_);
      if (!error_) error_ = std::current_exception();
      failed_ = true;
    }
  }
}

void ThreadPool::work(unsigned self) {
  std::uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    // Jobs come back to back while a host step is timed: wait a little
    // awake before sleeping, so a sample does not time waking 15 threads.
    lock.unlock();
    for (int spin = 0; spin < 20000 && generation_.load(std::memory_order_relaxed) == seen; ++spin)
      std::this_thread::yield();
    lock.lock();
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    const auto* job = job_;
    const unsigned count = count_;
    lock.unlock();
    deal(job, count, self);
    const bool last = pending_.fetch_sub(1) == 1;
    lock.lock();  // the caller is either before its check or waiting: no wake is lost
    if (last) done_.notify_all();
  }
}

void ThreadPool::run(unsigned count, const std::function<void(unsigned)>& job) {
  std::lock_guard<std::mutex> turn(turn_);
  std::unique_lock<std::mutex> lock(m_);
  job_ = &job;
  count_ = count;
  failed_ = false;
  pending_ = unsigned(workers_.size());  // every worker has a share, even an empty one
  ++generation_;
  lock.unlock();
  wake_.notify_all();
  deal(&job, count, threads() - 1);
  // The caller, too, waits for the last workers awake before it sleeps: a
  // timed sample then ends without a futex wake (measured on the H200 host:
  // reduce's cpu row at 2^28 from 2-4% noise to 1-2%).
  for (int spin = 0; spin < 20000 && pending_.load() != 0; ++spin) std::this_thread::yield();
  lock.lock();
  done_.wait(lock, [&] { return pending_ == 0; });
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

}  // namespace gpubench
