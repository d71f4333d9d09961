// GPUBENCH_HD marks a function that the kernels call and that a host test
// compiles too: __host__ __device__ under nvcc, a plain inline function
// under the host compiler.
#pragma once

#if defined(__CUDACC__)
#define GPUBENCH_HD __host__ __device__ __forceinline__
#else
#define GPUBENCH_HD inline
#endif
