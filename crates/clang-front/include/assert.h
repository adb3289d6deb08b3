/* warpsafe device headers: <assert.h> (and <cassert>, which includes it),
 * shadowing the C library's. `assert(e)` stays a call to the function
 * `assert(bool)` declared in warpsafe/device_functions.h, so the AST shows the
 * assertion as a CallExpr named `assert` instead of glibc's macro expansion
 * into __assert_fail. Like the standard header it has no include guard and
 * honours NDEBUG at each inclusion. */
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>

#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#endif
