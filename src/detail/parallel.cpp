#include "src/detail/parallel.hpp"

#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <utility>

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/detail/json_text.hpp"
#include "src/detail/strings.hpp"

namespace gpubench {

std::string host_cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
      return line.substr(line.find(':') + 2);
  return "unknown";
}

std::string host_name() {
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 && name[0] ? name : "unknown";
}

unsigned host_threads() {
  static const unsigned threads = [] {
    // The CPUs this process may run on: a launcher (mpirun binds each rank
    // to its cores) or taskset may allow fewer than the machine has, and a
    // pool wider than that only makes its threads wait for each other.
    cpu_set_t allowed;
    const unsigned machine = std::max(1u, std::thread::hardware_concurrency());
    const unsigned all = sched_getaffinity(0, sizeof allowed, &allowed) == 0
                             ? std::max(1u, std::min(machine, unsigned(CPU_COUNT(&allowed))))
                             : machine;
    const char* text = std::getenv("GPUBENCH_HOST_THREADS");
    if (!text || !*text) return all;
    const std::optional<std::uint64_t> asked = whole_number(text);
    if (!asked || *asked < 1 || *asked > 4096)
      throw UsageError(fmt::format("GPUBENCH_HOST_THREADS={}: expected a whole number from 1 to 4096",
                                   quoted(nlohmann::json(text))));
    return unsigned(*asked);
  }();
  return threads;
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

// Takes indices until none is left; `count` and `job` were read under the
// lock. An exception (out of memory, say) ends the job: it is kept for the
// caller, and no further index starts.
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

void ThreadPool::work() {
  std::uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    // Jobs come back to back while a host step is timed: wait a little
    // awake before sleeping, so a sample does not time waking 15 threads.
    lock.unlock();
    // The spin ends at shutdown too: with many more threads than cores, the
    // yields of every spinning worker would otherwise hold up the exit.
    for (int spin = 0; spin < 20000 && generation_.load(std::memory_order_relaxed) == seen &&
                       !stop_.load(std::memory_order_relaxed);
         ++spin)
      std::this_thread::yield();
    lock.lock();
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    const auto* job = job_;
    const unsigned count = count_;
    ++busy_;
    lock.unlock();
    drain(job, count);
    const bool last = busy_.fetch_sub(1) == 1;
    lock.lock();  // the caller is either before its check or waiting: no wake is lost
    if (last) done_.notify_all();
  }
}

void ThreadPool::run(unsigned count, const std::function<void(unsigned)>& job) {
  std::lock_guard<std::mutex> turn(turn_);
  std::unique_lock<std::mutex> lock(m_);
  // A worker that woke late for the last job may still be taking (past the
  // end) indices of it: let it leave before the indices start again.
  done_.wait(lock, [&] { return busy_ == 0; });
  job_ = &job;
  count_ = count;
  next_ = 0;
  ++generation_;
  lock.unlock();
  wake_.notify_all();
  drain(&job, count);
  // The caller, too, waits for the last workers awake before it sleeps: a
  // timed sample then ends without a futex wake (measured on the H200 host:
  // reduce's cpu row at 2^28 from 2-4% noise to 1-2%).
  for (int spin = 0; spin < 20000 && busy_.load() != 0; ++spin) std::this_thread::yield();
  lock.lock();
  done_.wait(lock, [&] { return busy_ == 0; });
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

}  // namespace gpubench
