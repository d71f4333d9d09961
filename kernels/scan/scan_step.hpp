// The contract between the prefix-sum (scan) ladder and the host harness.
//
// A step leaves in out[i] the sum of in[0..i] (inclusive) or of in[0..i)
// (exclusive, out[0] = 0) for every i < n, and knows nothing else about the
// run. Sum is the operator; the kernels are written against an associative
// operator with an identity (scan_common.cuh), so another one is a type away
// (reduce_then_scan's reduce pass also needs it to commute).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "kernels/common/dtype.hpp"
#include "kernels/common/resources.hpp"

namespace gpubench::scan {

enum class Kind { inclusive, exclusive };

// course: the lectures' block algorithms inside the segmented (hierarchical)
// scheme; single-pass: one kernel over the input; baseline: CUB, the CPU.
enum class Ladder { course, single_pass, baseline };

enum class Where { device, host };

struct Problem {
  const void* in = nullptr;  // n elements of dtype
  void* out = nullptr;       // n elements of dtype; never the same buffer as in
  std::int64_t n = 0;        // >= 1
  DType dtype = DType::i32;
  Kind kind = Kind::inclusive;
};

struct Workspace {
  void* scratch = nullptr;  // scratch_bytes(problem) bytes, contents undefined
  cudaStream_t stream = nullptr;
};

struct Step {
  const char* name;
  Ladder ladder;
  const char* summary;  // what the step changes, in one line
  Where where;
  std::size_t (*scratch_bytes)(const Problem&);
  void (*run)(const Problem&, const Workspace&);
  // Operator applications per element the algorithm performs at this n.
  double (*adds_per_element)(std::int64_t n);
  // What the compiler gave the kernel that writes the output, at this
  // problem's element type; nullptr for library and host steps.
  Resources (*resources)(const Problem&) = nullptr;
};

}  // namespace gpubench::scan
