// The reference product and the check of a step's C against it.
#pragma once

#include <string>
#include <vector>

#include "kernels/gemm/gemm_step.hpp"

namespace gpubench::gemm {

// C = A * B in double on every host thread (row-major, A m x k, B k x n).
std::vector<float> host_reference(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k);

struct Verdict {
  bool ok = false;
  std::string detail;
};

// NaN anywhere fails (C is poisoned with NaN before each run, so an element
// never written fails too). Otherwise the largest |C - R| must stay within
// tol * rms(R). With inputs uniform in [-1, 1), R's elements are sums of k
// products and rms(R) is about sqrt(k)/3; rounding each product's inputs to
// a p-bit mantissa and adding in fp32 leave an error that behaves like a
// random walk of k steps of size 2^-p |a||b|, about 2^-p rms(R) per element,
// and a few times that at the worst of millions of elements. tol is 2e-4 for
// fp32 (2^-24: room for the fp32 reference's own error) and 1e-2 for tf32
// (2^-11, about 5e-4). A missing or doubled term of the k moves an element
// by about 1/sqrt(k) of rms(R): caught in fp32 at every size here.
Verdict check_product(const std::vector<float>& c, const std::vector<float>& ref, Precision p);

}  // namespace gpubench::gemm
