// Turns a step's templated implementation into a registered Step.
//
// An implementation is a struct with
//   template <class T, class Op> static std::size_t scratch_bytes(const Problem&, const Workspace&);
//   template <class T, class Op> static void run(const Problem&, const Workspace&);
//   template <class T, class Op> static Resources resources(const Problem&);  (not a library's)
// and GPUBENCH_REDUCE_STEP instantiates them for every dtype x operator;
// GPUBENCH_REDUCE_LIBRARY_STEP the first two.
#pragma once

#include "kernels/reduce/ops.cuh"
#include "kernels/reduce/reduce_step.hpp"

namespace gpubench::reduce {

template <class F>
decltype(auto) visit_types(DType dtype, Op op, F&& f) {
  return visit_dtype(dtype, [&](auto tag) -> decltype(auto) {
    switch (op) {
      case Op::min: return f(tag, MinOp{});
      case Op::max: return f(tag, MaxOp{});
      case Op::sum: break;
    }
    return f(tag, SumOp{});
  });
}

template <class Impl>
std::size_t scratch_dispatch(const Problem& p, const Workspace& ws) {
  return visit_types(p.dtype, p.op, [&](auto tag, auto op) {
    return Impl::template scratch_bytes<typename decltype(tag)::type, decltype(op)>(p, ws);
  });
}

template <class Impl>
void run_dispatch(const Problem& p, const Workspace& ws) {
  visit_types(p.dtype, p.op, [&](auto tag, auto op) {
    Impl::template run<typename decltype(tag)::type, decltype(op)>(p, ws);
  });
}

template <class Impl>
Resources resources_dispatch(const Problem& p) {
  return visit_types(p.dtype, p.op, [&](auto tag, auto op) {
    return Impl::template resources<typename decltype(tag)::type, decltype(op)>(p);
  });
}

}  // namespace gpubench::reduce

#define GPUBENCH_REDUCE_STEP_WITH(NAME, IMPL, LADDER, MODIFIES_INPUT, SUMMARY, RESOURCES) \
  namespace gpubench::reduce {                                                           \
  const Step& step_##NAME() {                                                            \
    static const Step step{#NAME,                  LADDER, SUMMARY, Where::device, MODIFIES_INPUT, \
                           &scratch_dispatch<IMPL>, &run_dispatch<IMPL>, RESOURCES};      \
    return step;                                                                         \
  }                                                                                      \
  }
#define GPUBENCH_REDUCE_STEP(NAME, IMPL, LADDER, MODIFIES_INPUT, SUMMARY) \
  GPUBENCH_REDUCE_STEP_WITH(NAME, IMPL, LADDER, MODIFIES_INPUT, SUMMARY, &resources_dispatch<IMPL>)
#define GPUBENCH_REDUCE_LIBRARY_STEP(NAME, IMPL, LADDER, MODIFIES_INPUT, SUMMARY) \
  GPUBENCH_REDUCE_STEP_WITH(NAME, IMPL, LADDER, MODIFIES_INPUT, SUMMARY, nullptr)
