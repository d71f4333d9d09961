// Element types shared by the ladders whose steps are templated over them,
// and the dispatch from the runtime type to the C++ one.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <utility>

namespace gpubench {

enum class DType { i32, f32, f64, i64 };

template <class T> struct TypeTag { using type = T; };

// Calls f(TypeTag<T>{}) with the C++ type of `t`: int, float or double
// (int64 is not among them: see visit_dtype_with_int64).
template <class F>
decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::f32: return f(TypeTag<float>{});
    case DType::f64: return f(TypeTag<double>{});
    case DType::i32: break;
    case DType::i64: throw std::invalid_argument("int64 elements need visit_dtype_with_int64");
  }
  return f(TypeTag<int>{});
}

// The same with int64 (long long) too, for the ladders that take it; the
// others leave it out so that their steps are not instantiated for it.
template <class F>
decltype(auto) visit_dtype_with_int64(DType t, F&& f) {
  if (t == DType::i64) return f(TypeTag<long long>{});
  return visit_dtype(t, std::forward<F>(f));
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
    case DType::i64: return 8;
  }
  return 0;
}

// The names the CLI, configs and results use: int32, float32, float64, int64.
inline const char* dtype_name(DType t) {
  switch (t) {
    case DType::i32: return "int32";
    case DType::f32: return "float32";
    case DType::f64: return "float64";
    case DType::i64: return "int64";
  }
  return "?";
}

}  // namespace gpubench
