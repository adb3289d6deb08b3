/* warpsafe device headers: libstdc++ 12 spells `__attribute__((__noinline__))`
 * in this header, which the CUDA macro `__noinline__` (defined for clang < 15,
 * where it is not yet a keyword) would break. Hide the macro while the real
 * header is read. */
#pragma clang system_header
#pragma push_macro("__noinline__")
#undef __noinline__
#include_next <bits/shared_ptr_base.h>
#pragma pop_macro("__noinline__")
