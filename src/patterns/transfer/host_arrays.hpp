// The transfer steps' host-visible buffers (a, b and c of n floats) in one
// kind of memory, filled before timing: allocating and first touching
// them (the H200 machine faults host memory in lazily) is never timed.
#pragma once

#include <cstdint>

#include "kernels/transfer/transfer_step.hpp"

namespace gpubench::transfer {

class HostArrays {
 public:
  // a and b get copies of the inputs; c is allocated and touched.
  HostArrays(Memory kind, std::int64_t n, const float* a, const float* b);
  ~HostArrays();
  HostArrays(const HostArrays&) = delete;
  HostArrays& operator=(const HostArrays&) = delete;

  float *a = nullptr, *b = nullptr, *c = nullptr;
  // For mapped memory, the device's view of a, b and c; else null.
  float *da = nullptr, *db = nullptr, *dc = nullptr;

 private:
  Memory kind_;
};

}  // namespace gpubench::transfer
