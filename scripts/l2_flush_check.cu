// Checks how gpubench empties the L2 cache between samples, standalone.
// Times one read of a 16 MiB buffer (smaller than the H200's 60 MB L2) after:
// nothing (hot), a read of 120 MiB (gpubench's flush), a cudaMemset of
// 120 MiB, and both. Run it under
//   ncu --clock-control none --cache-control none --metrics dram__bytes_read.sum -k regex:read_all ./l2_flush_check 2
// to see the timed read fetch all 16 MiB from DRAM after either flush; the
// timings show what a memset flush costs the next kernel: its dirty lines are
// written back while that kernel runs.
// Build: nvcc -O2 -arch=sm_90 -o l2_flush_check scripts/l2_flush_check.cu
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "standalone_check.cuh"

__global__ void read_all(const int4* in, size_t n, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const int4 v = in[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 0x12345) *sink = acc;
}

// Keeps the GPU busy while the timed launch is queued, so no launch gap is timed.
__global__ void spin(long long cycles) {
  const long long t = clock64();
  while (clock64() - t < cycles) {
  }
}

int main(int argc, char** argv) {
  // Usage: l2_flush_check [REPS]: samples per mode, 1 to 100000 (default 200).
  char* end = nullptr;
  const long asked = argc > 1 ? std::strtol(argv[1], &end, 10) : 200;
  if (argc > 2 || (argc > 1 && (end == argv[1] || *end != '\0' || asked < 1 || asked > 100000))) {
    std::fprintf(stderr, "usage: l2_flush_check [REPS]: REPS, samples per mode, a whole number from 1 to 100000\n");
    return 2;
  }
  const int reps = int(asked);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "l2_flush_check: no CUDA device found\n");
    return 3;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, L2 %d MB\n", prop.name, prop.l2CacheSize >> 20);
  const size_t in_bytes = size_t(16) << 20, flush_bytes = size_t(120) << 20;
  int4 *in, *flush;
  int* sink;
  CHECK(cudaMalloc(&in, in_bytes));
  CHECK(cudaMalloc(&flush, flush_bytes));
  CHECK(cudaMalloc(&sink, sizeof(int)));
  CHECK(cudaMemset(in, 1, in_bytes));
  CHECK(cudaMemset(flush, 0, flush_bytes));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const char* names[] = {"hot", "read flush", "memset flush", "memset + read flush"};
  for (int mode = 0; mode < 4; ++mode) {
    float best = 1e9f, total = 0;
    for (int r = 0; r < reps; ++r) {
      read_all<<<1024, 256>>>(in, in_bytes / 16, sink);  // the input is now in L2
      if (mode >= 2) CHECK(cudaMemsetAsync(flush, 0, flush_bytes));
      if (mode == 1 || mode == 3) read_all<<<1024, 256>>>(flush, flush_bytes / 16, sink);
      spin<<<1, 1>>>(20000);
      CHECK(cudaEventRecord(start));
      read_all<<<1024, 256>>>(in, in_bytes / 16, sink);
      CHECK(cudaEventRecord(stop));
      CHECK(cudaGetLastError());
      CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      total += ms;
      best = ms < best ? ms : best;
    }
    std::printf("%-20s mean %.2f us  min %.2f us  (16 MiB read, %d runs)\n", names[mode], total / reps * 1e3,
                best * 1e3, reps);
  }
  return 0;
}
