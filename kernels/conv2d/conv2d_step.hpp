// The contract between the 2D-convolution ladder and the host harness.
//
// A step leaves in out[y][x], for every pixel of a width x height image
// (row-major, no padding), the cross-correlation of the image with a
// side x side mask:
//   out[y][x] = sum over i, j < side of mask[i][j] * in[y + i - r][x + j - r],  r = side / 2,
// where pixels outside the image are zero (ghost cells, as in the course)
// and mask[0][0] is the top-left weight: mask row i pairs with input row
// y + i - r, as cuDNN's CUDNN_CROSS_CORRELATION does. out arrives poisoned:
// a step writes every pixel. It knows nothing else about the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <cuda_runtime_api.h>

#include "kernels/common/dtype.hpp"
#include "kernels/common/course_ladder.hpp"
#include "kernels/common/resources.hpp"

namespace gpubench::conv2d {

// The mask sides the steps are built for (each is a template instance).
constexpr int kMaskSides[] = {3, 5, 7, 9, 15};

// course: lecture 8's kernels; modern: beyond the course; baseline: cuDNN, the CPU.
using Ladder = CourseLadder;

enum class Where { device, host };

struct Problem {
  const void* in = nullptr;    // width * height elements of dtype
  void* out = nullptr;         // the same count; never the same buffer as in
  const void* mask = nullptr;  // side * side elements of dtype, row-major
  std::int64_t width = 1, height = 1;
  int side = 3;                // one of kMaskSides
  DType dtype = DType::f32;    // f32 or f64
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
  // Work done once before the step is timed (the mask into constant
  // memory; cuDNN's descriptors, algorithm search and workspace), kept
  // alive while the step runs. nullptr: nothing to do.
  std::shared_ptr<void> (*make_plan)(const Problem&, cudaStream_t) = nullptr;
  Resources (*resources)(const Problem&) = nullptr;  // nullptr for library and host steps
  // Why the step cannot run this problem (its library is missing, say), or
  // empty. nullptr: it runs every problem.
  std::string (*unavailable)(const Problem&) = nullptr;
  // What make_plan chose, for the row's details (cuDNN's algorithm). nullptr: nothing.
  std::string (*describe_plan)(const void* plan) = nullptr;
  int min_cc = 0;  // the compute capability the step needs (90: Hopper's TMA), as major * 10 + minor; 0: any
};

}  // namespace gpubench::conv2d
