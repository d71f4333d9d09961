// Telemetry from NVML through dlopen: no build dependency, and a binary that
// runs where the driver's library is missing (then: unavailable).
#include <dlfcn.h>

#include <chrono>
#include <thread>

#include "src/detail/telemetry.hpp"

namespace gpubench {
namespace {

// The few NVML types used here, as nvml.h declares them.
using Return = int;  // nvmlReturn_t: 0 is NVML_SUCCESS
using Device = struct nvmlDevice_st*;
constexpr unsigned kClockSm = 1, kClockMem = 2;  // nvmlClockType_t
constexpr unsigned kTemperatureGpu = 0;          // nvmlTemperatureSensors_t

class Nvml final : public Telemetry {
 public:
  explicit Nvml(void* lib) : lib_(lib) {}
  ~Nvml() override {
    if (shutdown_) shutdown_();
    dlclose(lib_);
  }

  // Loads the symbols and the device; the reason it cannot, or empty.
  std::string open(const std::string& bus_id) {
    auto* init = sym<Return (*)()>("nvmlInit_v2");
    auto* by_bus = sym<Return (*)(const char*, Device*)>("nvmlDeviceGetHandleByPciBusId_v2");
    clock_ = sym<Return (*)(Device, unsigned, unsigned*)>("nvmlDeviceGetClockInfo");
    max_clock_ = sym<Return (*)(Device, unsigned, unsigned*)>("nvmlDeviceGetMaxClockInfo");
    app_clock_ = sym<Return (*)(Device, unsigned, unsigned*)>("nvmlDeviceGetApplicationsClock");
    // The newer name first; older drivers export only ...ClocksThrottleReasons.
    reasons_ = sym<Return (*)(Device, unsigned long long*)>("nvmlDeviceGetCurrentClocksEventReasons");
    if (!reasons_) reasons_ = sym<Return (*)(Device, unsigned long long*)>("nvmlDeviceGetCurrentClocksThrottleReasons");
    energy_ = sym<Return (*)(Device, unsigned long long*)>("nvmlDeviceGetTotalEnergyConsumption");
    temperature_ = sym<Return (*)(Device, unsigned, unsigned*)>("nvmlDeviceGetTemperature");
    power_limit_ = sym<Return (*)(Device, unsigned*)>("nvmlDeviceGetEnforcedPowerLimit");
    default_power_limit_ = sym<Return (*)(Device, unsigned*)>("nvmlDeviceGetPowerManagementDefaultLimit");
    persistence_ = sym<Return (*)(Device, int*)>("nvmlDeviceGetPersistenceMode");
    ecc_ = sym<Return (*)(Device, int*, int*)>("nvmlDeviceGetEccMode");
    driver_ = sym<Return (*)(char*, unsigned)>("nvmlSystemGetDriverVersion");
    auto* shutdown = sym<Return (*)()>("nvmlShutdown");
    if (!init || !by_bus || !shutdown) return "libnvidia-ml.so.1 lacks nvmlInit_v2 or nvmlDeviceGetHandleByPciBusId_v2";
    if (init() != 0) return "nvmlInit failed";
    shutdown_ = shutdown;  // only an initialized NVML is shut down
    if (by_bus(bus_id.c_str(), &device_) != 0) return "NVML does not know the device at PCI " + bus_id;
    return "";
  }

  std::optional<double> sm_clock_mhz() override { return clock(clock_, kClockSm); }
  std::optional<double> max_sm_clock_mhz() override { return clock(max_clock_, kClockSm); }
  std::optional<double> application_sm_clock_mhz() override { return clock(app_clock_, kClockSm); }
  std::optional<std::uint64_t> clock_event_reasons() override { return counter(reasons_); }
  std::optional<std::uint64_t> energy_mj() override { return counter(energy_); }
  std::optional<double> temperature_c() override {
    unsigned t = 0;
    if (!temperature_ || temperature_(device_, kTemperatureGpu, &t) != 0) return std::nullopt;
    return t;
  }
  std::optional<double> power_limit_w() override { return watts(power_limit_); }
  std::optional<double> default_power_limit_w() override { return watts(default_power_limit_); }

  nlohmann::json state() override {
    nlohmann::json s = nlohmann::json::object();
    char version[96] = {};
    if (driver_ && driver_(version, sizeof version) == 0) s["driver_version"] = version;
    if (auto v = watts(power_limit_)) s["power_limit_w"] = *v;
    if (auto v = watts(default_power_limit_)) s["default_power_limit_w"] = *v;
    if (auto v = clock(max_clock_, kClockSm)) s["max_sm_clock_mhz"] = *v;
    if (auto v = clock(max_clock_, kClockMem)) s["max_memory_clock_mhz"] = *v;
    if (auto v = clock(app_clock_, kClockSm)) s["application_sm_clock_mhz"] = *v;
    if (auto v = clock(app_clock_, kClockMem)) s["application_memory_clock_mhz"] = *v;
    int mode = 0, pending = 0;
    if (persistence_ && persistence_(device_, &mode) == 0) s["persistence_mode"] = mode != 0;
    if (ecc_ && ecc_(device_, &mode, &pending) == 0) s["ecc"] = mode != 0;
    return s;
  }

 private:
  template <class F>
  F sym(const char* name) {
    return reinterpret_cast<F>(dlsym(lib_, name));
  }
  std::optional<double> clock(Return (*f)(Device, unsigned, unsigned*), unsigned type) {
    unsigned mhz = 0;
    if (!f || f(device_, type, &mhz) != 0) return std::nullopt;
    return mhz;
  }
  std::optional<double> watts(Return (*f)(Device, unsigned*)) {
    unsigned mw = 0;
    if (!f || f(device_, &mw) != 0) return std::nullopt;
    return mw / 1000.0;
  }
  std::optional<std::uint64_t> counter(Return (*f)(Device, unsigned long long*)) {
    unsigned long long v = 0;
    if (!f || f(device_, &v) != 0) return std::nullopt;
    return v;
  }

  void* lib_;
  Device device_ = nullptr;
  Return (*clock_)(Device, unsigned, unsigned*) = nullptr;
  Return (*max_clock_)(Device, unsigned, unsigned*) = nullptr;
  Return (*app_clock_)(Device, unsigned, unsigned*) = nullptr;
  Return (*reasons_)(Device, unsigned long long*) = nullptr;
  Return (*energy_)(Device, unsigned long long*) = nullptr;
  Return (*temperature_)(Device, unsigned, unsigned*) = nullptr;
  Return (*power_limit_)(Device, unsigned*) = nullptr;
  Return (*default_power_limit_)(Device, unsigned*) = nullptr;
  Return (*persistence_)(Device, int*) = nullptr;
  Return (*ecc_)(Device, int*, int*) = nullptr;
  Return (*driver_)(char*, unsigned) = nullptr;
  Return (*shutdown_)() = nullptr;
};

}  // namespace

std::vector<std::string> throttle_reason_names(std::uint64_t reasons) {
  static const std::pair<std::uint64_t, const char*> names[] = {
      {0x4, "sw_power_cap"}, {0x8, "hw_slowdown"}, {0x20, "sw_thermal"}, {0x40, "hw_thermal"}, {0x80, "hw_power_brake"}};
  std::vector<std::string> out;
  for (const auto& [bit, name] : names)
    if (reasons & bit) out.push_back(name);
  return out;
}

std::unique_ptr<Telemetry> open_nvml(const std::string& pci_bus_id, std::string& why) {
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    why = "libnvidia-ml.so.1 (the driver's NVML) not found";
    return nullptr;
  }
  auto nvml = std::make_unique<Nvml>(lib);
  why = nvml->open(pci_bus_id);
  if (!why.empty()) return nullptr;
  return nvml;
}

Clock steady_clock() {
  return {[] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); },
          [](double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }};
}

}  // namespace gpubench
