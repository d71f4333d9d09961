// The registered map steps, in ladder order (kernels/map/steps.def), for the
// tests that drive the kernels directly.
#pragma once

#include <vector>

#include "kernels/map/map_step.hpp"

namespace gpubench::map {

const std::vector<Step>& ladder();

}  // namespace gpubench::map
