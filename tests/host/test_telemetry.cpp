// The throttle and energy logic on a planted GPU: a fake clock, clock-event
// reasons and an energy counter that steps every 100 ms, on fake time.
#include <catch2/catch.hpp>

#include <cmath>

#include "src/detail/clock_watch.hpp"
#include "src/detail/energy_meter.hpp"
#include "src/detail/measure.hpp"

using namespace gpubench;

namespace {

struct FakeGpu final : Telemetry {
  double now = 0;  // seconds
  std::function<double(double)> mhz = [](double) { return 1980.0; };
  std::function<std::uint64_t(double)> reasons = [](double) { return std::uint64_t(0); };
  double watts = 400, step_s = 0.1;
  bool counter_runs = true;

  std::optional<double> sm_clock_mhz() override { return mhz(now); }
  std::optional<double> max_sm_clock_mhz() override { return 1980.0; }
  std::optional<double> application_sm_clock_mhz() override { return app_mhz; }
  std::optional<double> app_mhz = 1980.0;
  std::optional<std::uint64_t> clock_event_reasons() override { return reasons(now); }
  // The energy at the last step of the counter, in mJ.
  std::optional<std::uint64_t> energy_mj() override {
    const double stepped = counter_runs ? std::floor(now / step_s) * step_s : 0;
    return std::uint64_t(std::llround(stepped * watts * 1000));
  }
  std::optional<double> temperature_c() override { return 40.0; }
  std::optional<double> power_limit_w() override { return limit_w; }
  std::optional<double> default_power_limit_w() override { return 700.0; }
  std::optional<double> limit_w = 700.0;
  nlohmann::json state() override { return nlohmann::json::object(); }

  Clock clock() {
    return {[this] { return now; }, [this](double s) { now += s; }};
  }
};

// Samples of 1 ms of fake time each, 40 at least, nothing else asked.
std::vector<double> sample_with(FakeGpu& gpu, SampleWatch& watch) {
  MeasureOptions m;
  m.warmup = 0;
  m.min_samples = 40;
  m.min_time_s = 0;
  return collect_samples(
      m, [&] { gpu.now += 0.001; return 1.0; }, nullptr, &watch);
}

}  // namespace

TEST_CASE("a steady clock: every sample kept, the mean clock recorded, nothing throttled") {
  FakeGpu gpu;
  ClockWatch watch(gpu, 0.9, true, gpu.clock());
  CHECK(sample_with(gpu, watch).size() == 40);
  CHECK_FALSE(watch.throttled());
  const nlohmann::json r = watch.record();
  CHECK(r.at("sm_mhz_mean") == 1980.0);
  CHECK(r.at("polls").get<int>() >= 4);  // every 10 ms of 40, and the last
  CHECK(r.at("discarded") == 0);
}

TEST_CASE("a planted hardware slowdown marks the row, or is dropped and retaken after a cool-down") {
  FakeGpu gpu;
  gpu.reasons = [](double t) { return t >= 0.015 && t < 0.03 ? std::uint64_t(0x8) : std::uint64_t(0); };
  SECTION("kept and marked") {
    ClockWatch watch(gpu, 0.9, false, gpu.clock());
    CHECK(sample_with(gpu, watch).size() == 40);
    CHECK(watch.throttled());
    CHECK(watch.record().at("reasons") == nlohmann::json{"hw_slowdown"});
  }
  SECTION("discarded") {
    ClockWatch watch(gpu, 0.9, true, gpu.clock());
    CHECK(sample_with(gpu, watch).size() == 40);
    CHECK_FALSE(watch.throttled());
    const nlohmann::json r = watch.record();
    CHECK(r.at("discarded").get<int>() >= 1);
    CHECK(r.at("discarded_reasons") == nlohmann::json{"hw_slowdown"});
    CHECK(gpu.now >= ClockWatch::kCooldown);
  }
}

TEST_CASE("the power cap is recorded, and a low clock under it is the step's own draw at the rated limit, suspect under a lowered one") {
  FakeGpu gpu;
  gpu.reasons = [](double) { return kReasonPowerCap; };
  SECTION("full clock") {
    ClockWatch watch(gpu, 0.9, false, gpu.clock());
    sample_with(gpu, watch);
    CHECK_FALSE(watch.throttled());
    CHECK_FALSE(watch.record().at("power_limited").get<bool>());
    CHECK(watch.record().at("power_capped_polls").get<int>() >= 4);
  }
  SECTION("held down at the rated limit") {
    gpu.mhz = [](double) { return 1700.0; };
    ClockWatch watch(gpu, 0.9, true, gpu.clock());
    sample_with(gpu, watch);
    CHECK_FALSE(watch.throttled());
    CHECK(watch.record().at("power_limited").get<bool>());
    CHECK(watch.record().at("discarded") == 0);
  }
  SECTION("the cap's bit coming and going while the clock stays low") {
    gpu.reasons = [](double t) { return std::int64_t(t * 1000) / 10 % 2 ? kReasonPowerCap : std::uint64_t(0); };
    gpu.mhz = [](double t) { return t < 0.005 ? 1980.0 : 1650.0; };
    ClockWatch watch(gpu, 0.9, false, gpu.clock());
    sample_with(gpu, watch);
    CHECK_FALSE(watch.throttled());
    CHECK(watch.record().at("power_limited").get<bool>());
  }
  SECTION("a row opening on a low clock, before the cap's bit is seen") {
    gpu.reasons = [](double t) { return t < 0.02 ? std::uint64_t(0) : kReasonPowerCap; };
    gpu.mhz = [](double) { return 1500.0; };
    ClockWatch watch(gpu, 0.9, true, gpu.clock());
    sample_with(gpu, watch);
    CHECK_FALSE(watch.throttled());
    CHECK(watch.power_limited());
    CHECK(watch.record().at("discarded") == 0);
  }
  SECTION("a low clock in a row that never meets the cap is suspect") {
    gpu.reasons = [](double) { return std::uint64_t(0); };
    gpu.mhz = [](double) { return 1650.0; };
    ClockWatch watch(gpu, 0.9, false, gpu.clock());
    sample_with(gpu, watch);
    CHECK(watch.throttled());
  }
  SECTION("a thermal slowdown as well: throttled, not power-limited") {
    gpu.reasons = [](double) { return kReasonPowerCap | 0x40; };  // hw_thermal
    gpu.mhz = [](double) { return 1600.0; };
    ClockWatch watch(gpu, 0.9, false, gpu.clock());
    sample_with(gpu, watch);
    CHECK(watch.throttled());
    CHECK_FALSE(watch.power_limited());
    CHECK_FALSE(watch.record().at("power_limited").get<bool>());
  }
  SECTION("held down under a lowered limit") {
    gpu.limit_w = 400.0;
    gpu.mhz = [](double) { return 1400.0; };
    ClockWatch watch(gpu, 0.9, false, gpu.clock());
    sample_with(gpu, watch);
    CHECK(watch.throttled());
    CHECK_FALSE(watch.record().at("power_limited").get<bool>());
    CHECK(watch.record().at("reasons") == nlohmann::json{"sw_power_cap", "sm_clock_below_threshold"});
  }
  SECTION("held down where the limits are unknown") {
    gpu.limit_w.reset();
    gpu.mhz = [](double) { return 1400.0; };
    ClockWatch watch(gpu, 0.9, false, gpu.clock());
    sample_with(gpu, watch);
    CHECK(watch.throttled());
  }
}

TEST_CASE("clocks locked below the maximum are judged against the application clock") {
  FakeGpu gpu;
  gpu.app_mhz = 1500.0;
  gpu.mhz = [](double) { return 1500.0; };
  ClockWatch watch(gpu, 0.9, false, gpu.clock());
  sample_with(gpu, watch);
  CHECK_FALSE(watch.throttled());
  CHECK(watch.record().at("reference_sm_mhz") == 1500.0);
}

TEST_CASE("a clock below the threshold is suspect unless the GPU was idle when polled") {
  FakeGpu gpu;
  gpu.mhz = [](double) { return 1500.0; };  // under 0.9 x 1980
  SECTION("busy") {
    ClockWatch watch(gpu, 0.9, false, gpu.clock());
    sample_with(gpu, watch);
    CHECK(watch.throttled());
    CHECK(watch.record().at("reasons") == nlohmann::json{"sm_clock_below_threshold"});
  }
  SECTION("idle") {
    gpu.reasons = [](double) { return kReasonIdle; };
    ClockWatch watch(gpu, 0.9, false, gpu.clock());
    sample_with(gpu, watch);
    CHECK_FALSE(watch.throttled());
  }
  SECTION("a lower threshold") {
    ClockWatch watch(gpu, 0.7, false, gpu.clock());
    sample_with(gpu, watch);
    CHECK_FALSE(watch.throttled());
  }
}

TEST_CASE("a throttle that does not end is retaken at most kMaxRetakes times, then marked") {
  FakeGpu gpu;
  gpu.reasons = [](double) { return std::uint64_t(0x40); };
  ClockWatch watch(gpu, 0.9, true, gpu.clock());
  CHECK(sample_with(gpu, watch).size() == 40);
  CHECK(watch.throttled());
  CHECK(watch.record().at("reasons") == nlohmann::json{"hw_thermal"});
  CHECK(gpu.now < ClockWatch::kMaxRetakes * ClockWatch::kCooldown + 1);
}

TEST_CASE("energy per run from a stepping counter, with the windowing's uncertainty") {
  FakeGpu gpu;
  gpu.now = 0.037;  // not at a step
  EnergyMeter meter(gpu, gpu.clock());
  // 10 runs of 0.2 ms each per batch: 0.08 J per run at 400 W.
  const auto r = meter.measure([&] { gpu.now += 0.002; }, 10, 2.0);
  REQUIRE(r);
  CHECK(r->window_s >= 2.0);
  CHECK(r->watts == Approx(400).epsilon(r->uncertainty));
  CHECK(r->joules == Approx(0.08).epsilon(r->uncertainty));
  CHECK(r->uncertainty == Approx(2 * 0.002 / r->window_s));
  CHECK(r->uncertainty < 0.05);
}

TEST_CASE("long runs stretch the window until the uncertainty is under 5%") {
  FakeGpu gpu;
  EnergyMeter meter(gpu, gpu.clock());
  const auto r = meter.measure([&] { gpu.now += 0.5; }, 1, 2.0);
  REQUIRE(r);
  CHECK(r->window_s >= 2 * 0.5 / EnergyMeter::kMaxUncertainty);
  CHECK(r->uncertainty <= EnergyMeter::kMaxUncertainty);
  CHECK(r->joules == Approx(200).epsilon(r->uncertainty));
}

TEST_CASE("a window is at most kMaxWindow long, and then says its larger uncertainty") {
  FakeGpu gpu;
  EnergyMeter meter(gpu, gpu.clock());
  const auto r = meter.measure([&] { gpu.now += 2.0; }, 1, 2.0);
  REQUIRE(r);
  CHECK(r->window_s >= EnergyMeter::kMaxWindow);
  CHECK(r->window_s < EnergyMeter::kMaxWindow + 2.5);
  CHECK(r->uncertainty > EnergyMeter::kMaxUncertainty);
}

TEST_CASE("idle power, and a counter that does not advance gives no reading") {
  FakeGpu gpu;
  gpu.watts = 75;
  EnergyMeter meter(gpu, gpu.clock());
  const auto idle = meter.idle(1.0);
  REQUIRE(idle);
  CHECK(idle->watts == Approx(75).epsilon(0.01));
  gpu.counter_runs = false;
  CHECK_FALSE(meter.measure([&] { gpu.now += 0.002; }, 1, 2.0));
}
