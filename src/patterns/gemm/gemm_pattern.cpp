// The matrix-multiplication ladder as a pattern: C = A * B, row-major float
// (kernels/gemm/steps.def; gemm_inputs.hpp, gemm_check.hpp).
#include <algorithm>
#include <climits>

#include <fmt/format.h>

#include "kernels/gemm/gemm_step.hpp"
#include "src/core/checked_output.hpp"
#include "src/core/metrics.hpp"
#include "src/core/pattern.hpp"
#include "src/detail/cuda_check.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/patterns/gemm/gemm_check.hpp"
#include "src/patterns/gemm/gemm_inputs.hpp"
#include "src/patterns/gemm/tensor_peak.hpp"
#include "src/patterns/step_info.hpp"

namespace gpubench {
namespace gemm {

#define GPUBENCH_STEP(name) const Step& step_##name();
#include "kernels/gemm/steps.def"
#undef GPUBENCH_STEP

namespace {

const std::vector<Step>& ladder() {
  static const std::vector<Step> steps = {
#define GPUBENCH_STEP(name) step_##name(),
#include "kernels/gemm/steps.def"
#undef GPUBENCH_STEP
  };
  return steps;
}

const char* ladder_name(Ladder l) {
  switch (l) {
    case Ladder::cuda_core: return "cuda-core";
    case Ladder::tensor_core: return "tensor-core";
    case Ladder::baseline: break;
  }
  return "baseline";
}

std::string precision_name(Precision p) {
  switch (p) {
    case Precision::tf32: return "tf32";
    case Precision::bf16: return "bf16";
    case Precision::fp32: break;
  }
  return "fp32";
}

bool bf16(std::size_t step) { return ladder()[step].precision == Precision::bf16; }

// The most scratch any of `steps` asks for.
std::size_t scratch_bytes(const std::vector<std::size_t>& steps, int m, int n, int k) {
  std::size_t most = 0;
  for (const std::size_t i : steps)
    if (ladder()[i].scratch_bytes) most = std::max(most, ladder()[i].scratch_bytes(m, n, k));
  return most;
}

class GemmFixture : public Fixture {
 public:
  explicit GemmFixture(const Point& p) : m_(p.at("m")), n_(p.at("n")), k_(p.at("k")), seed_(p.at("seed")) {}

  std::string unavailable(std::size_t i, const DeviceInfo* d) const override {
    const Step& s = ladder()[i];
    if (s.unavailable && s.unavailable()) return s.unavailable();
    if (s.on_host || !d) return {};
    const int cc = d->cc_major * 10 + d->cc_minor;
    if (s.only_cc && s.only_cc != cc)
      return fmt::format("runs only on compute capability {}.{} GPUs; {} is {}.{}", s.only_cc / 10, s.only_cc % 10,
                         d->name, d->cc_major, d->cc_minor);
    return {};
  }

  // A, B and C, the steps' scratch, and for bf16 steps: their padded bf16 copies on the device,
  // and on the host the rounded inputs, their bf16 copies and a second
  // reference (and, for the cuBLAS reference, the rounded inputs on the device
  // for a while).
  Footprint footprint(const Env& env) const override {
    const double mk = double(m_) * k_, kn = double(k_) * n_, mn = double(m_) * n_;
    const bool any_bf16 = std::any_of(env.steps.begin(), env.steps.end(), bf16);
    Footprint f{4.0 * (mk + kn + 2 * mn), env.device ? 4.0 * (mk + kn + mn) + double(scratch_bytes(env.steps, m_, n_, k_)) : 0.0};
    if (any_bf16) {
      f.host_bytes += 6.0 * (mk + kn) + 4.0 * mn;
      f.device_bytes += 2.0 * (double(m_) * padded_bf16_ld(k_) + double(k_) * padded_bf16_ld(n_)) + 4.0 * (mk + kn);
    }
    return f;
  }

  void setup(const Env& env) override {
    a_ = random_matrix(m_, k_, seed_);
    b_ = random_matrix(k_, n_, seed_ + 1);
    if (env.device) {
      blas_ = std::make_unique<Blas>(env.stream);
      da_ = upload(a_.data(), a_.size() * 4, env.stream);
      db_ = upload(b_.data(), b_.size() * 4, env.stream);
      dc_ = DeviceBuffer(std::size_t(m_) * n_ * 4);
      if (const std::size_t bytes = scratch_bytes(env.steps, m_, n_, k_)) scratch_ = DeviceBuffer(bytes);
    }
    ref_ = reference_product(a_, b_, m_, n_, k_, blas_.get(), env.stream, da_.get(), db_.get(), c_device());
    if (!std::any_of(env.steps.begin(), env.steps.end(), bf16)) return;
    // bf16 steps multiply A and B rounded to bf16; their reference is the
    // exact product of the rounded values, so only accumulation error is left.
    const std::vector<float> ar = round_to_bf16(a_), br = round_to_bf16(b_);
    da16_ = upload(pack_bf16(ar, m_, k_, padded_bf16_ld(k_)).data(), std::size_t(m_) * padded_bf16_ld(k_) * 2, env.stream);
    db16_ = upload(pack_bf16(br, k_, n_, padded_bf16_ld(n_)).data(), std::size_t(k_) * padded_bf16_ld(n_) * 2, env.stream);
    ref_bf16_ = reference_product(ar, br, m_, n_, k_, blas_.get(), env.stream, nullptr, nullptr, c_device());
  }

  StepRun step(std::size_t i, const Env& env) override {
    const Step& s = ladder()[i];
    const std::size_t count = std::size_t(m_) * n_;
    const std::vector<float>& ref = s.precision == Precision::bf16 ? ref_bf16_ : ref_;
    StepRun r;
    r.library = s.precision == Precision::fp32 ? "cublas" : "cublas_" + precision_name(s.precision);
    const DeviceInfo* fp32_peak = s.precision == Precision::fp32 && !s.on_host ? env.device : nullptr;
    const std::optional<double> tensor_peak =
        env.device && !s.on_host ? tensor_peak_tflops(*env.device, s.precision) : std::nullopt;
    const std::optional<Resources> res = step_resources(s.resources, true);
    // What must move: A and B once, in the step's input precision, and C once in fp32.
    const double bytes = double(s.precision == Precision::bf16 ? 2 : 4) * (double(m_) * k_ + double(k_) * n_) +
                         4.0 * double(m_) * n_;
    r.metrics = [this, fp32_peak, tensor_peak, res, bytes](double ms) {
      const Metric t = tflops_metric(2.0 * double(m_) * n_ * k_, ms);
      std::vector<Metric> m{
          t, {"pct_of_fp32_peak", "% fp32", "%", fp32_peak ? percent_of(t.value, fp32_peak->fp32_peak_gflops / 1e3) : std::nullopt, 1},
          {"pct_of_tensor_peak", "% tc", "%", tensor_peak ? percent_of(t.value, *tensor_peak) : std::nullopt, 1},
          gbps_metric(bytes, ms)};
      for (Metric& r : resource_metrics(res)) m.push_back(std::move(r));
      return m;
    };
    c_host_.resize(count);
    const CheckedOutput out{c_host_.data(), dc_.get(), count * 4, 0xff, [this, &ref, &s] {  // poison: NaN
                              const Verdict v = check_product(c_host_, ref, s.precision, k_);
                              return v.ok ? std::string() : v.detail;
                            }};
    if (s.on_host) {
      run_on_host(r, out, [this, &s] { s.run({a_.data(), b_.data(), c_host_.data(), m_, n_, k_}, Workspace{}); });
      return r;
    }
    Problem p{static_cast<const float*>(da_.get()), static_cast<const float*>(db_.get()), c_device(), m_, n_, k_};
    p.a_bf16 = static_cast<const __nv_bfloat16*>(da16_.get());
    p.b_bf16 = static_cast<const __nv_bfloat16*>(db16_.get());
    p.lda_bf16 = padded_bf16_ld(k_);
    p.ldb_bf16 = padded_bf16_ld(n_);
    if (s.scratch_bytes && scratch_.get())  // Workspace::scratch: zero for each step, outside its timing
      GPUBENCH_CUDA(cudaMemsetAsync(scratch_.get(), 0, s.scratch_bytes(m_, n_, k_), env.stream));
    run_on_device(r, out, env.stream, [&s, p, ws = Workspace{env.stream, blas_->handle, scratch_.get()}] { s.run(p, ws); });
    return r;
  }

 private:
  static DeviceBuffer upload(const void* host, std::size_t bytes, cudaStream_t stream) {
    DeviceBuffer d(bytes);
    GPUBENCH_CUDA(cudaMemcpyAsync(d.get(), host, bytes, cudaMemcpyHostToDevice, stream));
    GPUBENCH_CUDA(cudaStreamSynchronize(stream));  // the host copy may go
    return d;
  }
  float* c_device() const { return static_cast<float*>(dc_.get()); }

  int m_, n_, k_;
  std::uint64_t seed_;
  std::vector<float> a_, b_, ref_, ref_bf16_, c_host_;
  std::unique_ptr<Blas> blas_;
  DeviceBuffer da_, db_, dc_, da16_, db16_, scratch_;
};

}  // namespace
}  // namespace gemm

const Pattern& gemm_pattern() {
  static const Pattern p = [] {
    Pattern d;
    d.name = "gemm";
    d.title = "C = A * B, row-major float matrices";
    d.help = "Run the matrix-multiplication ladder (naive ... tensor cores, cuBLAS)";
    // m and n set grid dimensions (at most 65535 blocks of 32 rows or columns
    // in the smallest tiling); k runs a loop counter in int.
    d.axes = {size_axis("m", "Rows of A and C", "4096", 65535LL * 32),
              size_axis("n", "Columns of B and C", "4096", 65535LL * 32),
              size_axis("k", "Columns of A, rows of B", "4096", INT_MAX - 256)};
    d.ladders = {{"cuda-core", ""}, {"tensor-core", "cuda-core"}, {"baseline", ""}};
    for (const gemm::Step& s : gemm::ladder())
      d.steps.push_back(step_info(s, gemm::ladder_name(s.ladder), s.on_host,
                                  {{"precision", gemm::precision_name(s.precision)}}));
    d.primary = "tflops";
    d.measure = {3, 10, 0.5, 100000, false};
    d.fixture = [](const Point& pt) { return std::make_unique<gemm::GemmFixture>(pt); };
    return d;
  }();
  return p;
}

}  // namespace gpubench
