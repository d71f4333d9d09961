// The check of the patterns whose outputs are floats compared element by
// element with a reference under one absolute tolerance: every element
// within it, NaN failing; otherwise how many are not and the first.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "src/detail/parallel.hpp"
#include "src/detail/verdict.hpp"

namespace gpubench {

// `what` names the elements in the message ("pixels", "points").
template <class T>
Verdict verify_within(const T* got, const T* want, std::int64_t n, double tol, const char* what) {
  std::atomic<std::int64_t> first_bad{n}, bad{0};
  parallel_chunks(n, [&](unsigned, std::int64_t b, std::int64_t e) {
    std::int64_t count = 0, first = n;
    for (std::int64_t i = b; i < e; ++i)
      if (!(std::fabs(double(got[i]) - double(want[i])) <= tol)) {  // NaN fails
        if (first == n) first = i;
        ++count;
      }
    bad += count;
    for (std::int64_t cur = first_bad; first < cur && !first_bad.compare_exchange_weak(cur, first);) {}
  });
  if (bad == 0) return Verdict{true, {}};
  const std::int64_t i = first_bad;
  return Verdict{false, fmt::format("{} of {} {} wrong; first at index {}: got {}, expected {} (tolerance {:.3g})",
                                    bad.load(), n, what, i, double(got[i]), double(want[i]), tol)};
}

}  // namespace gpubench
