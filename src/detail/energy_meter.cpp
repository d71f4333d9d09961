#include "src/detail/energy_meter.hpp"

#include <algorithm>

namespace gpubench {

std::optional<EnergyReading> EnergyMeter::measure(const std::function<void()>& batch, std::int64_t runs_per_batch,
                                                  double min_window_s) {
  std::optional<std::uint64_t> last = telemetry_.energy_mj();
  if (!last) return std::nullopt;
  // Runs until the counter steps: the window opens busy, at a step, and the
  // batch it stepped in is the opening's error.
  double longest = 0;
  for (const double since = clock_.now_s();;) {
    const double b0 = clock_.now_s();
    batch();
    longest = clock_.now_s() - b0;
    const std::optional<std::uint64_t> e = telemetry_.energy_mj();
    if (!e || *e < *last) return std::nullopt;
    if (*e != *last) {
      last = e;
      break;
    }
    if (clock_.now_s() - since > kStepTimeout) return std::nullopt;
  }
  const std::uint64_t e0 = *last;
  const double t0 = clock_.now_s();
  std::int64_t runs = 0;
  double stepped_at = t0;
  for (;;) {
    const double b0 = clock_.now_s();
    batch();
    const double now = clock_.now_s();
    runs += runs_per_batch;
    longest = std::max(longest, now - b0);
    const std::optional<std::uint64_t> e = telemetry_.energy_mj();
    if (!e || *e < *last) return std::nullopt;  // unreadable, or reset (a driver reload)
    const bool stepped = *e != *last;
    last = e;
    if (stepped) stepped_at = now;
    else if (now - stepped_at > kStepTimeout) return std::nullopt;
    const double window = now - t0;
    const bool enough = window >= min_window_s && (2 * longest / window <= kMaxUncertainty || window >= kMaxWindow);
    if (stepped && enough) {
      EnergyReading r;
      r.window_s = window;
      r.runs = runs;
      r.joules = double(*e - e0) / 1000 / double(runs);
      r.watts = double(*e - e0) / 1000 / window;
      r.uncertainty = 2 * longest / window;
      return r;
    }
  }
}

std::optional<EnergyReading> EnergyMeter::idle(double seconds) {
  constexpr double kPoll = 0.001;
  // One wait without runs, polling: its length is the windowing error.
  return measure([&] { clock_.sleep_s(kPoll); }, 1, seconds);
}

}  // namespace gpubench
