// --concurrent: the runs planned on several devices, one host thread per
// device, every device at the same time (each device's runs in their
// order). This measures what one-after-another hides: the devices'
// contention for host memory, PCIe and the host's threads.
#pragma once

#include <ostream>
#include <vector>

#include "src/core/runner.hpp"

namespace gpubench {

// Throws UsageError when `runs` cannot go at once: a run that spans several
// GPUs beside runs on other devices, which would share its GPUs, or runs
// whose host memory, each device's largest held at once, is more than the
// host may use. Needs no GPU.
void check_at_once(const std::vector<RunRequest>& runs);

// The reports of `runs`, which check_at_once has passed, in their order. Progress lines (when asked) go to
// `err` as runs start, under a lock; each device's notes follow once every
// thread has ended. The first failure, in the order of `runs`, is rethrown
// then; after a failure no device starts another run.
std::vector<RunReport> run_devices_at_once(std::vector<RunRequest> runs, bool progress, std::ostream& err);

}  // namespace gpubench
