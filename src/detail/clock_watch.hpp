// The SM clock while a step is sampled, and whether it was held down. A
// poll (clock and clock-event reasons) follows a sample when kPollInterval
// has passed since the last one, and always the sample that ends sampling;
// it judges the samples since the previous poll. They are suspect when the
// clock was below threshold x the maximum SM clock (or the application
// clock, where it is lower; polls that find the GPU idle do not count for
// this) or a throttle reason other than the power cap was set. A low clock
// at the GPU's rated power limit is judged when sampling ends: in a row
// that met the power cap at some poll it is the step's own draw (dense
// tensor-core work holds an H200 at 700 W), recorded as power-limited and
// not suspect; in a row that never did, the row is throttled (those samples
// are not retaken). Under a limit set below the rated one it is suspect at
// once, like any other low clock. Suspect samples are kept and the row
// marked throttled, or, with discard, dropped and
// retaken after a cool-down, at most kMaxRetakes times per row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "src/detail/measure.hpp"
#include "src/detail/telemetry.hpp"

namespace gpubench {

class ClockWatch final : public SampleWatch {
 public:
  static constexpr double kPollInterval = 0.01, kCooldown = 0.5;  // seconds
  static constexpr int kMaxRetakes = 3;

  ClockWatch(Telemetry& telemetry, double threshold, bool discard, Clock clock = steady_clock());

  std::size_t after_sample(std::size_t taken, bool would_stop) override;

  bool throttled() const;
  bool power_limited() const;  // never also throttled()
  // {"sm_mhz_mean", "sm_mhz_min", "reference_sm_mhz", "polls",
  //  "power_capped_polls", "power_limited", "threshold", "throttled",
  //  "reasons", "discarded", "discarded_reasons"}
  nlohmann::json record() const;
  // The mean SM clock over the polls that found the GPU busy (all polls if none did).
  std::optional<double> mean_mhz() const;

 private:
  Telemetry& telemetry_;
  double threshold_;
  bool discard_;
  Clock clock_;
  std::optional<double> max_mhz_;  // the reference: the maximum or a lower application clock
  bool rated_power_;               // the enforced power limit is the board's default
  double last_poll_s_;
  std::size_t group_start_ = 0;  // samples before it were judged by earlier polls
  int polls_ = 0, busy_polls_ = 0, retakes_ = 0, power_capped_polls_ = 0;
  double sum_all_ = 0, sum_busy_ = 0;
  std::optional<double> min_mhz_;
  bool throttled_ = false;
  bool low_at_rated_ = false;  // a poll found a low clock at the rated power limit
  bool low_unexplained() const;
  std::uint64_t reasons_ = 0, discarded_reasons_ = 0;
  std::size_t discarded_ = 0;
};

}  // namespace gpubench
