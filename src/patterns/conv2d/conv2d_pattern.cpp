// The 2D-convolution ladder as a pattern: a width x height image
// cross-correlated with a side x side mask, zero outside the image
// (kernels/conv2d/steps.def, host_conv2d.hpp).
#include <climits>
#include <iterator>

#include "src/core/checked_output.hpp"
#include "src/core/metrics.hpp"
#include "src/core/pattern.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/patterns/conv2d/host_conv2d.hpp"
#include "src/patterns/conv2d/steps.hpp"
#include "src/patterns/element_types.hpp"
#include "src/patterns/step_info.hpp"

namespace gpubench {
namespace conv2d {

#define GPUBENCH_STEP(name) const Step& step_##name();
#include "kernels/conv2d/steps.def"
#undef GPUBENCH_STEP

namespace {

class Conv2dFixture : public Fixture {
 public:
  explicit Conv2dFixture(const Point& p)
      : w_(p.at("width")), h_(p.at("height")), side_(p.at("mask")), dtype_(dtype_named(p.at("dtype"))),
        seed_(p.at("seed")), bytes_(std::size_t(w_) * std::size_t(h_) * dtype_size(dtype_)) {}

  // A device step's own check asks the current GPU (whether this build has a
  // TMA kernel's sm_90 code): it waits for the device.
  std::string unavailable(std::size_t i, const DeviceInfo* d) const override {
    const Step& s = ladder()[i];
    const bool ask = s.unavailable && (d || s.where == Where::host);
    return ask ? s.unavailable(problem(nullptr, nullptr, nullptr)) : std::string();
  }

  // The image, the reference and the output read back on the host; the
  // image and the output on the device. Not counted: what cuDNN's algorithm
  // search allocates for its trials, and the workspace it picks.
  Footprint footprint(const Env& env) const override {
    const double image = double(w_) * double(h_) * double(dtype_size(dtype_));
    return {3 * image, env.device ? 2 * image : 0.0};
  }

  void setup(const Env& env) override {
    const std::size_t mask_bytes = std::size_t(side_) * side_ * dtype_size(dtype_);
    in_.reset(new unsigned char[bytes_]);
    want_.reset(new unsigned char[bytes_]);
    out_.reset(new unsigned char[bytes_]);
    mask_.resize(mask_bytes);
    fill_image(in_.get(), pixels(), dtype_, seed_);
    fill_mask(mask_.data(), side_, dtype_, seed_);
    reference_conv2d(in_.get(), want_.get(), mask_.data(), w_, h_, side_, dtype_);
    tolerance_ = tolerance(mask_.data(), side_, dtype_);
    if (!env.device) return;
    din_ = DeviceBuffer(bytes_);
    dout_ = DeviceBuffer(bytes_);
    dmask_ = DeviceBuffer(mask_bytes);
    GPUBENCH_CUDA(cudaMemcpyAsync(din_.get(), in_.get(), bytes_, cudaMemcpyHostToDevice, env.stream));
    GPUBENCH_CUDA(cudaMemcpyAsync(dmask_.get(), mask_.data(), mask_bytes, cudaMemcpyHostToDevice, env.stream));
    GPUBENCH_CUDA(cudaStreamSynchronize(env.stream));
  }

  StepRun step(std::size_t i, const Env& env) override {
    const Step& s = ladder()[i];
    const DeviceInfo* device = s.where == Where::device ? env.device : nullptr;
    StepRun r;
    r.library = "cudnn";
    const std::optional<Resources> res =
        step_resources(s.resources, device != nullptr, problem(nullptr, nullptr, nullptr));
    const DeviceInfo* fp32_peak = dtype_ == DType::f32 ? device : nullptr;
    r.metrics = [this, device, fp32_peak, res](double ms) {
      const double px = double(pixels()), gflops = 2.0 * side_ * side_ * px / (ms * 1e-3) / 1e9;
      std::vector<Metric> m{{"gpixels", "Gpixels/s", "Gpixels/s", px / (ms * 1e-3) / 1e9, 1}};
      for (Metric& b : bandwidth_metrics(2.0 * double(bytes_), ms, device)) m.push_back(std::move(b));
      m.push_back({"gflops", "GFLOP/s", "GFLOP/s", gflops, 0});
      m.push_back({"pct_of_fp32_peak", "% fp32", "%",
                   fp32_peak ? percent_of(gflops, fp32_peak->fp32_peak_gflops) : std::nullopt, 1});
      for (Metric& x : resource_metrics(res)) m.push_back(std::move(x));
      return m;
    };
    const CheckedOutput out{out_.get(), dout_.get(), bytes_, 0xff, [this] {
                              const Verdict v = verify_conv2d(out_.get(), want_.get(), pixels(), dtype_, tolerance_);
                              return v.ok ? std::string() : v.detail;
                            }};
    if (s.where == Where::host) {
      run_on_host(r, out, [this, &s] { s.run(problem(in_.get(), out_.get(), mask_.data()), Workspace{}); });
      return r;
    }
    const Problem p = problem(din_.get(), dout_.get(), dmask_.get());
    const std::shared_ptr<void> plan = s.make_plan ? s.make_plan(p, env.stream) : nullptr;
    if (s.describe_plan) r.details["plan"] = s.describe_plan(plan.get());
    run_on_device(r, out, env.stream, [&s, p, ws = Workspace{env.stream, plan.get()}, plan] { s.run(p, ws); });
    return r;
  }

 private:
  std::int64_t pixels() const { return w_ * h_; }
  Problem problem(const void* in, void* out, const void* mask) const { return {in, out, mask, w_, h_, side_, dtype_}; }

  std::int64_t w_, h_;
  int side_;
  DType dtype_;
  std::uint64_t seed_;
  std::size_t bytes_;
  double tolerance_ = 0;
  std::unique_ptr<unsigned char[]> in_, want_, out_;
  std::vector<unsigned char> mask_;
  DeviceBuffer din_, dout_, dmask_;
};

}  // namespace

const std::vector<Step>& ladder() {
  static const std::vector<Step> steps = {
#define GPUBENCH_STEP(name) step_##name(),
#include "kernels/conv2d/steps.def"
#undef GPUBENCH_STEP
  };
  return steps;
}

}  // namespace conv2d

const Pattern& conv2d_pattern() {
  static const Pattern p = [] {
    Pattern d;
    d.name = "conv2d";
    d.title = "2D convolution (cross-correlation) of an image with a square mask, zero outside the image";
    d.help = "Run the 2D-convolution ladder (basic ... register tiling, TMA ring, rows read once, cudnn, cpu)";
    // Rows and columns are counted in 64-bit; cuDNN alone stops at 2^31 - 1 pixels.
    d.axes = {size_axis("width", "Image width in pixels: 8192, 8K, 2^13, a list, or 2^10:2^14", "8192", INT_MAX),
              size_axis("height", "Image height in pixels", "8192", INT_MAX),
              listed_axis("mask", "Mask side: 3, 5, 7, 9 or 15, or a list", "5",
                          {std::begin(conv2d::kMaskSides), std::end(conv2d::kMaskSides)}),
              dtype_axis({DType::f32, DType::f64}),
              choice_axis("boundary", "Pixels outside the image: zero (ghost cells, as in the course)", {"zero"})};
    d.ladders = {{"course", ""}, {"modern", "course"}, {"baseline", ""}};
    for (const conv2d::Step& s : conv2d::ladder())
      d.steps.push_back(step_info(s, ladder_name(s.ladder), s.where == conv2d::Where::host));
    d.primary = "gpixels";
    d.fixture = [](const Point& pt) { return std::make_unique<conv2d::Conv2dFixture>(pt); };
    return d;
  }();
  return p;
}

}  // namespace gpubench
