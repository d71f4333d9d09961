// The registered transfer steps, in ladder order (kernels/transfer/steps.def),
// for the tests that drive them directly.
#pragma once

#include <vector>

#include "kernels/transfer/transfer_step.hpp"

namespace gpubench::transfer {

const std::vector<Step>& ladder();

}  // namespace gpubench::transfer
