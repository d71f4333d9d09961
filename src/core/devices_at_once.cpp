#include "src/core/devices_at_once.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/detail/strings.hpp"

namespace gpubench {

namespace {

// The devices of `runs`, in the order they first appear.
std::vector<int> devices_of(const std::vector<RunRequest>& runs) {
  std::vector<int> devices;
  for (const RunRequest& r : runs)
    if (std::find(devices.begin(), devices.end(), r.device) == devices.end()) devices.push_back(r.device);
  return devices;
}

}  // namespace

void check_at_once(const std::vector<RunRequest>& runs) {
  const std::vector<int> devices = devices_of(runs);
  for (const RunRequest& r : runs)
    if (r.pattern->min_devices > 1 && devices.size() > 1)
      throw UsageError(fmt::format("--concurrent: {} runs span several GPUs, which other devices' runs would share; "
                                   "run them without --concurrent",
                                   r.pattern->name));
  // Each device's runs go one after another, so at most its largest is
  // held at a time; the devices' largest runs may all be held at once.
  double need = 0;
  for (const int d : devices) {
    double largest = 0;
    for (const RunRequest& r : runs)
      if (r.device == d) largest = std::max(largest, host_bytes_needed(r));
    need += largest;
  }
  if (need > host_memory_available())
    throw UsageError(fmt::format("--concurrent: the runs on {} devices need {} of host memory at once, {} may be "
                                 "used; run them one device after another (leave out --concurrent)",
                                 devices.size(), gib_text(need), gib_text(host_memory_available())));
}

std::vector<RunReport> run_devices_at_once(std::vector<RunRequest> runs, bool progress, std::ostream& err) {
  const std::vector<int> devices = devices_of(runs);
  for (RunRequest& r : runs) r.concurrent_devices = int(devices.size());
  std::vector<RunReport> reports(runs.size());
  std::vector<std::exception_ptr> errors(runs.size());
  std::vector<std::ostringstream> notes(devices.size());
  std::mutex log;
  std::size_t started = 0;
  std::atomic<bool> failed{false};
  const auto device_runs = [&](std::size_t t) {
    for (std::size_t i = 0; i < runs.size() && !failed; ++i) {
      if (runs[i].device != devices[t]) continue;
      if (progress) {
        std::lock_guard<std::mutex> lock(log);
        err << fmt::format("[{}/{}] {}\n", ++started, runs.size(), describe(runs[i])) << std::flush;
      }
      try {
        reports[i] = run(runs[i], notes[t]);
      } catch (...) {
        errors[i] = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> threads;
  const auto join_all = [&] {
    for (std::thread& th : threads) th.join();
  };
  try {
    for (std::size_t t = 0; t < devices.size(); ++t) threads.emplace_back(device_runs, t);
  } catch (...) {  // a thread could not start: the others end their runs first
    failed = true;
    join_all();
    throw;
  }
  join_all();
  for (const std::ostringstream& n : notes) err << n.str();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return reports;
}

}  // namespace gpubench
