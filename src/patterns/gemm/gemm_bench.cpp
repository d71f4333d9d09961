#include "src/patterns/gemm/gemm_bench.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <climits>
#include <tuple>
#include <memory>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <fmt/format.h>
#include <unistd.h>

#include "src/detail/cuda_check.hpp"
#include "src/detail/device.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/detail/errors.hpp"
#include "src/detail/gpu_timer.hpp"
#include "src/detail/parallel.hpp"
#include "src/detail/random.hpp"
#include "src/detail/stats.hpp"
#include "src/patterns/gemm/gemm_check.hpp"
#include "src/patterns/gemm/ladder.hpp"

namespace gpubench::gemm {
namespace {

constexpr std::int64_t kMaxRowsOrCols = 65535LL * 32, kMaxDepth = INT_MAX - 256;

std::string gib(double bytes) { return fmt::format("{:.2f} GiB", bytes / double(1ull << 30)); }

// Below this many multiply-adds the reference is computed on the host in
// double; above, by cuBLAS in pedantic FP32 (no TF32, no reordering tricks).
constexpr double kHostReferenceLimit = double(1ull << 31);

void cublas_check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw CudaError(cudaErrorUnknown, fmt::format("{}: {}", what, cublasGetStatusString(s)));
}

struct Blas {
  cublasHandle_t handle = nullptr;
  explicit Blas(cudaStream_t stream) {
    cublas_check(cublasCreate(&handle), "cublasCreate");
    cublas_check(cublasSetStream(handle, stream), "cublasSetStream");
  }
  ~Blas() { cublasDestroy(handle); }
};

double matrix_bytes(const Options& o) {
  return 4.0 * (double(o.m) * double(o.k) + double(o.k) * double(o.n) + double(o.m) * double(o.n));
}

bool any_bf16(const std::vector<Step>& steps) {
  return std::any_of(steps.begin(), steps.end(), [](const Step& s) { return s.precision == Precision::bf16; });
}

// What bf16 steps add: the padded bf16 copies of A and B on the device, and
// (for the cuBLAS reference) the rounded inputs in fp32 for a while.
double bf16_device_bytes(const Options& o) {
  return 2.0 * (double(o.m) * padded_bf16_ld(int(o.k)) + double(o.k) * padded_bf16_ld(int(o.n))) +
         4.0 * (double(o.m) * double(o.k) + double(o.k) * double(o.n));
}

// ... and on the host: the rounded inputs, their bf16 copies, a second reference.
double bf16_host_bytes(const Options& o) {
  return 6.0 * (double(o.m) * double(o.k) + double(o.k) * double(o.n)) + 4.0 * double(o.m) * double(o.n);
}

std::vector<float> round_to_bf16(const std::vector<float>& v) {
  std::vector<float> r(v.size());
  parallel_chunks(std::int64_t(v.size()), [&](unsigned, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) r[i] = __bfloat162float(__float2bfloat16(v[i]));
  });
  return r;
}

// rows x cols values as bf16 rows of `ld` elements, the padding zero.
std::vector<__nv_bfloat16> pack_bf16(const std::vector<float>& v, std::int64_t rows, int cols, int ld) {
  std::vector<__nv_bfloat16> out(std::size_t(rows) * ld, __float2bfloat16(0.0f));
  parallel_chunks(rows, [&](unsigned, std::int64_t b, std::int64_t e) {
    for (std::int64_t r = b; r < e; ++r)
      for (int c = 0; c < cols; ++c) out[std::size_t(r) * ld + c] = __float2bfloat16(v[std::size_t(r) * cols + c]);
  });
  return out;
}

// Why step s cannot run here, or an empty string.
std::string why_not(const Step& s, const DeviceInfo& info) {
  const int cc = info.cc_major * 10 + info.cc_minor;
  if (s.only_cc && s.only_cc != cc)
    return fmt::format("gemm variant {} runs only on compute capability {}.{} GPUs; {} is {}.{}", s.name,
                       s.only_cc / 10, s.only_cc % 10, info.name, info.cc_major, info.cc_minor);
  if (cc < s.min_cc)
    return fmt::format("gemm variant {} needs compute capability {}.{} or later; {} is {}.{}", s.name,
                       s.min_cc / 10, s.min_cc % 10, info.name, info.cc_major, info.cc_minor);
  if (s.unavailable && s.unavailable()) return fmt::format("gemm variant {}: {}", s.name, s.unavailable());
  return "";
}

// The steps of `variants` that can run here. One that cannot is an error
// when named and left out of "all"; `skipped` gets why.
std::vector<Step> runnable_steps(const std::string& variants, const DeviceInfo& info,
                                 std::vector<std::string>* skipped = nullptr) {
  std::vector<Step> steps;
  for (const Step& s : select_steps(variants)) {
    const std::string why = why_not(s, info);
    if (why.empty()) {
      steps.push_back(s);
    } else {
      if (variants != "all") throw UsageError(why);
      if (skipped) skipped->push_back(why);
    }
  }
  return steps;
}

std::vector<float> random_matrix(std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  std::vector<float> v(std::size_t(rows * cols));
  const std::uint64_t base = mix(seed);
  parallel_chunks(std::int64_t(v.size()), [&](unsigned, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) v[i] = float(uniform_pm1(base, i));
  });
  return v;
}

std::vector<float> download(const DeviceBuffer& d, std::size_t count, cudaStream_t stream) {
  std::vector<float> h(count);
  GPUBENCH_CUDA(cudaMemcpyAsync(h.data(), d.get(), count * 4, cudaMemcpyDeviceToHost, stream));
  GPUBENCH_CUDA(cudaStreamSynchronize(stream));
  return h;
}

// Library baseline each precision is measured against.
std::string library_for(const std::string& precision) {
  return precision == "fp32" ? "cublas" : "cublas_" + precision;
}

}  // namespace

std::string describe(const Options& o) {
  return fmt::format("gemm m={} n={} k={} variants={}", o.m, o.n, o.k, o.variants);
}

void check(const Options& o) {
  select_steps(o.variants);
  // m and n set grid dimensions (at most 65535 blocks of 32 rows or columns
  // in the smallest tiling); k runs a loop counter in int.
  for (auto [name, v, max] : {std::tuple{"m", o.m, kMaxRowsOrCols}, std::tuple{"n", o.n, kMaxRowsOrCols},
                              std::tuple{"k", o.k, kMaxDepth}})
    if (v < 1 || v > max) throw UsageError(fmt::format("{} {}: must be from 1 to {}", name, v, max));
  if (cuda_device_count() == 0) throw NoDeviceError("no CUDA device found (gemm needs an NVIDIA GPU and its driver)");
  const DeviceInfo info = open_device(o.device);
  const bool bf16 = any_bf16(runnable_steps(o.variants, info));
  const double need = matrix_bytes(o) + 2.0 * double(info.l2_bytes) + (64 << 20) +  // A, B, C, the L2 flush
                      (bf16 ? bf16_device_bytes(o) : 0.0);
  if (need > double(device_free_bytes()))
    throw UsageError(fmt::format("gemm {}x{}x{} needs {} of device memory, {} has {} free", o.m, o.n, o.k, gib(need),
                                 info.name, gib(double(device_free_bytes()))));
  const double host = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  const double host_need = matrix_bytes(o) + 4.0 * double(o.m) * double(o.n) + (bf16 ? bf16_host_bytes(o) : 0.0);
  if (host_need > 0.8 * host)
    throw UsageError(fmt::format("gemm {}x{}x{} needs {} of host memory, the host has {}", o.m, o.n, o.k,
                                 gib(host_need), gib(host)));
}

RunReport run(const Options& o) {
  check(o);
  const int m = int(o.m), n = int(o.n), k = int(o.k);
  DeviceInfo info = open_device(o.device);
  std::vector<std::string> skipped;
  const std::vector<Step> steps = runnable_steps(o.variants, info, &skipped);
  for (const std::string& why : skipped) fmt::print(stderr, "gpubench: note: skipped {}\n", why);
  cudaStream_t stream;
  GPUBENCH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::unique_ptr<CUstream_st, void (*)(cudaStream_t)> stream_guard(stream, [](cudaStream_t s) { cudaStreamDestroy(s); });
  info.copy_gbps = copy_gbps_once(o.device, stream);
  Blas blas(stream);

  const std::vector<float> a = random_matrix(m, k, o.seed), b = random_matrix(k, n, o.seed + 1);
  DeviceBuffer da(a.size() * 4), db(b.size() * 4), dc(std::size_t(m) * n * 4);
  GPUBENCH_CUDA(cudaMemcpyAsync(da.get(), a.data(), a.size() * 4, cudaMemcpyHostToDevice, stream));
  GPUBENCH_CUDA(cudaMemcpyAsync(db.get(), b.data(), b.size() * 4, cudaMemcpyHostToDevice, stream));
  Problem p{static_cast<const float*>(da.get()), static_cast<const float*>(db.get()), static_cast<float*>(dc.get()),
            m, n, k};
  const Workspace ws{stream, blas.handle};

  // The reference product of the host matrices ha and hb; above the host
  // limit, cuBLAS computes it from device copies (dev_a, dev_b, or
  // temporary ones when those are null).
  auto reference = [&](const std::vector<float>& ha, const std::vector<float>& hb, const void* dev_a,
                       const void* dev_b) {
    if (double(m) * n * k <= kHostReferenceLimit) return host_reference(ha, hb, m, n, k);
    DeviceBuffer tmp_a, tmp_b;
    if (!dev_a) {
      tmp_a = DeviceBuffer(ha.size() * 4);
      tmp_b = DeviceBuffer(hb.size() * 4);
      GPUBENCH_CUDA(cudaMemcpyAsync(tmp_a.get(), ha.data(), ha.size() * 4, cudaMemcpyHostToDevice, stream));
      GPUBENCH_CUDA(cudaMemcpyAsync(tmp_b.get(), hb.data(), hb.size() * 4, cudaMemcpyHostToDevice, stream));
      dev_a = tmp_a.get();
      dev_b = tmp_b.get();
    }
    const float one = 1.0f, zero = 0.0f;
    cublas_check(cublasGemmEx(blas.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, dev_b, CUDA_R_32F, n, dev_a,
                              CUDA_R_32F, k, &zero, p.c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_PEDANTIC,
                              CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx (reference)");
    std::vector<float> ref = download(dc, std::size_t(m) * n, stream);  // synchronizes: the copies may go
    const Verdict sampled = check_reference_samples(ref, ha, hb, m, n, k);
    if (!sampled.ok) throw CudaError(cudaErrorUnknown, "cuBLAS reference: " + sampled.detail);
    return ref;
  };
  const std::vector<float> ref = reference(a, b, p.a, p.b);

  // bf16 steps multiply A and B rounded to bf16; their reference is the
  // exact product of the rounded values, so only accumulation error is left.
  std::vector<float> ref_bf16;
  DeviceBuffer da16, db16;
  if (any_bf16(steps)) {
    const std::vector<float> ar = round_to_bf16(a), br = round_to_bf16(b);
    p.lda_bf16 = padded_bf16_ld(k);
    p.ldb_bf16 = padded_bf16_ld(n);
    const std::vector<__nv_bfloat16> a16 = pack_bf16(ar, m, k, p.lda_bf16), b16 = pack_bf16(br, k, n, p.ldb_bf16);
    da16 = DeviceBuffer(a16.size() * 2);
    db16 = DeviceBuffer(b16.size() * 2);
    GPUBENCH_CUDA(cudaMemcpyAsync(da16.get(), a16.data(), a16.size() * 2, cudaMemcpyHostToDevice, stream));
    GPUBENCH_CUDA(cudaMemcpyAsync(db16.get(), b16.data(), b16.size() * 2, cudaMemcpyHostToDevice, stream));
    p.a_bf16 = static_cast<const __nv_bfloat16*>(da16.get());
    p.b_bf16 = static_cast<const __nv_bfloat16*>(db16.get());
    ref_bf16 = reference(ar, br, nullptr, nullptr);
  }

  GpuTimer timer(stream, o.measure.hot ? 0 : 2 * info.l2_bytes);
  RunReport report;
  report.device = info;
  for (const Step& s : steps) {
    BenchResult r;
    r.pattern = "gemm";
    r.variant = s.name;
    r.ladder = ladder_name(s.ladder);
    r.summary = s.summary;
    r.precision = precision_name(s.precision);
    r.params = {{"m", o.m}, {"n", o.n}, {"k", o.k}, {"seed", o.seed}};
    r.measure = measure_settings(o.measure);
    r.hot = o.measure.hot;
    r.bytes = matrix_bytes(o);
    if (s.resources) {
      const Resources res = s.resources();
      r.resources = {{"registers", res.registers}, {"shared_bytes", res.shared_bytes}, {"local_bytes", res.local_bytes}};
    }
    auto check_c = [&](const std::vector<float>& c, const char* when) {
      const Verdict v = check_product(c, s.precision == Precision::bf16 ? ref_bf16 : ref, s.precision, k);
      if (!v.ok && !r.error) r.error = fmt::format("{}: {}", when, v.detail);
      r.verified = r.verified && v.ok;
    };
    r.verified = true;
    r.on_device = !s.on_host;
    if (s.on_host) {
      std::vector<float> hc(std::size_t(m) * n);
      const Problem hp{a.data(), b.data(), hc.data(), m, n, k};
      auto sample = [&] {
        std::fill(hc.begin(), hc.end(), std::numeric_limits<float>::quiet_NaN());  // poison
        const auto t0 = std::chrono::steady_clock::now();
        s.run(hp, ws);
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      };
      sample();
      check_c(hc, "first run");
      r.samples_ms = collect_samples(o.measure, sample);
      check_c(hc, "last timed run");
    } else {
      auto poison = [&] { GPUBENCH_CUDA(cudaMemsetAsync(dc.get(), 0xff, std::size_t(m) * n * 4, stream)); };
      auto body = [&] { s.run(p, ws); };
      try {
        timer.time(poison, body);
        check_c(download(dc, std::size_t(m) * n, stream), "first run");
        r.samples_ms = collect_samples(o.measure, [&] { return timer.time(poison, body); });
        check_c(download(dc, std::size_t(m) * n, stream), "last timed run");
      } catch (const CudaError& e) {
        throw CudaError(e.code(), fmt::format("{} at {}x{}x{}: {}", s.name, m, n, k, e.what()));
      }
    }
    r.stats = summarize(r.samples_ms);
    r.gbps = r.bytes / (r.stats.median_ms * 1e-3) / 1e9;
    r.gflops = 2.0 * double(m) * n * k / (r.stats.median_ms * 1e-3) / 1e9;
    if (s.precision == Precision::fp32 && !s.on_host) r.pct_of_fp32_peak = 100.0 * *r.gflops / info.fp32_peak_gflops;
    report.results.push_back(std::move(r));
  }
  for (BenchResult& r : report.results) {
    const auto lib = std::find_if(report.results.begin(), report.results.end(),
                                  [&](const BenchResult& x) { return x.variant == library_for(r.precision); });
    if (lib != report.results.end() && lib->verified) r.pct_of_library = 100.0 * *r.gflops / *lib->gflops;
  }
  return report;
}

}  // namespace gpubench::gemm
