// Checks gpubench's cuBLAS rows against the anchor figures, standalone.
// At 4096^3 the anchor file (../shared/anchors/h200-2026-11-30.txt) gives
// cuBLAS 794.6 TFLOP/s for BF16 and 401.9 for TF32, where gpubench's cublas_bf16
// and cublas_tf32 rows on the H200 read about 9% less; its FP32 rows agree.
// Tensor-core multiplies can run at the GPU's power limit, where their clock,
// and time, follow the power the run draws, which depends on the values
// multiplied. This times one cublasGemmEx call per precision and input, under
// two schedules:
//   flushed: gpubench's sample, the L2 emptied by reading twice its size,
//            then one call timed by events (the median, of samples enough
//            for 1 s);
//   b2b:     calls back to back for 1 s, timed together (mean per call);
// on three inputs: uniform in [-1, 1) (A and B drawn apart, as gpubench
// draws them), all zeros, all ones. Each line gives the mean SM clock NVML
// read while that schedule ran (a thread reads it from the first launch to
// the last call's end), and the share of those reads that found the clock
// held down by the power cap.
// Build, from the repository's root:
//   nvcc -O2 -arch=sm_90 -I. -o cublas_anchor_check scripts/cublas_anchor_check.cu -lcublas
// Run:   ./cublas_anchor_check [n]   (n defaults to 4096)
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include "standalone_check.cuh"
#include "src/detail/random.hpp"

#define CHECK_BLAS(call)                                      \
  do {                                                        \
    cublasStatus_t s_ = (call);                               \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                        \
      std::fprintf(stderr, "%s: status %d\n", #call, int(s_)); \
      std::exit(1);                                           \
    }                                                         \
  } while (0)

enum class Fill { uniform, zeros, ones };
const char* fill_name(Fill f) { return f == Fill::uniform ? "uniform" : f == Fill::zeros ? "zeros" : "ones"; }

// Element i of a matrix whose seed was mixed into `base`, drawn as
// gpubench draws its inputs (src/detail/random.hpp).
__device__ float value_at(Fill f, std::uint64_t i, std::uint64_t base) {
  if (f == Fill::zeros) return 0.0f;
  if (f == Fill::ones) return 1.0f;
  return float(gpubench::uniform_pm1(base, std::int64_t(i)));
}

__global__ void fill(float* f32, __nv_bfloat16* bf16, std::uint64_t n, Fill how, std::uint64_t base) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n; i += std::uint64_t(gridDim.x) * blockDim.x) {
    const float v = value_at(how, i, base);
    f32[i] = v;
    bf16[i] = __float2bfloat16(v);
  }
}

// gpubench's flush: read a buffer twice the L2's size, so none of the operands stays.
__global__ void read_to_evict(const int4* in, std::size_t n, int* sink) {
  int acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    const int4 v = in[i];
    acc += v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x12345) *sink = acc;
}

// NVML through dlopen (the toolkit has no nvml.h here), as gpubench reads it.
struct Nvml {
  using Device = struct nvmlDevice_st*;
  int (*init)() = nullptr;
  int (*by_bus)(const char*, Device*) = nullptr;
  int (*clock)(Device, unsigned, unsigned*) = nullptr;
  int (*reasons)(Device, unsigned long long*) = nullptr;
  Device dev = nullptr;
  explicit Nvml(const char* bus) {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (!lib) return;
    init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
    by_bus = reinterpret_cast<int (*)(const char*, Device*)>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    clock = reinterpret_cast<int (*)(Device, unsigned, unsigned*)>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    reasons = reinterpret_cast<int (*)(Device, unsigned long long*)>(dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons"));
    if (!init || !by_bus || !clock || !reasons || init() != 0 || by_bus(bus, &dev) != 0) dev = nullptr;
  }
  // The SM clock now, or 0.
  unsigned sm_mhz() const {
    unsigned mhz = 0;
    return dev && clock(dev, 1 /* NVML_CLOCK_SM */, &mhz) == 0 ? mhz : 0;
  }
  // Whether the clock is held down by power now: the software power cap or
  // the hardware power brake (nvmlClocksThrottleReasons 0x4, 0x80).
  bool power_capped() const {
    unsigned long long r = 0;
    return dev && reasons(dev, &r) == 0 && (r & (0x4ull | 0x80ull));
  }
};

struct Precision {
  const char* name;
  bool bf16_inputs;
  cublasComputeType_t compute;
};

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  if (n <= 0) {
    std::fprintf(stderr, "usage: %s [n > 0]\n", argv[0]);
    return 2;
  }
  const std::uint64_t elems = std::uint64_t(n) * n;
  int dev = 0;
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, dev));
  const std::size_t flush_bytes = 2 * std::size_t(prop.l2CacheSize);
  float *a, *b, *c;
  __nv_bfloat16 *a16, *b16;
  void* flush;
  CHECK(cudaMalloc(&a, elems * 4));
  CHECK(cudaMalloc(&b, elems * 4));
  CHECK(cudaMalloc(&c, elems * 4));
  CHECK(cudaMalloc(&a16, elems * 2));
  CHECK(cudaMalloc(&b16, elems * 2));
  CHECK(cudaMalloc(&flush, flush_bytes));
  CHECK(cudaMemset(flush, 1, flush_bytes));
  cublasHandle_t blas;
  CHECK_BLAS(cublasCreate(&blas));
  char bus[32];
  CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, dev));
  const Nvml nvml(bus);
  if (!nvml.dev) {
    std::fprintf(stderr, "no NVML handle for %s\n", bus);
    return 1;
  }
  std::printf("device %s, n %d, flush %zu MiB\n", prop.name, n, flush_bytes >> 20);
  std::printf("%-6s %-8s %-8s %6s %12s %10s %8s %8s\n", "prec", "input", "schedule", "calls", "us/call", "TFLOP/s", "SM MHz",
              "capped");

  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  struct Clock {
    double mean_mhz = 0, capped = 0;  // capped: the share of reads
  };
  // Runs queue() (the launches of a schedule) and waits for the GPU, a
  // thread reading the SM clock and the power cap all the while: the host
  // blocks in queue() once CUDA's launch queue is full.
  auto clock_while = [&](auto&& queue) {
    std::atomic<bool> done{false};
    double sum = 0;
    int reads = 0, capped = 0;
    std::thread reader([&] {
      while (!done.load()) {
        if (const unsigned mhz = nvml.sm_mhz()) {
          sum += mhz;
          capped += nvml.power_capped();
          ++reads;
        }
      }
    });
    queue();
    CHECK(cudaDeviceSynchronize());
    done = true;
    reader.join();
    return reads ? Clock{sum / reads, double(capped) / reads} : Clock{};
  };

  const Precision precisions[] = {{"bf16", true, CUBLAS_COMPUTE_32F},
                                  {"tf32", false, CUBLAS_COMPUTE_32F_FAST_TF32},
                                  {"fp32", false, CUBLAS_COMPUTE_32F}};
  const float one = 1.0f, zero = 0.0f;
  for (const Precision& p : precisions) {
    auto gemm = [&] {
      const cudaDataType_t in = p.bf16_inputs ? CUDA_R_16BF : CUDA_R_32F;
      const void* pa = p.bf16_inputs ? static_cast<const void*>(a16) : a;
      const void* pb = p.bf16_inputs ? static_cast<const void*>(b16) : b;
      CHECK_BLAS(cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, pb, in, n, pa, in, n, &zero, c, CUDA_R_32F, n,
                              p.compute, CUBLAS_GEMM_DEFAULT));
    };
    for (const Fill f : {Fill::uniform, Fill::zeros, Fill::ones}) {
      fill<<<1024, 256>>>(a, a16, elems, f, gpubench::mix(42));  // gpubench's seeds: 42 for A, 43 for B
      fill<<<1024, 256>>>(b, b16, elems, f, gpubench::mix(43));
      CHECK(cudaGetLastError());
      for (int w = 0; w < 3; ++w) gemm();  // warm-up: the first call also chooses cuBLAS's kernel
      CHECK(cudaEventRecord(e0));
      for (int w = 0; w < 5; ++w) gemm();  // the time of a call
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      float warm_ms = 0;
      CHECK(cudaEventElapsedTime(&warm_ms, e0, e1));
      const auto calls_for_a_second = [&](double extra_ms) {
        return std::clamp(int(1e3 / (warm_ms / 5 + extra_ms)), 30, 5000);
      };

      const int samples = calls_for_a_second(0.05);  // a flush takes about 50 us
      std::vector<cudaEvent_t> starts(samples), ends(samples);
      for (int s = 0; s < samples; ++s) {
        CHECK(cudaEventCreate(&starts[s]));
        CHECK(cudaEventCreate(&ends[s]));
      }
      const Clock flushed_clock = clock_while([&] {
        for (int s = 0; s < samples; ++s) {
          read_to_evict<<<1024, 256>>>(static_cast<const int4*>(flush), flush_bytes / 16, static_cast<int*>(flush));
          CHECK(cudaEventRecord(starts[s]));
          gemm();
          CHECK(cudaEventRecord(ends[s]));
        }
      });
      std::vector<float> ms(samples);
      for (int s = 0; s < samples; ++s) {
        CHECK(cudaEventElapsedTime(&ms[s], starts[s], ends[s]));
        CHECK(cudaEventDestroy(starts[s]));
        CHECK(cudaEventDestroy(ends[s]));
      }
      std::sort(ms.begin(), ms.end());
      const double flushed_us = 1e3 * (samples % 2 ? ms[samples / 2] : (ms[samples / 2 - 1] + ms[samples / 2]) / 2);

      const int runs = calls_for_a_second(0);
      const Clock b2b_clock = clock_while([&] {
        CHECK(cudaEventRecord(e0));
        for (int r = 0; r < runs; ++r) gemm();
        CHECK(cudaEventRecord(e1));
      });
      float total = 0;
      CHECK(cudaEventElapsedTime(&total, e0, e1));
      const double b2b_us = 1e3 * total / runs;

      const auto print = [&](const char* schedule, int calls, double us, const Clock& clock) {
        std::printf("%-6s %-8s %-8s %6d %12.2f %10.1f %8.0f %7.0f%%\n", p.name, fill_name(f), schedule, calls, us,
                    2.0 * n * double(n) * n / us * 1e-6, clock.mean_mhz, 100 * clock.capped);
      };
      print("flushed", samples, flushed_us, flushed_clock);
      print("b2b", runs, b2b_us, b2b_clock);
    }
  }
  CHECK_BLAS(cublasDestroy(blas));
  return 0;
}
