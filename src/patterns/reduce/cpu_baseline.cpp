// cpu — the fair CPU comparison: every hardware thread reduces a contiguous
// chunk with a loop the compiler vectorizes (omp simd reduction, so floats
// may be reassociated into SIMD lanes like the GPU does), then the chunk
// results are combined. Registered in the ladder like a kernel, run on the host.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <mutex>
#include <type_traits>

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
void reduce_threads(const Problem& p) {
  const T* x = static_cast<const T*>(p.in);
  T result{};
  bool first = true;
  std::mutex m;
  parallel_chunks(p.n, [&](unsigned, std::int64_t b, std::int64_t e) {
    const T part = reduce_chunk(x + b, e - b, p.op);
    std::lock_guard<std::mutex> lock(m);
    if (first) result = part;
    else if (p.op == Op::sum) result += part;
    else if (p.op == Op::min) result = std::min(result, part);
    else result = std::max(result, part);
    first = false;
  });
  if (p.n == 0 && p.op != Op::sum) {
    using L = std::numeric_limits<T>;
    const T big = L::has_infinity ? L::infinity() : L::max();
    result = p.op == Op::min ? big : (L::has_infinity ? -big : L::lowest());
  }
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
