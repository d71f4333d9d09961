// The library baseline: cudnnConvolutionForward with N = C = K = 1, the
// image as a 1 x 1 x height x width NCHW tensor, padding r on each side (the
// zero ghost cells) and CUDNN_CROSS_CORRELATION (no mask flip, as the
// contract says). The descriptor asks for CUDNN_FMA_MATH, and the algorithm
// is the fastest that cudnnFindConvolutionForwardAlgorithm measures among
// those that keep full precision: for float32 not tensor-op math (TF32
// tensor cores would round the inputs to 10 mantissa bits; the check would
// fail such a result), for float64 any (its tensor cores are FP64). The
// row's details name the algorithm.
// The algorithm, the descriptors and the workspace are made before timing.
// Find allocates its own trial buffers, outside gpubench's footprint.
//
// cuDNN is loaded at run time (dlopen of libcudnn.so.9), so the binary runs
// without it and reports this step unavailable; the header only gives the
// types.
#include <cudnn.h>

#include <climits>
#include <string>

#include "kernels/common/loaded_library.hpp"
#include "kernels/conv2d/conv2d_common.cuh"

namespace gpubench::conv2d {
namespace {

#define GPUBENCH_CUDNN_FUNCTIONS(X)                                                                                \
  X(cudnnCreate) X(cudnnDestroy) X(cudnnSetStream) X(cudnnGetErrorString) X(cudnnGetVersion)                      \
  X(cudnnCreateTensorDescriptor) X(cudnnSetTensor4dDescriptor) X(cudnnDestroyTensorDescriptor)                    \
  X(cudnnCreateFilterDescriptor) X(cudnnSetFilter4dDescriptor) X(cudnnDestroyFilterDescriptor)                    \
  X(cudnnCreateConvolutionDescriptor) X(cudnnSetConvolution2dDescriptor) X(cudnnSetConvolutionMathType)           \
  X(cudnnDestroyConvolutionDescriptor) X(cudnnFindConvolutionForwardAlgorithm) X(cudnnConvolutionForward)

struct Api {
#define GPUBENCH_DECLARE(f) decltype(&::f) f = nullptr;
  GPUBENCH_CUDNN_FUNCTIONS(GPUBENCH_DECLARE)
#undef GPUBENCH_DECLARE
  std::string error;  // why cuDNN cannot be used, or empty

  Api() {
    LoadedLibrary lib("libcudnn.so.9", "cuDNN 9 not found (put libcudnn.so.9 on LD_LIBRARY_PATH)");
#define GPUBENCH_RESOLVE(f) lib.resolve(f, #f);
    GPUBENCH_CUDNN_FUNCTIONS(GPUBENCH_RESOLVE)
#undef GPUBENCH_RESOLVE
    error = lib.error();
    if (error.empty() && cudnnGetVersion() / 10000 != CUDNN_MAJOR)
      error = "libcudnn.so.9 reports version " + std::to_string(cudnnGetVersion()) + ", not cuDNN " +
              std::to_string(CUDNN_MAJOR);
  }
};

const Api& api() {
  static const Api a;
  return a;
}

void check(cudnnStatus_t status, const char* call) {
  if (status != CUDNN_STATUS_SUCCESS) throw library_error(call, api().cudnnGetErrorString(status));
}
#define GPUBENCH_CUDNN(call) check(api().call, #call)

// Everything one problem needs, made once; destroyed with the step.
struct Plan {
  cudnnHandle_t handle = nullptr;
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t mask = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnConvolutionFwdAlgo_t algo{};
  cudnnMathType_t math{};
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;

  ~Plan() {
    if (workspace) cudaFree(workspace);
    if (conv) api().cudnnDestroyConvolutionDescriptor(conv);
    if (mask) api().cudnnDestroyFilterDescriptor(mask);
    if (y) api().cudnnDestroyTensorDescriptor(y);
    if (x) api().cudnnDestroyTensorDescriptor(x);
    if (handle) api().cudnnDestroy(handle);
  }
};

std::string unavailable(const Problem& p) {
  if (!api().error.empty()) return api().error;
  if (p.width > INT_MAX || p.height > INT_MAX || p.width * p.height > INT_MAX)
    return "cuDNN's tensors are indexed in int: at most 2^31 - 1 pixels";
  return {};
}

std::shared_ptr<void> make_plan(const Problem& p, cudaStream_t stream) {
  auto plan = std::make_shared<Plan>();
  const cudnnDataType_t type = p.dtype == DType::f64 ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
  const int w = int(p.width), h = int(p.height), r = p.side / 2;
  GPUBENCH_CUDNN(cudnnCreate(&plan->handle));
  GPUBENCH_CUDNN(cudnnSetStream(plan->handle, stream));
  GPUBENCH_CUDNN(cudnnCreateTensorDescriptor(&plan->x));
  GPUBENCH_CUDNN(cudnnSetTensor4dDescriptor(plan->x, CUDNN_TENSOR_NCHW, type, 1, 1, h, w));
  GPUBENCH_CUDNN(cudnnCreateTensorDescriptor(&plan->y));
  GPUBENCH_CUDNN(cudnnSetTensor4dDescriptor(plan->y, CUDNN_TENSOR_NCHW, type, 1, 1, h, w));
  GPUBENCH_CUDNN(cudnnCreateFilterDescriptor(&plan->mask));
  GPUBENCH_CUDNN(cudnnSetFilter4dDescriptor(plan->mask, type, CUDNN_TENSOR_NCHW, 1, 1, p.side, p.side));
  GPUBENCH_CUDNN(cudnnCreateConvolutionDescriptor(&plan->conv));
  GPUBENCH_CUDNN(cudnnSetConvolution2dDescriptor(plan->conv, r, r, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, type));
  GPUBENCH_CUDNN(cudnnSetConvolutionMathType(plan->conv, CUDNN_FMA_MATH));
  cudnnConvolutionFwdAlgoPerf_t found[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
  int count = 0;
  GPUBENCH_CUDNN(cudnnFindConvolutionForwardAlgorithm(plan->handle, plan->x, plan->mask, plan->conv, plan->y,
                                                      CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &count, found));
  const cudnnConvolutionFwdAlgoPerf_t* best = nullptr;  // found[] is sorted by time
  // float64 tensor cores (DMMA) keep full precision; float32's (TF32) do not.
  const bool tensor_ok = p.dtype == DType::f64;
  for (int i = 0; i < count && !best; ++i)
    if (found[i].status == CUDNN_STATUS_SUCCESS &&
        (tensor_ok || (found[i].mathType != CUDNN_TENSOR_OP_MATH &&
                       found[i].mathType != CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)))
      best = &found[i];
  if (!best)
    throw library_error("cudnnFindConvolutionForwardAlgorithm", "no full-precision algorithm for this convolution");
  plan->algo = best->algo;
  plan->math = best->mathType;
  GPUBENCH_CUDNN(cudnnSetConvolutionMathType(plan->conv, best->mathType));
  plan->workspace_bytes = best->memory;
  if (best->memory) GPUBENCH_CUDA(cudaMalloc(&plan->workspace, best->memory));
  return plan;
}

std::string describe(const void* plan) {
  static const char* const kAlgorithms[] = {"IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM",     "DIRECT",
                                            "FFT",           "FFT_TILING",            "WINOGRAD", "WINOGRAD_NONFUSED"};
  const Plan& p = *static_cast<const Plan*>(plan);
  const int a = int(p.algo);
  return std::string("CUDNN_CONVOLUTION_FWD_ALGO_") + (a >= 0 && a < 8 ? kAlgorithms[a] : "?") + ", math type " +
         std::to_string(int(p.math)) + ", workspace " + std::to_string(p.workspace_bytes) + " bytes";
}

void run(const Problem& p, const Workspace& ws) {
  const Plan& plan = *static_cast<const Plan*>(ws.plan);
  const double one64 = 1, zero64 = 0;
  const float one32 = 1, zero32 = 0;
  const bool f64 = p.dtype == DType::f64;
  GPUBENCH_CUDNN(cudnnConvolutionForward(plan.handle, f64 ? static_cast<const void*>(&one64) : &one32, plan.x, p.in,
                                         plan.mask, p.mask, plan.conv, plan.algo, plan.workspace,
                                         plan.workspace_bytes, f64 ? static_cast<const void*>(&zero64) : &zero32,
                                         plan.y, p.out));
}

}  // namespace

const Step& step_cudnn() {
  static const Step step{"cudnn", Ladder::baseline, "cudnnConvolutionForward, its fastest full-precision algorithm",
                         Where::device, &run, &make_plan, nullptr, &unavailable, &describe};
  return step;
}

}  // namespace gpubench::conv2d
