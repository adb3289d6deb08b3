/* warpsafe device headers: <device_functions.h>. Device intrinsics: part of warpsafe/cuda_runtime.h. */
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>
