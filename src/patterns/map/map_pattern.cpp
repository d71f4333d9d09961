// The map ladder as a pattern: element-wise operations on device-resident
// data (kernels/map/steps.def, host_map.hpp).
#include "src/core/checked_output.hpp"
#include "src/core/metrics.hpp"
#include "src/core/pattern.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/detail/errors.hpp"
#include "src/patterns/element_types.hpp"
#include "src/patterns/map/host_map.hpp"
#include "src/patterns/map/steps.hpp"
#include "src/patterns/step_info.hpp"
#include "src/patterns/within_tolerance.hpp"

namespace gpubench {
namespace map {

#define GPUBENCH_STEP(name) const Step& step_##name();
#include "kernels/map/steps.def"
#undef GPUBENCH_STEP

namespace {

const std::vector<std::string> kOps = {"vecadd", "saxpy", "grayscale"};

Op op_named(const std::string& name) { return name == "saxpy" ? Op::saxpy : name == "grayscale" ? Op::grayscale : Op::vecadd; }

class MapFixture : public Fixture {
 public:
  explicit MapFixture(const Point& p)
      : n_(p.at("n")), op_(op_named(p.at("op"))), dtype_(dtype_named(p.at("dtype"))), seed_(p.at("seed")) {
    if (op_ == Op::grayscale && dtype_ != DType::f32)
      throw UsageError("map grayscale: its pixels are bytes (uchar3 in, uchar out), so --dtype does not apply: "
                       "leave it at float32");
    in_bytes_ = op_ == Op::grayscale ? 3 * std::size_t(n_) : std::size_t(n_) * dtype_size(dtype_);
    out_bytes_ = op_ == Op::grayscale ? std::size_t(n_) : in_bytes_;
  }

  std::string unavailable(std::size_t i, const DeviceInfo* d) const override {
    const Step& s = ladder()[i];
    if (s.grayscale_only && op_ != Op::grayscale) return "the 2D grid is the grayscale image's kernel";
    return s.unavailable && d ? s.unavailable(problem(nullptr, nullptr, nullptr)) : std::string();
  }

  // The inputs, the reference and the output on the host; the inputs and
  // the output on the device.
  Footprint footprint(const Env& env) const override {
    const double inputs = double(in_bytes_) * (op_ == Op::grayscale ? 1 : 2), out = double(out_bytes_);
    return {inputs + 2 * out, env.device ? inputs + out : 0.0};
  }

  void setup(const Env& env) override {
    a_.reset(new unsigned char[in_bytes_]);
    if (op_ != Op::grayscale) b_.reset(new unsigned char[in_bytes_]);
    want_.reset(new unsigned char[out_bytes_]);
    out_.reset(new unsigned char[out_bytes_]);
    fill_inputs(problem(nullptr, nullptr, nullptr), a_.get(), b_.get(), seed_);
    reference_map(problem(a_.get(), b_.get(), want_.get()));
    if (!env.device) return;
    da_ = upload(a_.get(), env.stream);
    if (b_) db_ = upload(b_.get(), env.stream);
    dout_ = DeviceBuffer(out_bytes_);
  }

  StepRun step(std::size_t i, const Env& env) override {
    const Step& s = ladder()[i];
    const DeviceInfo* device = s.where == Where::device ? env.device : nullptr;
    const Problem sized = problem(nullptr, nullptr, nullptr);
    // The copy moves its own bytes: n elements (grayscale: n bytes) read and written.
    const double bytes = s.copies ? 2.0 * double(out_bytes_) : bytes_moved(sized);
    StepRun r;
    r.library = "thrust";
    const std::optional<Resources> res = step_resources(s.resources, device != nullptr, sized);
    r.metrics = [bytes, device, res](double ms) {
      std::vector<Metric> m = bandwidth_metrics(bytes, ms, device);
      for (Metric& x : resource_metrics(res)) m.push_back(std::move(x));
      return m;
    };
    const CheckedOutput out{out_.get(), dout_.get(), out_bytes_, 0xff, [this, copies = s.copies] {
                              const Verdict v =
                                  copies ? verify_within(out_.get(), a_.get(), std::int64_t(out_bytes_), 0.0, "bytes")
                                         : verify_map(problem(nullptr, nullptr, nullptr), out_.get(), want_.get());
                              return v.ok ? std::string() : v.detail;
                            }};
    if (s.where == Where::host) {
      run_on_host(r, out, [this, &s] { s.run(problem(a_.get(), b_.get(), out_.get()), Workspace{}); });
      return r;
    }
    const Problem p = problem(da_.get(), db_.get(), dout_.get());
    run_on_device(r, out, env.stream, [&s, p, ws = Workspace{env.stream}] { s.run(p, ws); });
    return r;
  }

 private:
  Problem problem(const void* a, const void* b, void* out) const {
    return {a, b, out, n_, op_, dtype_, alpha_for(dtype_, seed_)};
  }
  DeviceBuffer upload(const void* host, cudaStream_t stream) const {
    DeviceBuffer d(in_bytes_);
    GPUBENCH_CUDA(cudaMemcpyAsync(d.get(), host, in_bytes_, cudaMemcpyHostToDevice, stream));
    GPUBENCH_CUDA(cudaStreamSynchronize(stream));
    return d;
  }

  std::int64_t n_;
  Op op_;
  DType dtype_;
  std::uint64_t seed_;
  std::size_t in_bytes_ = 0, out_bytes_ = 0;
  std::unique_ptr<unsigned char[]> a_, b_, want_, out_;
  DeviceBuffer da_, db_, dout_;
};

}  // namespace

const std::vector<Step>& ladder() {
  static const std::vector<Step> steps = {
#define GPUBENCH_STEP(name) step_##name(),
#include "kernels/map/steps.def"
#undef GPUBENCH_STEP
  };
  return steps;
}

}  // namespace map

const Pattern& map_pattern() {
  static const Pattern p = [] {
    Pattern d;
    d.name = "map";
    d.title = "element-wise vecadd, saxpy or RGB-to-grayscale on device-resident data";
    d.help = "Run the map ladder (one thread per element ... 128-bit vectors, TMA bulk copies, thrust, memcpy, cpu)";
    Axis n = size_axis("n", "Elements (grayscale: pixels): 268435456, 256M, 2^28, a list, or 2^16:2^30", "2^28",
                       std::int64_t(1) << 38);  // one_per_element's blocks of 256 in an unsigned grid
    n.flags = "-n,--n";
    d.axes = {choice_axis("op", "vecadd (a + b), saxpy (alpha a + b) or grayscale (uchar3 in, uchar out)", map::kOps),
              n, dtype_axis({DType::f32, DType::f64})};
    d.ladders = {{"course", ""}, {"modern", "course"}, {"baseline", ""}};
    for (const map::Step& s : map::ladder())
      d.steps.push_back(step_info(s, ladder_name(s.ladder), s.where == map::Where::host));
    d.primary = "gbps";
    d.fixture = [](const Point& pt) { return std::make_unique<map::MapFixture>(pt); };
    return d;
  }();
  return p;
}

}  // namespace gpubench
