// The prefix-sum ladder as a pattern: inclusive or exclusive sums of n
// elements (kernels/scan/steps.def, host_scan.hpp).
#include <algorithm>

#include "kernels/scan/scan_step.hpp"
#include "src/core/checked_output.hpp"
#include "src/core/metrics.hpp"
#include "src/core/pattern.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/patterns/element_types.hpp"
#include "src/patterns/scan/steps.hpp"
#include "src/patterns/scan/host_scan.hpp"
#include "src/patterns/step_info.hpp"

namespace gpubench {
namespace scan {

#define GPUBENCH_STEP(name) const Step& step_##name();
#include "kernels/scan/steps.def"
#undef GPUBENCH_STEP

namespace {


const char* ladder_name(Ladder l) {
  switch (l) {
    case Ladder::course: return "course";
    case Ladder::single_pass: return "single-pass";
    case Ladder::baseline: break;
  }
  return "baseline";
}

class ScanFixture : public Fixture {
 public:
  explicit ScanFixture(const Point& p)
      : n_(p.at("n")), dtype_(dtype_named(p.at("dtype"))),
        kind_(p.at("kind") == "inclusive" ? Kind::inclusive : Kind::exclusive), seed_(p.at("seed")),
        bytes_(std::size_t(n_) * dtype_size(dtype_)) {}

  // Input and output on the host and, for device steps, on the device with
  // the largest step's scratch.
  Footprint footprint(const Env& env) const override {
    std::size_t scratch = 0;
    for (const std::size_t i : env.steps)
      if (ladder()[i].where == Where::device && env.device)  // device scratch only counts with a device
        scratch = std::max(scratch, ladder()[i].scratch_bytes(problem(nullptr, nullptr)));
    const double data = 2.0 * double(n_) * double(dtype_size(dtype_));  // in double: may be past 2^64
    return {data, env.device ? data + double(scratch) : 0.0};
  }

  void setup(const Env& env) override {
    input_.reset(new unsigned char[bytes_]);
    output_.reset(new unsigned char[bytes_]);
    fill_input(input_.get(), n_, dtype_, seed_);
    if (!env.device) return;
    din_ = DeviceBuffer(bytes_);
    dout_ = DeviceBuffer(bytes_);
    GPUBENCH_CUDA(cudaMemcpyAsync(din_.get(), input_.get(), bytes_, cudaMemcpyHostToDevice, env.stream));
    GPUBENCH_CUDA(cudaStreamSynchronize(env.stream));
  }

  StepRun step(std::size_t i, const Env& env) override {
    const Step& s = ladder()[i];
    const DeviceInfo* device = s.where == Where::device ? env.device : nullptr;
    StepRun r;
    r.library = "cub";
    const std::optional<Resources> res = step_resources(s.resources, device != nullptr, problem(nullptr, nullptr));
    r.metrics = [this, &s, device, res](double ms) {
      std::vector<Metric> m = bandwidth_metrics(2.0 * double(bytes_), ms, device);
      m.push_back({"adds_per_element", "adds/elem", "",
                   s.adds_per_element ? std::optional<double>(s.adds_per_element(n_)) : std::nullopt, 2});
      for (Metric& x : resource_metrics(res)) m.push_back(std::move(x));
      return m;
    };
    const CheckedOutput out{output_.get(), dout_.get(), bytes_, 0xff, [this] {  // poison: NaN / -1
                              const Verdict v = verify_scan(input_.get(), output_.get(), n_, dtype_, kind_);
                              return v.ok ? std::string() : v.detail;
                            }};
    if (s.where == Where::host) {
      run_on_host(r, out, [this, &s] { s.run(problem(input_.get(), output_.get()), Workspace{}); });
      return r;
    }
    const Problem p = problem(din_.get(), dout_.get());
    auto scratch = std::make_shared<DeviceBuffer>(s.scratch_bytes(p));
    run_on_device(r, out, env.stream, [&s, p, ws = Workspace{scratch->get(), env.stream}, scratch] { s.run(p, ws); });
    return r;
  }

 private:
  Problem problem(const void* in, void* out) const { return {in, out, n_, dtype_, kind_}; }

  std::int64_t n_;
  DType dtype_;
  Kind kind_;
  std::uint64_t seed_;
  std::size_t bytes_;
  std::unique_ptr<unsigned char[]> input_, output_;
  DeviceBuffer din_, dout_;
};

}  // namespace

const std::vector<Step>& ladder() {
  static const std::vector<Step> steps = {
#define GPUBENCH_STEP(name) step_##name(),
#include "kernels/scan/steps.def"
#undef GPUBENCH_STEP
  };
  return steps;
}

}  // namespace scan

const Pattern& scan_pattern() {
  static const Pattern p = [] {
    Pattern d;
    d.name = "scan";
    d.title = "prefix sum (inclusive or exclusive) of n elements";
    d.help = "Run the prefix-sum ladder (Kogge-Stone ... decoupled look-back, cub, cpu)";
    // Tiles are counted in unsigned grid dimensions and int tickets.
    Axis n = size_axis("n", "Elements to scan: 4194304, 4M, 2^22, a comma-separated list, or 2^16:2^30", "2^28",
                       std::int64_t(1) << 40);
    n.flags = "-n,--n";
    d.axes = {n, dtype_axis({DType::i32, DType::f32, DType::f64, DType::i64}),
              choice_axis("kind", "inclusive (out[i] includes in[i]) or exclusive", {"inclusive", "exclusive"})};
    d.ladders = {{"course", ""}, {"single-pass", ""}, {"baseline", ""}};
    for (const scan::Step& s : scan::ladder())
      d.steps.push_back(step_info(s, scan::ladder_name(s.ladder), s.where == scan::Where::host));
    d.primary = "gbps";
    d.fixture = [](const Point& pt) { return std::make_unique<scan::ScanFixture>(pt); };
    return d;
  }();
  return p;
}

}  // namespace gpubench
