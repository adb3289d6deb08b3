/* warpsafe device headers: <vector_types.h>. Built-in vector types and dim3: part of warpsafe/cuda_runtime.h. */
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>
