// cpu — the fair CPU comparison: every hardware thread reduces contiguous
// blocks with a loop the compiler vectorizes (omp simd reduction, so floats
// may be reassociated into SIMD lanes like the GPU does), then the block
// results are combined. Registered in the ladder like a kernel, run on the host.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/reduce/reduce_step.hpp"
#include "src/detail/parallel.hpp"

namespace gpubench::reduce {
namespace {

template <class T>
T reduce_chunk(const T* x, std::int64_t n, Op op) {
  T acc;
  switch (op) {
    case Op::min:
      acc = std::numeric_limits<T>::max();
#pragma omp simd reduction(min : acc)
      for (std::int64_t i = 0; i < n; ++i) acc = x[i] < acc ? x[i] : acc;
      return acc;
    case Op::max:
      acc = std::numeric_limits<T>::lowest();
#pragma omp simd reduction(max : acc)
      for (std::int64_t i = 0; i < n; ++i) acc = x[i] > acc ? x[i] : acc;
      return acc;
    case Op::sum: break;
  }
  acc = 0;
#pragma omp simd reduction(+ : acc)
  for (std::int64_t i = 0; i < n; ++i) acc += x[i];
  return acc;
}

template <class T>
T combine(T a, T b, Op op) {
  return op == Op::sum ? a + b : op == Op::min ? std::min(a, b) : std::max(a, b);
}

// Blocks of at least 32K elements, eight per thread where n allows: small
// enough that threads which start late or are preempted leave their share
// to the others, large enough that handing blocks out costs nothing. Block
// results are combined in block order, so a float sum is the same every run.
template <class T>
void reduce_threads(const Problem& p) {
  const T* x = static_cast<const T*>(p.in);
  const std::int64_t block = std::max<std::int64_t>(std::int64_t(1) << 15, p.n / (8 * std::int64_t(host_threads())) + 1);
  std::vector<T> parts(static_cast<std::size_t>(p.n == 0 ? 0 : (p.n + block - 1) / block));
  parallel_blocks(p.n, block, [&](std::int64_t b, std::int64_t lo, std::int64_t hi) {
    parts[std::size_t(b)] = reduce_chunk(x + lo, hi - lo, p.op);
  });
  T result{};
  if (parts.empty() && p.op != Op::sum) {
    using L = std::numeric_limits<T>;
    const T big = L::has_infinity ? L::infinity() : L::max();
    result = p.op == Op::min ? big : (L::has_infinity ? -big : L::lowest());
  }
  for (std::size_t i = 0; i < parts.size(); ++i) result = i == 0 ? parts[0] : combine(result, parts[i], p.op);
  *static_cast<T*>(p.out) = result;
}

std::size_t no_scratch(const Problem&, const Workspace&) { return 0; }

void run_cpu(const Problem& p, const Workspace&) {
  visit_dtype(p.dtype, [&](auto t) { reduce_threads<typename decltype(t)::type>(p); });
}

}  // namespace

const Step& step_cpu() {
  static const Step step{"cpu", Ladder::baseline, "multi-threaded, vectorized host reduction",
                         Where::host, false, &no_scratch, &run_cpu};
  return step;
}

}  // namespace gpubench::reduce
