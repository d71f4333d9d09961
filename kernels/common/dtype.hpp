// Element types shared by the ladders whose steps are templated over them,
// and the dispatch from the runtime type to the C++ one.
#pragma once

#include <cstddef>

namespace gpubench {

enum class DType { i32, f32, f64 };

template <class T> struct TypeTag { using type = T; };

// Calls f(TypeTag<T>{}) with the C++ type of `t`: int, float or double.
template <class F>
decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::f32: return f(TypeTag<float>{});
    case DType::f64: return f(TypeTag<double>{});
    case DType::i32: break;
  }
  return f(TypeTag<int>{});
}

// The same for the ladders that take float32 and float64 only: float or
// double.
template <class F>
decltype(auto) visit_float(DType t, F&& f) {
  if (t == DType::f64) return f(TypeTag<double>{});
  return f(TypeTag<float>{});
}

inline std::size_t dtype_size(DType t) {
  switch (t) {
    case DType::i32: return 4;
    case DType::f32: return 4;
    case DType::f64: return 8;
  }
  return 0;
}

// The names the CLI, configs and results use: int32, float32, float64.
inline const char* dtype_name(DType t) {
  switch (t) {
    case DType::i32: return "int32";
    case DType::f32: return "float32";
    case DType::f64: return "float64";
  }
  return "?";
}

}  // namespace gpubench
