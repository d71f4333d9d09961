#include "src/core/devices_at_once.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

namespace gpubench {

std::vector<RunReport> run_devices_at_once(std::vector<RunRequest> runs, bool progress, std::ostream& err) {
  std::vector<int> devices;  // in the order they first appear
  for (const RunRequest& r : runs)
    if (std::find(devices.begin(), devices.end(), r.device) == devices.end()) devices.push_back(r.device);
  for (RunRequest& r : runs) r.concurrent_devices = int(devices.size());
  std::vector<RunReport> reports(runs.size());
  std::vector<std::exception_ptr> errors(runs.size());
  std::vector<std::ostringstream> notes(devices.size());
  std::mutex log;
  std::size_t started = 0;
  std::atomic<bool> failed{false};
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < devices.size(); ++t)
    threads.emplace_back([&, t] {
      for (std::size_t i = 0; i < runs.size() && !failed; ++i) {
        if (runs[i].device != devices[t]) continue;
        if (progress) {
          std::lock_guard<std::mutex> lock(log);
          err << fmt::format("[{}/{}] {} device={}\n", ++started, runs.size(), describe(runs[i]), devices[t]) << std::flush;
        }
        try {
          reports[i] = run(runs[i], notes[t]);
        } catch (...) {
          errors[i] = std::current_exception();
          failed = true;
        }
      }
    });
  for (std::thread& th : threads) th.join();
  for (const std::ostringstream& n : notes) err << n.str();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return reports;
}

}  // namespace gpubench
