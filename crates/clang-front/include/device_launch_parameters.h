/* warpsafe device headers: <device_launch_parameters.h>. threadIdx, blockIdx, blockDim, gridDim, warpSize: part of warpsafe/cuda_runtime.h. */
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>
