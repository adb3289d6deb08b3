/* warpsafe device headers: <driver_types.h>. Runtime enums and handles: part of warpsafe/cuda_runtime.h. */
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>
