// OpenBLAS, loaded when first needed (dlopen of libopenblas.so.0): building
// gpubench needs no BLAS, and a machine without one runs every GPU step and
// reports the `cpu` step as unavailable.
#pragma once

namespace gpubench::gemm::openblas {

// Null when OpenBLAS could be loaded, else why not.
const char* unavailable();

// C = A * B, row-major float (A m x k, B k x n), on all host threads.
void sgemm(const float* a, const float* b, float* c, int m, int n, int k);

}  // namespace gpubench::gemm::openblas
