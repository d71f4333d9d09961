// The element-type axis of the patterns whose steps are templated over
// kernels/common/dtype.hpp's types.
#pragma once

#include <string>

#include "kernels/common/dtype.hpp"
#include "src/core/axis.hpp"

namespace gpubench {

inline Axis dtype_axis() { return choice_axis("dtype", "Element type", {"int32", "float32", "float64"}); }

// The type a dtype_axis() value names.
inline DType dtype_named(const std::string& name) {
  for (const DType t : {DType::i32, DType::f32, DType::f64})
    if (name == dtype_name(t)) return t;
  return DType::i32;
}

}  // namespace gpubench
