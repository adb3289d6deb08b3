/* warpsafe device headers: <sm_60_atomic_functions.h>. Scoped atomics: part of warpsafe/cuda_runtime.h. */
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>
