#include "src/patterns/gemm/openblas.hpp"

#include <string>

#include "kernels/common/loaded_library.hpp"
#include "src/detail/parallel.hpp"

namespace gpubench::gemm::openblas {
namespace {

// The CBLAS entry point, declared here rather than from a header so that the
// build needs no BLAS package.
using Sgemm = void (*)(int order, int trans_a, int trans_b, int m, int n, int k, float alpha, const float* a, int lda,
                       const float* b, int ldb, float beta, float* c, int ldc);
using SetThreads = void (*)(int);
constexpr int kRowMajor = 101, kNoTrans = 111;  // CblasRowMajor, CblasNoTrans

struct Library {
  Sgemm sgemm = nullptr;
  std::string error;

  Library() {
    LoadedLibrary lib("libopenblas.so.0", "OpenBLAS not found (Debian: apt-get install libopenblas0-pthread)");
    lib.resolve(sgemm, "cblas_sgemm");
    error = lib.error();
    // The threads every host step uses (GPUBENCH_HOST_THREADS, the CPU
    // affinity), which results record as host.threads, up to OpenBLAS's own
    // limit (64 in Debian's build).
    if (auto set_threads = lib.symbol<SetThreads>("openblas_set_num_threads")) set_threads(int(host_threads()));
  }
};

const Library& library() {
  static const Library lib;
  return lib;
}

}  // namespace

const char* unavailable() { return library().sgemm ? nullptr : library().error.c_str(); }

void sgemm(const float* a, const float* b, float* c, int m, int n, int k) {
  library().sgemm(kRowMajor, kNoTrans, kNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
}

}  // namespace gpubench::gemm::openblas
