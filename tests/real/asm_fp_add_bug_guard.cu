// Twin of asm_fp_add.cu whose guard is `i <= n`: thread n reads a[n], b[n] and writes out[n],
// one past the end (bounds).
// verify: bounds=violated exit=1
//--blockDim=64 --gridDim=4
//@ arg n = 200
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
    if (i <= n)
        out[i] = fp_add(a[i], b[i], p);
}
