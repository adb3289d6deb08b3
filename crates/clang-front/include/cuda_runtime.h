/* warpsafe device headers: <cuda_runtime.h>. Everything nvcc includes implicitly; clang force-includes warpsafe/cuda_runtime.h, so this only matters when it is not. */
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>
