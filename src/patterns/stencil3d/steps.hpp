// The registered stencil steps, in ladder order (kernels/stencil3d/steps.def),
// for the tests that drive the kernels directly.
#pragma once

#include <vector>

#include "kernels/stencil3d/stencil3d_step.hpp"

namespace gpubench::stencil3d {

const std::vector<Step>& ladder();

}  // namespace gpubench::stencil3d
