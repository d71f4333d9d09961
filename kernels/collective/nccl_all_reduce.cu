// The library baseline: ncclAllReduce on every GPU of the run, one
// communicator per GPU from ncclCommInitAll (one process, several GPUs),
// the calls grouped with ncclGroupStart/End as NCCL's documentation asks
// when one thread drives several GPUs. The communicators are made before
// timing. NVLink multicast (NVLS) is always off: NCCL_NVLS_ENABLE=0 is set
// before the first communicator, whatever the environment said.
//
// NCCL is loaded at run time (dlopen of libnccl.so.2), so the binary runs
// without it and reports this step unavailable; the header only gives the
// types.
#include <stdlib.h>

#include <nccl.h>

#include "kernels/collective/collective_common.hpp"
#include "kernels/common/loaded_library.hpp"

namespace gpubench::collective {
namespace {

#define GPUBENCH_NCCL_FUNCTIONS(X) \
  X(ncclGetVersion) X(ncclCommInitAll) X(ncclCommDestroy) X(ncclAllReduce) X(ncclGroupStart) X(ncclGroupEnd) X(ncclGetErrorString)

struct Api {
#define GPUBENCH_DECLARE(f) decltype(&::f) f = nullptr;
  GPUBENCH_NCCL_FUNCTIONS(GPUBENCH_DECLARE)
#undef GPUBENCH_DECLARE
  std::string error;  // why NCCL cannot be used, or empty

  Api() {
    LoadedLibrary lib("libnccl.so.2", "NCCL 2 not found (put libnccl.so.2 on LD_LIBRARY_PATH)");
#define GPUBENCH_RESOLVE(f) lib.resolve(f, #f);
    GPUBENCH_NCCL_FUNCTIONS(GPUBENCH_RESOLVE)
#undef GPUBENCH_RESOLVE
    error = lib.error();
  }
};

const Api& api() {
  static const Api a;
  return a;
}

void check(ncclResult_t result, const char* call) {
  if (result != ncclSuccess) throw library_error(call, api().ncclGetErrorString(result));
}
#define GPUBENCH_NCCL(call) check(api().call, #call)

struct Comms : Plan {
  std::vector<ncclComm_t> comms;
  ~Comms() override {
    for (ncclComm_t c : comms) api().ncclCommDestroy(c);
  }
};

// bfloat16 reductions came with NCCL 2.10.
std::string nccl_available(const Problem& p) {
  if (!api().error.empty()) return api().error;
  int version = 0;
  if (const ncclResult_t r = api().ncclGetVersion(&version); r != ncclSuccess)
    return library_failure("ncclGetVersion", api().ncclGetErrorString(r));
  if (p.elem == Elem::bf16 && version < 21000) return "this NCCL (" + std::to_string(version) + ") has no bfloat16";
  return {};
}

std::unique_ptr<Plan> make_comms(const Problem& p) {
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  auto plan = std::make_unique<Comms>();
  plan->comms.resize(std::size_t(p.gpus()));
  GPUBENCH_NCCL(ncclCommInitAll(plan->comms.data(), p.gpus(), p.devices.data()));
  return plan;
}

void run_nccl(const Problem& p, Plan* base) {
  const auto& comms = static_cast<Comms*>(base)->comms;
  const ncclDataType_t type = p.elem == Elem::f64 ? ncclFloat64 : p.elem == Elem::bf16 ? ncclBfloat16 : ncclFloat32;
  const ncclRedOp_t op = p.op == Op::sum ? ncclSum : ncclMax;
  GPUBENCH_NCCL(ncclGroupStart());
  try {
    for (int g = 0; g < p.gpus(); ++g)
      GPUBENCH_NCCL(ncclAllReduce(p.in[g], p.out[g], std::size_t(p.count), type, op, comms[g], p.streams[g]));
  } catch (...) {
    api().ncclGroupEnd();  // the group must not stay open
    throw;
  }
  GPUBENCH_NCCL(ncclGroupEnd());
}

}  // namespace
}  // namespace gpubench::collective

GPUBENCH_COLLECTIVE_STEP(nccl, Ladder::baseline, "ncclAllReduce, one communicator per GPU (ncclCommInitAll)",
                         &nccl_available, &no_scratch, &no_host_memory, &make_comms, &run_nccl)
