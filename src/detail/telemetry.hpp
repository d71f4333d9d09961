// What the GPU says about itself while it is measured: its SM clock, why
// the clock is held down, its total-energy counter, and the state a reader
// needs to trust the numbers. The backend is NVML (libnvidia-ml.so.1, from
// the driver), loaded at run time; host tests plant a fake.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpubench {

// NVML's clock-event reasons (nvmlClocksEventReason*). Idle, application
// and display clock settings and sync boost are not throttling. The
// software power cap is where a busy H200 normally runs at full power: it
// is recorded, and with a clock below the threshold it makes a sample
// suspect only where the power limit was set below the GPU's rated
// (default) limit; slowdowns, thermal limits and the power brake always do.
inline constexpr std::uint64_t kReasonIdle = 0x1;
inline constexpr std::uint64_t kReasonPowerCap = 0x4;
inline constexpr std::uint64_t kThrottleReasons = 0x8 | 0x20 | 0x40 | 0x80;

// "sw_power_cap", "hw_slowdown", "sw_thermal", "hw_thermal", "hw_power_brake"
// for the bits set in `reasons`.
std::vector<std::string> throttle_reason_names(std::uint64_t reasons);

class Telemetry {
 public:
  virtual ~Telemetry() = default;
  virtual std::optional<double> sm_clock_mhz() = 0;  // now
  virtual std::optional<double> max_sm_clock_mhz() = 0;
  virtual std::optional<double> application_sm_clock_mhz() = 0;  // the clock the GPU is set to run at
  virtual std::optional<std::uint64_t> clock_event_reasons() = 0;  // now
  virtual std::optional<std::uint64_t> energy_mj() = 0;  // the total-energy counter, millijoules
  virtual std::optional<double> temperature_c() = 0;
  virtual std::optional<double> power_limit_w() = 0;          // enforced now
  virtual std::optional<double> default_power_limit_w() = 0;  // the board's rated limit
  // Driver version, power limit, maximum and application clocks,
  // persistence mode, ECC: what is known, by name.
  virtual nlohmann::json state() = 0;
};

// NVML's view of the CUDA device whose PCI bus id is `pci_bus_id`; null,
// with `why` set, where the library or the device in it cannot be had.
std::unique_ptr<Telemetry> open_nvml(const std::string& pci_bus_id, std::string& why);

// Wall time in seconds and a way to wait: the steady clock and a sleep, or
// a test's planted ones.
struct Clock {
  std::function<double()> now_s;
  std::function<void(double)> sleep_s;
};
Clock steady_clock();

}  // namespace gpubench
