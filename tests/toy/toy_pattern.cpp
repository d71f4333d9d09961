#include "tests/toy/toy_pattern.hpp"

#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "src/core/metrics.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench::toy {
namespace {

using Sum = std::int64_t (*)(const std::vector<std::int64_t>&);

std::int64_t loop(const std::vector<std::int64_t>& v) {
  std::int64_t s = 0;
  for (const std::int64_t x : v) s += x;
  return s;
}

std::int64_t unrolled(const std::vector<std::int64_t>& v) {
  std::int64_t a = 0, b = 0;
  std::size_t i = 0;
  for (; i + 1 < v.size(); i += 2) {
    a += v[i];
    b += v[i + 1];
  }
  return a + b + (i < v.size() ? v[i] : 0);
}

std::int64_t broken(const std::vector<std::int64_t>& v) { return std::accumulate(v.begin(), v.end() - 1, std::int64_t(0)); }

std::int64_t library(const std::vector<std::int64_t>& v) { return std::accumulate(v.begin(), v.end(), std::int64_t(0)); }

// stale: loop on its first run only, then it writes nothing; only the last run's check sees it.
const std::vector<Sum> kSums = {&loop, &unrolled, &broken, &loop, &library};
constexpr std::size_t kStale = 3, kLibrary = 4;

class ToyFixture : public Fixture {
 public:
  explicit ToyFixture(const Point& p)
      : n_(p.at("n")), scale_(p.at("scale")), seed_(p.at("seed")), mode_(p.at("mode")) {}

  // Stands for a host library missing on this machine: mode b has no `library`.
  std::string unavailable(std::size_t i, const DeviceInfo*) const override {
    return mode_ == "b" && i == kLibrary ? "not offered in mode b" : "";
  }

  Footprint footprint(const Env&) const override { return {8.0 * double(n_), 0.0}; }

  void setup(const Env&) override {
    if (mode_ == "d") throw library_error("toySetUp", "TOY_STATUS_ALLOC_FAILED");
    values_.resize(std::size_t(n_));
    for (std::int64_t i = 0; i < n_; ++i) values_[i] = std::int64_t((seed_ + std::uint64_t(i) * 7919) % 1000) * scale_;
    expected_ = library(values_);
  }

  StepRun step(std::size_t i, const Env&) override {
    // Stands for a library call that fails: mode c's `library` cannot start,
    // mode d's setup (above) cannot allocate.
    if (mode_ == "c" && i == kLibrary) throw library_error("toyCreate", "TOY_STATUS_NOT_INITIALIZED");
    StepRun r;
    r.prepare = [this] { got_ = -1; };
    r.body = [this, i, runs = 0]() mutable {
      if (i != kStale || runs++ == 0) got_ = kSums[i](values_);
    };
    r.check = [this] { return got_ == expected_ ? "" : fmt::format("got {}, expected {}", got_, expected_); };
    r.metrics = [this](double ms) {
      std::vector<Metric> m = bandwidth_metrics(8.0 * double(n_), ms, nullptr);
      m.push_back({"elements", "elems", "", double(n_), 0});
      return m;
    };
    r.library = "library";
    return r;
  }

 private:
  std::int64_t n_, scale_;
  std::uint64_t seed_;
  std::string mode_;
  std::vector<std::int64_t> values_;
  std::int64_t expected_ = 0, got_ = 0;
};

}  // namespace

const Pattern& toy_pattern() {
  static const Pattern p = [] {
    Pattern d;
    d.name = "toy";
    d.title = "a test-only host pattern";
    d.help = "Sum seeded integers on the host";
    d.axes = {size_axis("n", "Elements", "1000", 1 << 20), integer_axis("scale", "Factor of every value", "1", 1, 8),
              choice_axis("mode", "b: the library step is unavailable; c: its library call fails; d: setup fails",
                          {"a", "b", "c", "d"})};
    d.ladders = {{"basic", ""}, {"fast", "basic"}, {"baseline", ""}};
    d.steps = {{"loop", "basic", "one add per element", true},
               {"unrolled", "fast", "two accumulators", true},
               {"broken", "fast", "misses the last element", true},
               {"stale", "fast", "right once, then writes nothing", true},
               {"library", "baseline", "std::accumulate", true, {{"impl", "std"}}}};
    d.primary = "gbps";
    d.measure = {1, 3, 0.0, 1000, false};
    d.fixture = [](const Point& pt) { return std::make_unique<ToyFixture>(pt); };
    return d;
  }();
  return p;
}

}  // namespace gpubench::toy
