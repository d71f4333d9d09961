// The contract between the 3D-stencil ladder and the host harness.
//
// A step leaves in out, for every point of an n x n x n grid (x fastest,
// then y, then z; no padding), the 7-point stencil of in:
//   out[z][y][x] = c[0] in[z][y][x] + c[1] in[z][y][x-1] + c[2] in[z][y][x+1]
//                + c[3] in[z][y-1][x] + c[4] in[z][y+1][x] + c[5] in[z-1][y][x] + c[6] in[z+1][y][x]
// at the interior points (1 <= x, y, z <= n - 2), and out = in at the
// boundary points (the course computes the interior only). out arrives
// poisoned: a step writes every point. It knows nothing else about the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <cuda_runtime_api.h>

#include "kernels/common/dtype.hpp"
#include "kernels/common/course_ladder.hpp"
#include "kernels/common/resources.hpp"

namespace gpubench::stencil3d {

// course: lecture 9's kernels; modern: beyond the course; baseline: cuSPARSE, the CPU.
using Ladder = CourseLadder;

enum class Where { device, host };

// The arithmetic per interior point, as PMPP counts it: 7 multiplies, 6 adds.
constexpr int kFlopsPerPoint = 13;

struct Problem {
  const void* in = nullptr;  // n^3 elements of dtype
  void* out = nullptr;       // the same count; never the same buffer as in
  std::int64_t n = 1;        // the cube's side, >= 1
  double c[7] = {};          // the coefficients, in the element type's precision
  DType dtype = DType::f32;  // f32 or f64
};

struct Workspace {
  cudaStream_t stream = nullptr;
  void* plan = nullptr;  // what the step's make_plan returned, or null
};

struct Step {
  const char* name;
  Ladder ladder;
  const char* summary;  // what the step changes, in one line
  Where where;
  void (*run)(const Problem&, const Workspace&);
  // Work done once before the step is timed (cuSPARSE's matrix and buffer),
  // kept alive while the step runs. nullptr: nothing to do.
  std::shared_ptr<void> (*make_plan)(const Problem&, cudaStream_t) = nullptr;
  Resources (*resources)(const Problem&) = nullptr;  // nullptr for library and host steps
  // Why the step cannot run this problem, or empty. nullptr: it runs every problem.
  std::string (*unavailable)(const Problem&) = nullptr;
  // Device bytes the step needs beside the two grids (cuSPARSE's matrix).
  double (*extra_device_bytes)(const Problem&) = nullptr;
  int min_cc = 0;  // the compute capability the step needs (90: Hopper's TMA), as major * 10 + minor; 0: any
};

}  // namespace gpubench::stencil3d
