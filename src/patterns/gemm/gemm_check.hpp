// The reference product and the check of a step's C against it.
#pragma once

#include <string>
#include <vector>

#include "kernels/gemm/gemm_step.hpp"
#include "src/detail/verdict.hpp"

namespace gpubench::gemm {

// C = A * B in double on every host thread (row-major, A m x k, B k x n).
std::vector<float> host_reference(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k);

// NaN anywhere fails (C is poisoned with NaN before each run, so an element
// never written fails too). Otherwise the largest |C - R| must stay within
// tol * rms(R). With inputs uniform in [-1, 1), R's elements are sums of k
// products and rms(R) is about sqrt(k)/3.
// - tf32 rounds each input to 11 significant bits: every product errs by
//   about 2^-11 of itself, a random walk whose sum is about 2^-11 rms(R)
//   whatever k is; tol = 1e-2 covers the worst of millions of elements.
// - bf16 steps are checked against the product of the bf16-rounded inputs
//   (each product of two bf16 values is exact in fp32), so only the
//   accumulation is left. The tensor cores' fp32 accumulation does not
//   round as the CUDA cores do: its error grew in proportion to k on the
//   H200, like a bias, not a random walk (3.4e-5 and 7.0e-5 x rms at
//   k = 4096 and 8192 for both wgmma_bf16 and cuBLAS; 2.0e-4 for the four
//   wgmma steps at k = 32769, past the fp32 tolerance, where cuBLAS BF16
//   stayed within it: it accumulates differently). So bf16 also
//   allows up to one lost ulp (2^-23) of the running sum in each of the
//   k/16 steps of a wgmma, on elements of up to 5 rms(R):
//   5 (k/16) 2^-23, the larger of the two from k of about 5400.
// - fp32 accumulation errs by a random walk of k roundings of the running
//   sum, about 2^-24 sqrt(k) rms(R); tol = max(2e-4, 16 * 2^-24 * sqrt(k))
//   leaves room for the fp32 reference's own error (2e-4 up to k of about
//   44000, growing past it).
// A missing or doubled term of the k moves an element by about 1/sqrt(k) of
// rms(R): caught in fp32 at every size the tests and results use, in bf16
// up to k of about 9 x 10^4, and in tf32 up to k of about 10^4.
double tolerance(Precision p, int k);
Verdict check_product(const std::vector<float>& c, const std::vector<float>& ref, Precision p, int k);

// Checks a reference that did not come from the host (cuBLAS, for large
// problems) at `samples` seeded elements against dot products in double, so
// that no step, cuBLAS included, is only checked against itself.
Verdict check_reference_samples(const std::vector<float>& ref, const std::vector<float>& a,
                                const std::vector<float>& b, int m, int n, int k, int samples = 256);

}  // namespace gpubench::gemm
