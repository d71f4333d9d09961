// The histogram ladder as a pattern: n samples counted into even bins over
// the sample type's range (kernels/histogram/steps.def, host_histogram.hpp).
#include <algorithm>

#include <fmt/format.h>

#include "src/core/checked_output.hpp"
#include "src/core/metrics.hpp"
#include "src/core/pattern.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/patterns/histogram/host_histogram.hpp"
#include "src/patterns/histogram/steps.hpp"
#include "src/patterns/step_info.hpp"

namespace gpubench {
namespace histogram {

#define GPUBENCH_STEP(name) const Step& step_##name();
#include "kernels/histogram/steps.def"
#undef GPUBENCH_STEP

namespace {

class HistogramFixture : public Fixture {
 public:
  explicit HistogramFixture(const Point& p)
      : n_(p.at("n")), bins_(int(p.at("bins"))), type_(sample_named(p.at("sample"))),
        entropy_(entropy_named(p.at("entropy"))), seed_(p.at("seed")), bytes_(std::size_t(n_) * sample_size(type_)) {}

  std::string unavailable(std::size_t i, const DeviceInfo* d) const override {
    const Step& s = ladder()[i];
    if (s.where == Where::host) return {};
    if (s.uint8_only && type_ != Sample::u8) return "counts byte values: takes uint8 samples only";
    // Found by the GPU tests on the H200: CUB's uint16 counts were wrong at
    // 100003 and 2^20 bins (docs/ladders/histogram.md).
    if (s.run == step_cub().run && type_ == Sample::u16 && bins_ > 65536)  // ladder() holds copies of the steps
      return "not run with uint16 samples past 65536 bins: its counts differed from the exact bins there";
    if (!d) return {};
    const int most = s.max_bins(d->shared_per_block_bytes);
    if (most > 0 && bins_ > most)
      return fmt::format("handles at most {} bins in the {} KiB of shared memory a block may have on {}", most,
                         d->shared_per_block_bytes / 1024, d->name);
    return {};
  }

  // The samples and the reference's (and the cpu step's) per-thread
  // histograms on the host; the samples and the largest step's scratch on
  // the device.
  Footprint footprint(const Env& env) const override {
    std::size_t scratch = 0;
    for (const std::size_t i : env.steps)
      if (ladder()[i].where == Where::device && env.device)
        scratch = std::max(scratch, ladder()[i].scratch_bytes(problem(nullptr, nullptr)));
    const bool cpu = std::any_of(env.steps.begin(), env.steps.end(),
                                 [](std::size_t i) { return ladder()[i].where == Where::host; });
    const double samples = double(n_) * double(sample_size(type_));
    const double counts = 4.0 * bins_;
    return {samples + 2 * counts + host_histogram_bytes(bins_, cpu),
            env.device ? samples + counts + double(scratch) : 0.0};
  }

  void setup(const Env& env) override {
    samples_.reset(new unsigned char[bytes_]);
    fill_samples(samples_.get(), n_, type_, entropy_, seed_);
    want_ = reference_histogram(samples_.get(), n_, type_, bins_);
    hist_.assign(std::size_t(bins_), 0);
    if (!env.device) return;
    dsamples_ = DeviceBuffer(std::max<std::size_t>(bytes_, 1));
    dhist_ = DeviceBuffer(std::size_t(bins_) * 4);
    GPUBENCH_CUDA(cudaMemcpyAsync(dsamples_.get(), samples_.get(), bytes_, cudaMemcpyHostToDevice, env.stream));
    GPUBENCH_CUDA(cudaStreamSynchronize(env.stream));
  }

  StepRun step(std::size_t i, const Env& env) override {
    const Step& s = ladder()[i];
    const DeviceInfo* device = s.where == Where::device ? env.device : nullptr;
    StepRun r;
    r.library = "cub";
    const std::optional<Resources> res = step_resources(s.resources, device != nullptr, problem(nullptr, nullptr));
    r.metrics = [this, device, res](double ms) {
      std::vector<Metric> m{{"gsamples", "Gsamples/s", "Gsamples/s", double(n_) / (ms * 1e-3) / 1e9, 1}};
      for (Metric& b : bandwidth_metrics(double(bytes_), ms, device)) m.push_back(std::move(b));
      for (Metric& r : resource_metrics(res)) m.push_back(std::move(r));
      return m;
    };
    // Poison: every counter 0xdededede.
    const CheckedOutput out{hist_.data(), dhist_.get(), std::size_t(bins_) * 4, 0xde,
                            [this] { return verify_histogram(want_, hist_.data(), n_); }};
    if (s.where == Where::host) {
      run_on_host(r, out, [this, &s] { s.run(problem(samples_.get(), hist_.data()), Workspace{}); });
      return r;
    }
    const Problem p = problem(dsamples_.get(), static_cast<std::uint32_t*>(dhist_.get()));
    auto scratch = std::make_shared<DeviceBuffer>(s.scratch_bytes(p));
    run_on_device(r, out, env.stream, [&s, p, ws = Workspace{scratch->get(), env.stream}, scratch] { s.run(p, ws); });
    return r;
  }

 private:
  Problem problem(const void* samples, std::uint32_t* hist) const { return {samples, hist, n_, type_, bins_}; }

  std::int64_t n_;
  int bins_;
  Sample type_;
  Entropy entropy_;
  std::uint64_t seed_;
  std::size_t bytes_;
  std::unique_ptr<unsigned char[]> samples_;
  Reference want_;
  std::vector<std::uint32_t> hist_;
  DeviceBuffer dsamples_, dhist_;
};

}  // namespace

const std::vector<Step>& ladder() {
  static const std::vector<Step> steps = {
#define GPUBENCH_STEP(name) step_##name(),
#include "kernels/histogram/steps.def"
#undef GPUBENCH_STEP
  };
  return steps;
}

}  // namespace histogram

const Pattern& histogram_pattern() {
  static const Pattern p = [] {
    Pattern d;
    d.name = "histogram";
    d.title = "counts of n samples in even bins over the sample type's range";
    d.help =
        "Run the histogram ladder (global atomics ... per-lane counters, bins past shared memory, byte values, cub, cpu)";
    // The counters are 32-bit: every sample may fall in one bin.
    Axis n = size_axis("n", "Samples: 268435456, 256M, 2^28, a comma-separated list, or 2^16:2^30", "2^28",
                       (std::int64_t(1) << 32) - 1);
    n.flags = "-n,--n";
    d.axes = {n,
              integer_axis("bins", "Bins, even over the sample range: 256, or a list", "256", 1,
                           histogram::kMaxBins),
              choice_axis("sample", "Sample type; its range is [0, 2^8), [0, 2^16), [-2^31, 2^31) or [0, 1)",
                          histogram::sample_names()),
              choice_axis("entropy", "uniform (random bits), skewed (AND of 5 random words) or constant (one bin)",
                          histogram::entropy_names())};
    d.ladders = {{"course", ""}, {"modern", "course"}, {"baseline", ""}};
    for (const histogram::Step& s : histogram::ladder())
      d.steps.push_back(step_info(s, ladder_name(s.ladder), s.where == histogram::Where::host));
    d.primary = "gsamples";
    d.fixture = [](const Point& pt) { return std::make_unique<histogram::HistogramFixture>(pt); };
    return d;
  }();
  return p;
}

}  // namespace gpubench
