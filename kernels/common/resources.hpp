// What the compiler gave a step's main kernel, for the report's resource
// columns; resources.cuh reads it from a kernel.
#pragma once

namespace gpubench {

struct Resources {
  int registers = 0;     // per thread
  int shared_bytes = 0;  // per block, static + dynamic
  int local_bytes = 0;   // per thread; > 0 means spills or a stack array
};

}  // namespace gpubench
