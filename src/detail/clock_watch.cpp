#include "src/detail/clock_watch.hpp"

#include <algorithm>

namespace gpubench {
namespace {

constexpr std::uint64_t kBelowThreshold = std::uint64_t(1) << 63;  // ours, beside NVML's bits

std::vector<std::string> names(std::uint64_t reasons) {
  std::vector<std::string> out = throttle_reason_names(reasons);
  if (reasons & kBelowThreshold) out.push_back("sm_clock_below_threshold");
  return out;
}

// The clock the threshold is a fraction of: the maximum SM clock, or the
// application clock where the GPU is set below it (clocks locked lower).
std::optional<double> reference_mhz(Telemetry& t) {
  const std::optional<double> max = t.max_sm_clock_mhz(), app = t.application_sm_clock_mhz();
  if (max && app && *app > 0) return std::min(*max, *app);
  return max;
}

// Whether the power limit in force is the board's rated one; unknown is not.
bool at_rated_power(Telemetry& t) {
  const std::optional<double> limit = t.power_limit_w(), rated = t.default_power_limit_w();
  return limit && rated && *limit >= *rated;
}

}  // namespace

ClockWatch::ClockWatch(Telemetry& telemetry, double threshold, bool discard, Clock clock)
    : telemetry_(telemetry),
      threshold_(threshold),
      discard_(discard),
      clock_(std::move(clock)),
      max_mhz_(reference_mhz(telemetry)),
      rated_power_(at_rated_power(telemetry)),
      last_poll_s_(clock_.now_s()) {}

std::size_t ClockWatch::after_sample(std::size_t taken, bool would_stop) {
  const double now = clock_.now_s();
  if (!would_stop && now - last_poll_s_ < kPollInterval) return 0;
  last_poll_s_ = now;
  const std::optional<double> mhz = telemetry_.sm_clock_mhz();
  const std::uint64_t reasons = telemetry_.clock_event_reasons().value_or(0);
  const bool idle = reasons & kReasonIdle;
  if (mhz) {
    ++polls_;
    sum_all_ += *mhz;
    if (!idle) ++busy_polls_, sum_busy_ += *mhz;
    min_mhz_ = std::min(min_mhz_.value_or(*mhz), *mhz);
  }
  const bool slow = mhz && max_mhz_ && !idle && *mhz < threshold_ * *max_mhz_;
  const bool capped = reasons & kReasonPowerCap;
  if (capped) ++power_capped_polls_;
  // The cap comes and goes as the draw swings about the limit, and the clock
  // trails it (a row may open on the clock its predecessor's draw left): at
  // the rated limit, a low clock in a row that meets the cap at any poll is
  // its draw. Whether it does is known only at the end, so such a clock is
  // judged then, and never retaken.
  const bool own_draw = slow && rated_power_;
  if (own_draw) low_at_rated_ = true;
  const std::uint64_t held =
      (reasons & kThrottleReasons) | (slow && !own_draw ? kBelowThreshold | (reasons & kReasonPowerCap) : 0);
  const std::size_t group = taken - group_start_;
  if (!held) {
    group_start_ = taken;
    return 0;
  }
  if (discard_ && retakes_ < kMaxRetakes) {
    ++retakes_;
    discarded_ += group;
    discarded_reasons_ |= held;
    clock_.sleep_s(kCooldown);
    last_poll_s_ = clock_.now_s();
    return group;
  }
  throttled_ = true;
  reasons_ |= held;
  group_start_ = taken;
  return 0;
}

// A low clock at the rated limit in a row that never met the cap.
bool ClockWatch::low_unexplained() const { return low_at_rated_ && power_capped_polls_ == 0; }

bool ClockWatch::throttled() const { return throttled_ || low_unexplained(); }

// Throttled for another reason too: the row is throttled, not power-limited.
bool ClockWatch::power_limited() const { return low_at_rated_ && power_capped_polls_ > 0 && !throttled_; }

std::optional<double> ClockWatch::mean_mhz() const {
  if (busy_polls_) return sum_busy_ / busy_polls_;
  if (polls_) return sum_all_ / polls_;
  return std::nullopt;
}

nlohmann::json ClockWatch::record() const {
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  return {{"sm_mhz_mean", opt(mean_mhz())},
          {"sm_mhz_min", opt(min_mhz_)},
          {"reference_sm_mhz", opt(max_mhz_)},
          {"polls", polls_},
          {"power_capped_polls", power_capped_polls_},
          {"power_limited", power_limited()},
          {"threshold", threshold_},
          {"throttled", throttled()},
          {"reasons", names(reasons_ | (low_unexplained() ? kBelowThreshold : 0))},
          {"discarded", discarded_},
          {"discarded_reasons", names(discarded_reasons_)}};
}

}  // namespace gpubench
