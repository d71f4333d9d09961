// graph — beyond the lectures' streams: the streams pipeline captured once
// as a CUDA graph (a fork from the harness's stream to --streams streams
// and a join back) and replayed with one cudaGraphLaunch. The copies and
// kernels are the same; the host's per-call launch work goes, which
// matters when chunks are small and many.
// It costs a capture and instantiation before timing, and the graph is frozen:
// another n, chunk size or stream count needs a new capture.
#include "kernels/transfer/transfer_common.hpp"

#include <vector>

namespace gpubench::transfer {
namespace {

struct Plan {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  std::vector<cudaEvent_t> events;
  ~Plan() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    for (cudaEvent_t e : events) cudaEventDestroy(e);
  }
};

cudaEvent_t event(Plan& plan) {
  cudaEvent_t e;
  GPUBENCH_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  plan.events.push_back(e);
  return e;
}

std::shared_ptr<void> capture(const Problem& p, const Workspace& ws) {
  auto plan = std::make_shared<Plan>();
  const cudaEvent_t fork = event(*plan);
  std::vector<cudaEvent_t> joins;
  for (int i = 0; i < p.streams; ++i) joins.push_back(event(*plan));
  GPUBENCH_CUDA(cudaStreamBeginCapture(ws.stream, cudaStreamCaptureModeThreadLocal));
  try {
    GPUBENCH_CUDA(cudaEventRecord(fork, ws.stream));
    for (int i = 0; i < p.streams; ++i) GPUBENCH_CUDA(cudaStreamWaitEvent(ws.streams[i], fork, 0));
    pipeline(p, ws);
    for (int i = 0; i < p.streams; ++i) {
      GPUBENCH_CUDA(cudaEventRecord(joins[i], ws.streams[i]));
      GPUBENCH_CUDA(cudaStreamWaitEvent(ws.stream, joins[i], 0));
    }
  } catch (...) {  // leave the stream out of capture mode for the steps after this one
    cudaGraph_t partial = nullptr;
    cudaStreamEndCapture(ws.stream, &partial);
    if (partial) cudaGraphDestroy(partial);
    throw;
  }
  GPUBENCH_CUDA(cudaStreamEndCapture(ws.stream, &plan->graph));
  GPUBENCH_CUDA(cudaGraphInstantiate(&plan->exec, plan->graph, 0));
  return plan;
}

void replay(const Problem&, const Workspace& ws) {
  GPUBENCH_CUDA(cudaGraphLaunch(static_cast<const Plan*>(ws.plan)->exec, ws.stream));
  GPUBENCH_CUDA(cudaStreamSynchronize(ws.stream));
}

}  // namespace
}  // namespace gpubench::transfer

GPUBENCH_TRANSFER_STEP(graph, Ladder::modern, "the streams pipeline captured as a CUDA graph and replayed",
                       Memory::pinned, &replay, &capture)
