/* warpsafe device headers: <cuda_profiler_api.h>. cudaProfilerStart / cudaProfilerStop: part of warpsafe/cuda_runtime.h. */
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>
