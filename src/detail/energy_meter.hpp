// Energy per run from the GPU's total-energy counter, which advances in
// steps (about every 100 ms on the H200). A window starts and ends at a
// step of the counter, found by reading it after every batch of runs, so
// the window holds whole updates: the only error of the windowing is the
// part of one batch at each end that ran before the counter stepped but
// was counted on the other side, at most 2 batches / window. The window
// is stretched until that is under kMaxUncertainty, or kMaxWindow long (the
// reading then says its larger uncertainty).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "src/detail/telemetry.hpp"

namespace gpubench {

struct EnergyReading {
  double joules = 0;         // per run
  double watts = 0;          // average over the window
  double window_s = 0;
  std::int64_t runs = 0;
  double uncertainty = 0;    // relative, of joules, from the windowing
};

class EnergyMeter {
 public:
  static constexpr double kMaxUncertainty = 0.05;
  static constexpr double kStepTimeout = 2;  // seconds without a counter step: the counter is not running
  static constexpr double kMaxWindow = 60;   // seconds

  explicit EnergyMeter(Telemetry& telemetry, Clock clock = steady_clock()) : telemetry_(telemetry), clock_(std::move(clock)) {}

  // Runs batch() (runs_per_batch runs, returning when they are done) back
  // to back for at least min_window_s between two counter steps; empty
  // when the counter cannot be read or does not advance.
  std::optional<EnergyReading> measure(const std::function<void()>& batch, std::int64_t runs_per_batch,
                                       double min_window_s);

  // The power with nothing to run, over at least `seconds`.
  std::optional<EnergyReading> idle(double seconds);

 private:
  Telemetry& telemetry_;
  Clock clock_;
};

}  // namespace gpubench
