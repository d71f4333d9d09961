// The ceiling of the tf32 and bf16 rows: the dense tensor-core peak at the
// maximum SM clock, computed as the CUDA-core rows' FP32 peak is
// (src/detail/device.cu: SMs x FLOP per SM per clock x clock).
#pragma once

#include <optional>

#include "kernels/gemm/gemm_step.hpp"
#include "src/detail/device.hpp"

namespace gpubench::gemm {

// Dense FLOP per SM per clock of the tensor cores: 2048 in bf16 on the
// A100's third generation (8.0: 312 TFLOP/s over 108 SMs at 1410 MHz),
// twice that on Hopper's fourth (9.0); tf32 at half the bf16 rate. Absent
// for fp32, whose ceiling is the CUDA cores', and for architectures the
// tensor-core steps were not written for.
inline std::optional<double> tensor_flops_per_clock(int major, int minor, Precision p) {
  if (p == Precision::fp32 || minor != 0 || (major != 8 && major != 9)) return std::nullopt;
  const double bf16 = major == 9 ? 4096 : 2048;
  return p == Precision::bf16 ? bf16 : bf16 / 2;
}

inline std::optional<double> tensor_peak_tflops(const DeviceInfo& d, Precision p) {
  const std::optional<double> per_clock = tensor_flops_per_clock(d.cc_major, d.cc_minor, p);
  if (!per_clock) return std::nullopt;
  return d.sm_count * *per_clock * d.sm_clock_mhz * 1e6 / 1e12;
}

}  // namespace gpubench::gemm
