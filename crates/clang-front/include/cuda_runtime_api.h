/* warpsafe device headers: <cuda_runtime_api.h>. The runtime's C API: part of warpsafe/cuda_runtime.h. */
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>
