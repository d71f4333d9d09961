// What bin a sample falls in, for the kernels, the host reference and the
// CPU baseline alike: HistogramEven's even bins over the sample type's range.
//  - uint8, uint16, int32: the type's whole range, [0, 2^8), [0, 2^16),
//    [-2^31, 2^31); bin = (s - lower) * bins / range, exact (the range is a
//    power of two, so the division is a shift). No sample is outside.
//  - float32: [0, 1); bin = int(s * bins) in fp32 as HistogramEven computes
//    it. NaN and values outside [0, 1) are counted nowhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/common/dtype.hpp"
#include "kernels/common/host_device.hpp"

namespace gpubench::histogram {

enum class Sample { u8, u16, i32, f32 };

// Bins a run may ask for; a step's own limit may be lower (Step::max_bins).
constexpr int kMaxBins = 1 << 20;

constexpr std::size_t sample_size(Sample s) {
  return s == Sample::u8 ? 1 : s == Sample::u16 ? 2 : 4;
}

// The names the CLI, configs and results use.
constexpr const char* sample_name(Sample s) {
  return s == Sample::u8 ? "uint8" : s == Sample::u16 ? "uint16" : s == Sample::i32 ? "int32" : "float32";
}

// Integer samples when bins is a power of two no wider than the range: the
// bin is the offset's top bits.
template <class T>
struct ShiftBins {
  static constexpr bool kAlwaysInRange = true;
  int bins, shift;
  GPUBENCH_HD int operator()(T s) const { return int(offset(s) >> shift); }
  // The sample's distance from the range's lower end.
  GPUBENCH_HD static std::uint32_t offset(T s) {
    if constexpr (sizeof(T) == 4) return std::uint32_t(s) ^ 0x80000000u;  // int32: s + 2^31
    else return s;
  }
};

// Any other integer bin count: the product needs 64 bits.
template <class T>
struct ScaleBins {
  static constexpr bool kAlwaysInRange = true;
  int bins;
  GPUBENCH_HD int operator()(T s) const {
    return int((std::uint64_t(ShiftBins<T>::offset(s)) * std::uint32_t(bins)) >> (8 * sizeof(T)));
  }
};

struct FloatBins {
  static constexpr bool kAlwaysInRange = false;  // bin -1: counted nowhere
  int bins;
  GPUBENCH_HD int operator()(float s) const {
    // NaN fails both tests. For s < 1, s * bins rounds below bins: the
    // product is exact when bins is a power of two, and otherwise
    // bins - s * bins >= bins * 2^-24 is more than half a unit in its last place.
    return s >= 0.0f && s < 1.0f ? int(s * float(bins)) : -1;
  }
};

// The bits of the range's width: 8, 16 or 32 (float32: none).
constexpr int range_bits(Sample s) { return s == Sample::f32 ? 0 : 8 * int(sample_size(s)); }

// Calls f(TypeTag<T>{}) with the sample's C++ type.
template <class F>
decltype(auto) visit_sample(Sample type, F&& f) {
  switch (type) {
    case Sample::u8: return f(TypeTag<std::uint8_t>{});
    case Sample::u16: return f(TypeTag<std::uint16_t>{});
    case Sample::i32: return f(TypeTag<std::int32_t>{});
    case Sample::f32: break;
  }
  return f(TypeTag<float>{});
}

// Calls f(TypeTag<T>{}, binner) with the sample's C++ type and the binner
// for `bins` bins of it.
template <class F>
decltype(auto) visit_bins(Sample type, int bins, F&& f) {
  int log2 = 0;
  while ((1 << log2) < bins) ++log2;
  const bool pow2 = (1 << log2) == bins;
  const int shift = range_bits(type) - log2;
  return visit_sample(type, [&](auto tag) -> decltype(auto) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float>) {
      return f(tag, FloatBins{bins});
    } else {
      if (pow2 && shift >= 0 && shift < 32) return f(tag, ShiftBins<T>{bins, shift});
      return f(tag, ScaleBins<T>{bins});
    }
  });
}

}  // namespace gpubench::histogram
