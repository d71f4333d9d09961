// The timed run of a step whose output is one buffer checked on the host:
// before every sample each byte of the output is set to `poison`, so an
// element the step leaves unwritten fails the check; after a device step
// the output is read back. What the fixtures of every pattern share.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include <cuda_runtime_api.h>

#include "src/core/pattern.hpp"

namespace gpubench {

struct CheckedOutput {
  void* host = nullptr;    // where host steps write, and device results are read back to
  void* device = nullptr;  // the device output; null for host steps
  std::size_t bytes = 0;
  unsigned char poison = 0xff;          // 0xff: NaN for floats, -1 for integers
  std::function<std::string()> verify;  // checks `host`: empty when right, else why
};

// Sets r.prepare, r.body and r.check for a step that runs `body` on the host.
void run_on_host(StepRun& r, const CheckedOutput& out, std::function<void()> body);

// The same on the device, on `stream`; `before` (if any) runs first in
// every prepare, e.g. to restore an input a step works on in place.
void run_on_device(StepRun& r, const CheckedOutput& out, cudaStream_t stream, std::function<void()> body,
                   std::function<void()> before = {});

}  // namespace gpubench
