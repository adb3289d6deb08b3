// Grid-stride vectorised copy through inline PTX, as bandwidth kernels write it: each thread
// moves four floats at a time with `ld.global.nc.v4.f32` (the read-only, non-coherent path)
// and `st.global.v4.f32`, both addressed through an `"l"` operand holding `src + 4 * i`, and
// an `asm volatile("" ::: "memory")` compiler barrier between iterations. Idiom: inline asm
// for cache-hinted vector loads and stores.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=128 --gridDim=2
//@ arg n4 = 300
//@ len(src) = 4 * n4
//@ len(dst) = 4 * n4
//@ requires n4 >= 0 && n4 <= 1048576
#include <cuda_runtime.h>

__global__ void copy_v4_asm(const float* __restrict__ src, float* __restrict__ dst, int n4)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        float a, b, c, d;
        asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
                     : "=f"(a), "=f"(b), "=f"(c), "=f"(d)
                     : "l"(src + 4 * i));
        asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};"
                     :
                     : "l"(dst + 4 * i), "f"(a), "f"(b), "f"(c), "f"(d)
                     : "memory");
        asm volatile("" ::: "memory");
    }
}

void copy(const float* src, float* dst, int n4)
{
    copy_v4_asm<<<2, 128>>>(src, dst, n4);
}
