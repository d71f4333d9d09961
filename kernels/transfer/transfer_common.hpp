// Pieces the transfer steps share (host functions: the fixture calls them
// too): the vector-add launch, lecture 2's copy-add-copy, the chunked
// pipeline over several streams, and step registration.
#pragma once

#include <cstdint>

#include "kernels/transfer/transfer_step.hpp"
#include "src/detail/cuda_check.hpp"

namespace gpubench::transfer {

// c = a + b on `stream`, device (or mapped, or managed) pointers.
void add_on(const float* a, const float* b, float* c, std::int64_t n, cudaStream_t stream);

// Lecture 2's host code: cudaMemcpy a and b in, the add, cudaMemcpy c out;
// every copy waits for the one before.
void copy_add_copy(const Problem& p, const Workspace& ws);

// Chunk k of the problem on stream k mod streams: its a and b in, the add,
// its c out, so that one chunk's copy in, another's add and a third's copy
// out run at once (pinned buffers).
void pipeline(const Problem& p, const Workspace& ws);

}  // namespace gpubench::transfer

#define GPUBENCH_TRANSFER_STEP(NAME, LADDER, SUMMARY, MEMORY, RUN, PLAN)                     \
  namespace gpubench::transfer {                                                            \
  const Step& step_##NAME() {                                                               \
    static const Step step{#NAME, LADDER, SUMMARY, MEMORY, false, RUN, PLAN};               \
    return step;                                                                            \
  }                                                                                         \
  }
