// The contract between the collective ladder (an all-reduce across the GPUs
// of one process) and the host harness.
//
// Every GPU g holds `count` elements in in[g]; a step leaves in out[g], on
// every g, the element-wise sum (or max) over all GPUs' inputs. in[g] is
// never written; out[g] arrives poisoned. The step queues its work on each
// GPU's stream (or blocks, for the host-staged step); the harness times it
// with the host's clock from every GPU idle to every GPU synchronized.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

namespace gpubench::collective {

enum class Elem { f32, bf16, f64 };
enum class Op { sum, max };

inline std::size_t elem_size(Elem e) { return e == Elem::f64 ? 8 : e == Elem::bf16 ? 2 : 4; }

// course: lecture 23's ways of moving data between GPUs; baseline: NCCL.
enum class Ladder { course, baseline };

struct Problem {
  std::vector<int> devices;            // CUDA indices, one per GPU of the run
  std::vector<const void*> in;         // per GPU: count elements on that GPU
  std::vector<void*> out;              // per GPU: count elements on that GPU
  std::vector<void*> scratch;          // per GPU: scratch_bytes() on that GPU
  std::vector<cudaStream_t> streams;   // per GPU, created on it
  std::int64_t count = 0;
  Elem elem = Elem::f32;
  Op op = Op::sum;
  int gpus() const { return int(devices.size()); }
};

// What a step keeps from its setup (pinned host buffers, events,
// communicators), made outside the timed region.
struct Plan {
  virtual ~Plan() = default;
};

struct Step {
  const char* name;
  Ladder ladder;
  const char* summary;
  // Why the step cannot run on these devices (peer access, a library), or empty.
  std::string (*unavailable)(const Problem&);
  std::size_t (*scratch_bytes)(const Problem&);  // on each GPU
  std::size_t (*host_bytes)(const Problem&);     // host memory its plan holds
  std::unique_ptr<Plan> (*make_plan)(const Problem&);
  void (*run)(const Problem&, Plan*);
};

}  // namespace gpubench::collective

#define GPUBENCH_COLLECTIVE_STEP(NAME, LADDER, SUMMARY, UNAVAILABLE, SCRATCH, HOST, PLAN, RUN) \
  namespace gpubench::collective {                                                          \
  const Step& step_##NAME() {                                                               \
    static const Step step{#NAME, LADDER, SUMMARY, UNAVAILABLE, SCRATCH, HOST, PLAN, RUN};  \
    return step;                                                                            \
  }                                                                                         \
  }
