#include "src/patterns/gemm/gemm_bench.hpp"

#include <algorithm>
#include <climits>
#include <tuple>
#include <memory>

#include <cublas_v2.h>
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
const char* library_for(const std::string& precision) { return precision == "tf32" ? "cublas_tf32" : "cublas"; }

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
  const double need = matrix_bytes(o) + 2.0 * double(info.l2_bytes) + (64 << 20);  // A, B, C, the L2 flush
  if (need > double(device_free_bytes()))
    throw UsageError(fmt::format("gemm {}x{}x{} needs {} of device memory, {} has {} free", o.m, o.n, o.k, gib(need),
                                 info.name, gib(double(device_free_bytes()))));
  const double host = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  if (matrix_bytes(o) + 4.0 * double(o.m) * double(o.n) > 0.8 * host)
    throw UsageError(fmt::format("gemm {}x{}x{} needs {} of host memory, the host has {}", o.m, o.n, o.k,
                                 gib(matrix_bytes(o) + 4.0 * double(o.m) * double(o.n)), gib(host)));
}

RunReport run(const Options& o) {
  check(o);
  const std::vector<Step> steps = select_steps(o.variants);
  const int m = int(o.m), n = int(o.n), k = int(o.k);
  DeviceInfo info = open_device(o.device);
  cudaStream_t stream;
  GPUBENCH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::unique_ptr<CUstream_st, void (*)(cudaStream_t)> stream_guard(stream, [](cudaStream_t s) { cudaStreamDestroy(s); });
  info.copy_gbps = copy_gbps_once(o.device, stream);
  Blas blas(stream);

  const std::vector<float> a = random_matrix(m, k, o.seed), b = random_matrix(k, n, o.seed + 1);
  DeviceBuffer da(a.size() * 4), db(b.size() * 4), dc(std::size_t(m) * n * 4);
  GPUBENCH_CUDA(cudaMemcpyAsync(da.get(), a.data(), a.size() * 4, cudaMemcpyHostToDevice, stream));
  GPUBENCH_CUDA(cudaMemcpyAsync(db.get(), b.data(), b.size() * 4, cudaMemcpyHostToDevice, stream));
  const Problem p{static_cast<const float*>(da.get()), static_cast<const float*>(db.get()),
                  static_cast<float*>(dc.get()), m, n, k};
  const Workspace ws{stream, blas.handle};

  std::vector<float> ref;
  if (double(m) * n * k <= kHostReferenceLimit) {
    ref = host_reference(a, b, m, n, k);
  } else {
    const float one = 1.0f, zero = 0.0f;
    cublas_check(cublasGemmEx(blas.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, p.b, CUDA_R_32F, n, p.a,
                              CUDA_R_32F, k, &zero, p.c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_PEDANTIC,
                              CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx (reference)");
    ref = download(dc, std::size_t(m) * n, stream);
    const Verdict sampled = check_reference_samples(ref, a, b, m, n, k);
    if (!sampled.ok) throw CudaError(cudaErrorUnknown, "cuBLAS reference: " + sampled.detail);
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
    r.measure = {{"warmup", o.measure.warmup}, {"min_samples", o.measure.min_samples},
                 {"min_time_s", o.measure.min_time_s}};
    r.hot = o.measure.hot;
    r.bytes = matrix_bytes(o);
    if (s.resources) {
      const Resources res = s.resources();
      r.resources = {{"registers", res.registers}, {"shared_bytes", res.shared_bytes}, {"local_bytes", res.local_bytes}};
    }
    auto poison = [&] { GPUBENCH_CUDA(cudaMemsetAsync(dc.get(), 0xff, std::size_t(m) * n * 4, stream)); };
    auto body = [&] { s.run(p, ws); };
    auto verify = [&](const char* when) {
      const Verdict v = check_product(download(dc, std::size_t(m) * n, stream), ref, s.precision, k);
      if (!v.ok && !r.error) r.error = fmt::format("{}: {}", when, v.detail);
      r.verified = r.verified && v.ok;
    };
    try {
      r.verified = true;
      timer.time(poison, body);
      verify("first run");
      r.samples_ms = collect_samples(o.measure, [&] { return timer.time(poison, body); });
      verify("last timed run");
    } catch (const CudaError& e) {
      throw CudaError(e.code(), fmt::format("{} at {}x{}x{}: {}", s.name, m, n, k, e.what()));
    }
    r.stats = summarize(r.samples_ms);
    r.gbps = r.bytes / (r.stats.median_ms * 1e-3) / 1e9;
    r.gflops = 2.0 * double(m) * n * k / (r.stats.median_ms * 1e-3) / 1e9;
    if (s.precision == Precision::fp32) r.pct_of_fp32_peak = 100.0 * *r.gflops / info.fp32_peak_gflops;
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
