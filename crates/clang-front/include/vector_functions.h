/* warpsafe device headers: <vector_functions.h>. make_<type> factories: part of warpsafe/cuda_runtime.h. */
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>
