// The contract between the reduction ladder and the host harness.
//
// A step is a name, a one-line summary and a launcher. The harness hands it a
// problem (input, output, size, type, operator, block size) and a workspace;
// the step leaves op(input[0..n)) in output[0] and knows nothing else about
// the run (no CLI, no timing, no verification).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "kernels/common/dtype.hpp"
#include "kernels/common/resources.hpp"

namespace gpubench::reduce {

enum class Op { sum, min, max };

// Which published optimization ladder a step belongs to. Speedups in reports
// are computed against the previous step of the same ladder.
enum class Ladder { slides, modern, course, baseline };

// Where the step runs: device steps get device pointers, host steps host ones.
enum class Where { device, host };

struct Problem {
  const void* in = nullptr;  // n elements of dtype
  void* out = nullptr;       // one element of dtype
  std::int64_t n = 0;        // n >= 0; n == 0 yields the operator's identity
  DType dtype = DType::i32;
  Op op = Op::sum;
  int block = 256;           // threads per block, a power of two in [32, 1024]
};

struct Workspace {
  void* scratch = nullptr;  // scratch_bytes(problem) bytes, zeroed once when
                            // allocated: a step that keeps state there (a
                            // counter) must leave it as it found it.
  cudaStream_t stream = nullptr;
  int sm_count = 1;
  int max_threads_per_sm = 2048;
};

struct Step {
  const char* name;
  Ladder ladder;
  const char* summary;  // what the step changes, in one line
  Where where;
  bool modifies_input;  // the harness restores the input before each sample
  std::size_t (*scratch_bytes)(const Problem&, const Workspace&);
  void (*run)(const Problem&, const Workspace&);
  // What the compiler gave the kernel that reads the input, at this
  // problem's type, operator and block size; nullptr for library and host steps.
  Resources (*resources)(const Problem&) = nullptr;
};

}  // namespace gpubench::reduce
