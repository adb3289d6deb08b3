// Modular addition in F_p for a 64-bit prime (Goldilocks, p = 2^64 - 2^32 + 1, passed in),
// written the way finite-field and big-integer code writes it: 32-bit limbs added with an
// `add.cc.u32` / `addc.cc.u32` / `addc.u32` carry chain (the 65th bit kept), p subtracted with
// `sub.cc.u32` / `subc.cc.u32` / `subc.u32`, and the result chosen by a scoped predicate
// (`setp.ne.u32` + `selp.b32`) on the borrow word; the limb split uses `mov.b64 {lo, hi}`.
// Inputs must be reduced (a, b < p); the interpreter's outputs are checked against u128
// arithmetic in crates/cli/tests/inline_asm.rs. Idiom: extended-precision carry chains.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=64 --gridDim=4
//@ arg n = 256
//@ len(a) = n
//@ len(b) = n
//@ len(out) = n
//@ requires n >= 0 && n <= 1048576
#include <cuda_runtime.h>
#include <stdint.h>

__device__ __forceinline__ uint64_t fp_add(uint64_t a, uint64_t b, uint64_t p)
{
    unsigned alo, ahi, blo, bhi, plo, phi;
    asm("mov.b64 {%0, %1}, %2;" : "=r"(alo), "=r"(ahi) : "l"(a));
    asm("mov.b64 {%0, %1}, %2;" : "=r"(blo), "=r"(bhi) : "l"(b));
    asm("mov.b64 {%0, %1}, %2;" : "=r"(plo), "=r"(phi) : "l"(p));
    unsigned slo, shi, top;
    asm("add.cc.u32 %0, %3, %5;\n\t"
        "addc.cc.u32 %1, %4, %6;\n\t"
        "addc.u32 %2, 0, 0;"
        : "=r"(slo), "=r"(shi), "=r"(top)
        : "r"(alo), "r"(ahi), "r"(blo), "r"(bhi));
    unsigned dlo = slo, dhi = shi;
    asm("sub.cc.u32 %0, %0, %3;\n\t"
        "subc.cc.u32 %1, %1, %4;\n\t"
        "subc.u32 %2, %2, 0;"
        : "+r"(dlo), "+r"(dhi), "+r"(top)
        : "r"(plo), "r"(phi));
    // top is 0 when a + b >= p (keep the difference), all ones when it borrowed.
    unsigned rlo, rhi;
    asm("{\n\t"
        ".reg .pred borrowed;\n\t"
        "setp.ne.u32 borrowed, %4, 0;\n\t"
        "selp.b32 %0, %2, %5, borrowed;\n\t"
        "selp.b32 %1, %3, %6, borrowed;\n\t"
        "}"
        : "=r"(rlo), "=r"(rhi)
        : "r"(slo), "r"(shi), "r"(top), "r"(dlo), "r"(dhi));
    uint64_t r;
    asm("mov.b64 %0, {%1, %2};" : "=l"(r) : "r"(rlo), "r"(rhi));
    return r;
}

__global__ void fp_add_kernel(const uint64_t* __restrict__ a, const uint64_t* __restrict__ b,
                              uint64_t* __restrict__ out, uint64_t p, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = fp_add(a[i], b[i], p);
}
