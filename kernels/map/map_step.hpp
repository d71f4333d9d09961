// The contract between the map ladder (element-wise kernels on
// device-resident data) and the host harness.
//
// A step computes, for every i < n:
//   vecadd:    out[i] = a[i] + b[i]
//   saxpy:     out[i] = alpha * a[i] + b[i]
//   grayscale: out[i] = (77 r + 150 g + 29 b) >> 8 of the RGB pixel a[i]
//              (uchar3 in, uchar out; lecture 3's luminance in 8-bit
//              fixed point, so the host and every step agree exactly)
// out arrives poisoned: a step writes every element. For grayscale the
// image is rows of kImageWidth pixels (the last one may be short), which
// only the 2D-grid step looks at.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <cuda_runtime_api.h>

#include "kernels/common/course_ladder.hpp"
#include "kernels/common/dtype.hpp"
#include "kernels/common/resources.hpp"

namespace gpubench::map {

enum class Op { vecadd, saxpy, grayscale };

constexpr std::int64_t kImageWidth = 8192;

// course: lectures 2 and 3; modern: beyond them; baseline: thrust, the copy, the CPU.
using Ladder = CourseLadder;

enum class Where { device, host };

struct Problem {
  const void* a = nullptr;  // n elements of dtype (grayscale: n RGB pixels, 3 bytes each)
  const void* b = nullptr;  // n elements of dtype (unused by grayscale)
  void* out = nullptr;      // n elements of dtype (grayscale: n bytes); never a or b
  std::int64_t n = 1;
  Op op = Op::vecadd;
  DType dtype = DType::f32;  // f32 or f64 (ignored by grayscale)
  double alpha = 0;          // saxpy's factor, in the element type's precision
};

// The bytes a problem must move: its inputs once and its output once.
inline double bytes_moved(const Problem& p) {
  const double n = double(p.n);
  return p.op == Op::grayscale ? 4.0 * n : 3.0 * n * double(dtype_size(p.dtype));
}

struct Workspace {
  cudaStream_t stream = nullptr;
};

struct Step {
  const char* name;
  Ladder ladder;
  const char* summary;  // what the step changes, in one line
  Where where;
  void (*run)(const Problem&, const Workspace&);
  Resources (*resources)(const Problem&) = nullptr;  // nullptr for library and host steps
  bool grayscale_only = false;                       // the 2D grid is the image kernel's
  bool copies = false;  // the copy baseline: out gets half of bytes_moved from a, not the op
  // Why the step cannot run on the current GPU, or "" (nullptr: it always can).
  std::string (*unavailable)(const Problem&) = nullptr;
  int min_cc = 0;  // the compute capability the step needs (90: Hopper's TMA), as major * 10 + minor; 0: any
};

}  // namespace gpubench::map
