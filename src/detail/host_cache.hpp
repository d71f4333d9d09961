// The host's counterpart of the L2 flush: before each sample of a host step,
// unless the run is hot, every pool thread reads its share of a buffer twice
// the size of the host's last-level caches, so the step reads its inputs from
// DRAM as the GPU steps do.
#pragma once

#include <cstdint>

namespace gpubench {

// The sum over distinct last-level cache instances (sysfs), or 256 MiB where
// sysfs says nothing.
std::int64_t host_llc_bytes();

void flush_host_caches();

}  // namespace gpubench
