// The contract between the transfer ladder (vector add end to end, from
// host memory and back) and the host harness.
//
// A step leaves c[i] = a[i] + b[i] for every i < n in host-visible memory:
// a and b start in host memory, the addition runs on the GPU, and the step
// returns once c is back where the host can read it (for managed memory:
// the host has read it). Its timer is the host's clock around the whole
// operation (the harness's host_timed steps). c arrives poisoned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include <cuda_runtime_api.h>

#include "kernels/common/course_ladder.hpp"

namespace gpubench::transfer {

// course: lectures 2, 21 and 23; modern: beyond them; baseline: the copy
// engines alone (the ceilings), the CPU.
using Ladder = CourseLadder;

// What a run leaves to check: c = a + b on the host, a and b on the device
// (the copy-in baselines), or both.
enum class Check { sum, inputs, both };

// Where a step's host buffers live; the fixture allocates and touches them
// before timing.
enum class Memory {
  pageable,  // malloc
  pinned,    // cudaMallocHost
  mapped,    // cudaHostAlloc(cudaHostAllocMapped): the kernel reads and writes them over PCIe
  managed,   // cudaMallocManaged: pages migrate on demand (or when prefetched)
};

struct Problem {
  const float* a = nullptr;  // host-visible inputs and output, of the step's Memory
  const float* b = nullptr;
  float* c = nullptr;
  float *da = nullptr, *db = nullptr, *dc = nullptr;  // device buffers of n floats (pageable, pinned); for
                                                      // mapped, the device's view of a, b, c; for managed, null
  std::int64_t n = 1;
  int streams = 1;          // streams the pipelined steps use (Workspace::streams)
  std::int64_t chunk = 1;   // elements per chunk of the pipelined steps
  int device = 0;           // for managed prefetches
};

struct Workspace {
  cudaStream_t stream = nullptr;          // the harness's stream
  const cudaStream_t* streams = nullptr;  // Problem::streams more, for the pipelined steps
  void* plan = nullptr;                   // what make_plan returned, or null
};

struct Step {
  const char* name;
  Ladder ladder;
  const char* summary;  // what the step changes, in one line
  Memory memory;
  bool on_host;         // the cpu step
  void (*run)(const Problem&, const Workspace&);
  // Work done once before timing (the graph's capture), kept alive while
  // the step runs. nullptr: nothing to do.
  std::shared_ptr<void> (*make_plan)(const Problem&, const Workspace&) = nullptr;
  // The bytes a run moves between host and device: 12 n for the ladder;
  // the copy-only baselines move their own (nullptr: 12 n).
  double (*bytes)(std::int64_t n) = nullptr;
  Check check = Check::sum;
};

}  // namespace gpubench::transfer
